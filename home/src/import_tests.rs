use std::io::Write;
use std::path::Path;

use super::*;

const THREAD: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55";
const CHILD: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a66";
const PARENT: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a77";

fn session(id: &str, base: Option<&str>) -> String {
    let base = base
        .map(|parent| format!(r#","history_base":{{"thread_id":"{parent}","end_byte_offset":10}}"#))
        .unwrap_or_default();
    format!(
        concat!(
            r#"{{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{{"id":"{id}","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"test","cli_version":"0.1.0"{base}}}}}"#,
            "\n",
            r#"{{"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"hello"}}]}}}}"#,
            "\n"
        ),
        id = id,
        base = base
    )
}

fn write(path: &Path, text: &str) -> std::io::Result<()> {
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new(".")))?;
    std::fs::write(path, text)
}

fn name(id: &str) -> String {
    format!("rollout-2025-06-02T09-00-00-{id}.jsonl")
}

/// A session of [`THREAD`] at `folder` (relative) in a fresh source folder, and a fresh empty
/// home to import it into. Bind every field where it is taken apart: a dropped `TempDir`
/// deletes its folder.
struct OneSession {
    source: tempfile::TempDir,
    dest: tempfile::TempDir,
    file: std::path::PathBuf,
    home: CodexHome,
}

fn one_session(folder: &str) -> std::io::Result<OneSession> {
    let source = tempfile::tempdir()?;
    let dest = tempfile::tempdir()?;
    let file = source.path().join(folder).join(name(THREAD));
    write(&file, &session(THREAD, None))?;
    let home = CodexHome::new(dest.path());
    Ok(OneSession {
        source,
        dest,
        file,
        home,
    })
}

/// The plan of importing `file` into `home`, with the default options.
fn plan_of(file: &Path, home: &CodexHome) -> Result<ImportPlan, ImportError> {
    plan_import(&[file.to_path_buf()], home, ImportOptions::default())
}

#[test]
fn a_plan_places_each_file_and_says_what_it_cannot_import() -> Result<(), Box<dyn std::error::Error>>
{
    let source = tempfile::tempdir()?;
    let dest = tempfile::tempdir()?;
    let live = source.path().join("sessions/2025/06/02");
    write(&live.join(name(THREAD)), &session(THREAD, None))?;
    write(&live.join(name(CHILD)), &session(CHILD, Some(PARENT)))?;
    write(
        &source.path().join("archived_sessions").join(name(PARENT)),
        &session(PARENT, None),
    )?;
    write(
        &source.path().join("session_index.jsonl"),
        &format!(
            "{{\"id\":\"{THREAD}\",\"thread_name\":\"demo\",\"updated_at\":\"2025-06-02T10:00:00Z\"}}\n"
        ),
    )?;
    let home = CodexHome::new(dest.path());
    let plan = plan_import(
        &[source.path().to_path_buf()],
        &home,
        ImportOptions::default(),
    )?;
    let by_id = |id: &str| {
        plan.files
            .iter()
            .find(|file| file.thread_id.to_string() == id)
    };
    let thread = by_id(THREAD).ok_or("thread planned")?;
    assert_eq!(thread.action, PlannedAction::Copy);
    assert_eq!(
        thread.target,
        dest.path().join("sessions/2025/06/02").join(name(THREAD))
    );
    assert_eq!(thread.name.as_deref(), Some("demo"));
    let parent = by_id(PARENT).ok_or("parent planned")?;
    assert_eq!(
        parent.target,
        dest.path().join("archived_sessions").join(name(PARENT))
    );
    let child = by_id(CHILD).ok_or("child planned")?;
    assert_eq!(
        child.parent.map(|id| id.to_string()).as_deref(),
        Some(PARENT)
    );
    assert_eq!(
        child.action,
        PlannedAction::Copy,
        "its parent comes with it"
    );

    // Without its parent, the fork is held.
    let alone = plan_import(&[live.join(name(CHILD))], &home, ImportOptions::default())?;
    assert!(matches!(
        alone.files[0].action,
        PlannedAction::MissingParent { .. }
    ));
    Ok(())
}

#[test]
fn a_thread_the_home_has_is_left_unless_a_new_copy_is_asked()
-> Result<(), Box<dyn std::error::Error>> {
    let OneSession {
        source: _source,
        dest,
        file,
        home,
    } = one_session("")?;
    let target = dest.path().join("sessions/2025/06/02").join(name(THREAD));
    // The same bytes already in place: an earlier import.
    write(&target, &session(THREAD, None))?;
    let plan = plan_of(&file, &home)?;
    assert_eq!(plan.files[0].action, PlannedAction::AlreadyThere);
    // Other bytes under the same thread: the home's own.
    write(&target, &session(THREAD, Some(PARENT)))?;
    let plan = plan_of(&file, &home)?;
    assert_eq!(
        plan.files[0].action,
        PlannedAction::InHome {
            existing: target.clone()
        }
    );
    let options = ImportOptions {
        new_copy_of_known: true,
    };
    let plan = plan_import(&[file], &home, options)?;
    assert_eq!(
        plan.files[0].action,
        PlannedAction::NewCopy { existing: target }
    );
    Ok(())
}

#[test]
fn without_codex_the_copies_are_made_whole_and_the_error_says_so()
-> Result<(), Box<dyn std::error::Error>> {
    let OneSession {
        source: _source,
        dest,
        file,
        home,
    } = one_session("")?;
    let plan = plan_of(&file, &home)?;
    let missing = dest.path().join("no-such-codex");
    let error = apply_import(&plan, &home, missing.as_os_str(), &|_| {})
        .err()
        .ok_or("no Codex is an error")?;
    assert!(error.to_string().contains("--codex"), "{error}");
    let target = &plan.files[0].target;
    assert_eq!(std::fs::read(target)?, std::fs::read(&file)?);
    assert_eq!(
        std::fs::metadata(target)?.modified()?,
        std::fs::metadata(&file)?.modified()?
    );
    // A rerun finds it there.
    let again = plan_of(&file, &home)?;
    assert_eq!(again.files[0].action, PlannedAction::AlreadyThere);
    Ok(())
}

#[test]
fn a_folder_that_is_no_session_is_named_in_the_error() {
    let dest = tempfile::tempdir().ok();
    let home = CodexHome::new(dest.as_ref().map_or(Path::new("."), |dir| dir.path()));
    let missing = Path::new("/no/such/source").to_path_buf();
    let error = plan_import(&[missing], &home, ImportOptions::default()).err();
    assert!(error.is_some_and(|error| error.to_string().contains("/no/such/source")));
}

#[test]
fn an_archive_of_a_home_is_imported_as_the_home() -> Result<(), Box<dyn std::error::Error>> {
    let source = tempfile::tempdir()?;
    let dest = tempfile::tempdir()?;
    let home_folder = source.path().join(".codex");
    write(
        &home_folder.join("sessions/2025/06/02").join(name(THREAD)),
        &session(THREAD, None),
    )?;
    write(
        &home_folder.join("archived_sessions").join(name(PARENT)),
        &session(PARENT, None),
    )?;
    write(
        &home_folder.join("session_index.jsonl"),
        &format!(
            "{{\"id\":\"{THREAD}\",\"thread_name\":\"packed\",\"updated_at\":\"2025-06-02T10:00:00Z\"}}\n"
        ),
    )?;
    for (archive, zstd) in [("backup.tar", false), ("backup.tar.zst", true)] {
        let path = source.path().join(archive);
        let file = std::fs::File::create(&path)?;
        let writer: Box<dyn std::io::Write> = match zstd {
            true => Box::new(zstd::Encoder::new(file, 3)?.auto_finish()),
            false => Box::new(file),
        };
        let mut builder = tar::Builder::new(writer);
        builder.append_dir_all(".codex", &home_folder)?;
        builder.into_inner()?.flush()?;
        let home = CodexHome::new(dest.path());
        let plan = plan_import(std::slice::from_ref(&path), &home, ImportOptions::default())?;
        assert_eq!(plan.files.len(), 2, "{archive}");
        let thread = plan
            .files
            .iter()
            .find(|file| file.thread_id.to_string() == THREAD)
            .ok_or("the live thread")?;
        assert_eq!(thread.name.as_deref(), Some("packed"), "{archive}");
        assert_eq!(thread.action, PlannedAction::Copy);
        let parent = plan
            .files
            .iter()
            .find(|file| file.thread_id.to_string() == PARENT)
            .ok_or("the archived thread")?;
        assert_eq!(
            parent.target,
            dest.path().join("archived_sessions").join(name(PARENT))
        );
        assert!(parent.source.exists(), "unpacked while the plan lives");
    }
    Ok(())
}

#[test]
fn a_session_a_running_codex_writes_is_held() -> Result<(), Box<dyn std::error::Error>> {
    let OneSession {
        source,
        dest: _dest,
        file,
        home,
    } = one_session("sessions/2025/06/02")?;
    let lock_path = crate::thread_writer_lock_path(
        &CodexHome::new(source.path()),
        codex_protocol::thread_id::ThreadId::from_string(THREAD)?,
    );
    std::fs::create_dir_all(lock_path.parent().ok_or("a folder")?)?;
    let lock = std::fs::File::create(&lock_path)?;
    lock.lock()?;
    let plan = plan_of(&file, &home)?;
    assert_eq!(plan.files[0].action, PlannedAction::BeingWritten);
    lock.unlock()?;
    let plan = plan_of(&file, &home)?;
    assert_eq!(plan.files[0].action, PlannedAction::Copy);
    Ok(())
}

#[test]
fn a_temporary_copy_a_killed_import_left_is_removed_by_the_next()
-> Result<(), Box<dyn std::error::Error>> {
    let OneSession {
        source: _source,
        dest,
        file,
        home,
    } = one_session("")?;
    let plan = plan_of(&file, &home)?;
    let target = plan.files[0].target.clone();
    // Killed after linking the copy into place, before removing the temporary file.
    write(&target, &session(THREAD, None))?;
    let temporary = target.with_file_name(format!(".{}.importing", name(THREAD)));
    write(&temporary, &session(THREAD, None))?;
    let plan = plan_of(&file, &home)?;
    assert_eq!(plan.files[0].action, PlannedAction::AlreadyThere);
    let _ = apply_import(
        &plan,
        &home,
        dest.path().join("no-codex").as_os_str(),
        &|_| {},
    );
    assert!(!temporary.exists(), "the leftover is removed");
    Ok(())
}
