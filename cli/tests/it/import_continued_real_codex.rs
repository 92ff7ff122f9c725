//! A thread Codex continued in a second file (`thread/revert` writes
//! `rollout-…-<thread>_<rollout>.jsonl`, whose `history_base` names the first file) is shown
//! whole by Codex after `import` and after `repair --apply`.
//!
//! Codex registers such a thread from its newest file and projects only that file, so given
//! both files it shows only the continuation's turns: the test shows that first, on a copy of
//! the home's files that Codex itself loads. `import` has Codex project every file of the
//! thread (`docs/storage.md`, "A thread continued in other files"), and `repair` finds the
//! earlier file unprojected and fixes it the same way.

use std::path::{Path, PathBuf};
use std::time::Duration;

use codex_test_support::{CodexHome, Reply, Script, ScriptedModel, real_codex_or_skip};
use serde_json::{Value, json};

use crate::common::TestResult;
use crate::common::real_codex::{our_thread, text};
use crate::import_real_codex::{HISTORY_TABLES, comparable, history_rows, import_into};
use crate::repair_real_codex::repair;

type Failure = Box<dyn std::error::Error>;

/// The rollout id a file's name gives (its trailing uuid).
fn rollout_id(path: &Path) -> Result<String, Failure> {
    let name = path
        .file_name()
        .and_then(|name| name.to_str())
        .ok_or("name")?;
    let core = name.strip_suffix(".jsonl").ok_or("not a session file")?;
    Ok(core[core.len() - 36..].to_owned())
}

/// Where an import of the continued thread is killed, in milliseconds after it starts.
const KILL_AFTER_MS: [u64; 4] = [150, 350, 550, 750];

/// The file Codex's row of `id` in `home` names.
fn row_path(home: &CodexHome, id: &str) -> Result<Option<PathBuf>, Failure> {
    let rows = rusqlite::Connection::open_with_flags(
        home.path().join("state_5.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )?;
    let path: Option<String> = rows
        .query_row(
            "SELECT rollout_path FROM threads WHERE id = ?1",
            [id],
            |row| row.get(0),
        )
        .ok();
    Ok(path.map(PathBuf::from))
}

/// `files` copied into `home` under the same folders as in `source`.
fn copy_files(files: &[PathBuf], source: &Path, home: &Path) -> Result<(), Failure> {
    for file in files {
        let placed = home.join(file.strip_prefix(source)?);
        std::fs::create_dir_all(placed.parent().ok_or("folder")?)?;
        std::fs::copy(file, placed)?;
    }
    Ok(())
}

/// `thread/read` of `id` in `home`, and the user messages of its turns.
fn read(home: &CodexHome, id: &str) -> Result<(Value, Vec<String>), Failure> {
    let thread = home.app_server()?.thread_read(id)?;
    let said = thread["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|turn| turn["items"].as_array().into_iter().flatten())
        .filter(|item| item["type"] == "userMessage")
        .filter_map(|item| item["content"][0]["text"].as_str().map(str::to_owned))
        .collect();
    Ok((thread, said))
}

#[test]
fn a_thread_continued_in_another_file_is_shown_whole_after_import_and_repair() -> TestResult {
    let Some(codex) = real_codex_or_skip(
        "a_thread_continued_in_another_file_is_shown_whole_after_import_and_repair",
    ) else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let source = CodexHome::new(&codex, &model)?;
    model.push_reply(Reply::message("msg_1", "One."));
    let first = source.exec("one")?;
    first.assert_success();
    let id = first.expect_thread_id().to_owned();
    model.push_reply(Reply::message("msg_2", "Two."));
    source.resume(&id, "two")?.assert_success();
    {
        let mut server = source.app_server()?;
        let turns = server.thread_read(&id)?["turns"].clone();
        let second = turns[1]["id"].as_str().ok_or("no second turn")?.to_owned();
        server.call("thread/resume", json!({"threadId": id}))?;
        server.call(
            "thread/revert",
            json!({"threadId": id, "beforeTurnId": second}),
        )?;
    }
    model.push_reply(Reply::message("msg_3", "Three."));
    source.resume(&id, "three")?.assert_success();
    let files = source.session_files()?;
    assert_eq!(files.len(), 2, "the revert wrote a second file: {files:?}");
    let (written, said) = read(&source, &id)?;
    assert_eq!(said, ["one", "three"], "the home that wrote it");
    let written = comparable(written);
    let keys = files
        .iter()
        .map(|file| rollout_id(file))
        .collect::<Result<Vec<_>, _>>()?;

    // Given both files, Codex registers the thread from the newest and shows only its turn.
    let copied = CodexHome::new(&codex, &model)?;
    copy_files(&files, source.path(), copied.path())?;
    {
        let mut server = copied.app_server()?;
        server.call(
            "thread/resume",
            json!({"threadId": id, "excludeTurns": true}),
        )?;
        server.call("thread/unsubscribe", json!({"threadId": id}))?;
    }
    assert_eq!(
        read(&copied, &id)?.1,
        ["three"],
        "Codex alone, given both files"
    );

    // Imported, it is shown whole: as in the home that wrote it but for the preview, which
    // Codex takes from the file it registers the thread from (the newest; the home that
    // wrote it kept the first message's, from before the revert).
    let dest = CodexHome::new(&codex, &model)?;
    import_into(source.path(), dest.path(), codex.bin())?;
    let (imported, said) = read(&dest, &id)?;
    assert_eq!(said, ["one", "three"], "imported");
    let mut imported = comparable(imported);
    assert_eq!(
        (&imported["preview"], &written["preview"]),
        (&json!("three"), &json!("one"))
    );
    imported["preview"] = written["preview"].clone();
    assert_eq!(imported, written, "thread/read after the import");
    // Our `thread` of the newest file shows the turns Codex shows.
    let newest = dest.path().join(files[1].strip_prefix(source.path())?);
    let ours = our_thread(&newest, dest.path())?;
    assert_eq!(ours["turns"], imported["turns"], "our thread and Codex's");
    for table in HISTORY_TABLES {
        assert_eq!(
            history_rows(dest.path(), table, &keys)?,
            history_rows(source.path(), table, &keys)?,
            "{table}"
        );
    }
    // Killed while it registers (while Codex loads one file or the other, or between the two
    // writes of the row), the next import ends as the whole one did.
    for delay in KILL_AFTER_MS {
        let killed_home = CodexHome::new(&codex, &model)?;
        let mut killed = std::process::Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
            .args([
                "import",
                text(source.path())?,
                "--home",
                text(killed_home.path())?,
            ])
            .args(["--codex", text(codex.bin())?])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()?;
        std::thread::sleep(Duration::from_millis(delay));
        let _ = killed.kill();
        killed.wait()?;
        import_into(source.path(), killed_home.path(), codex.bin())?;
        let (again, said) = read(&killed_home, &id)?;
        assert_eq!(
            said,
            ["one", "three"],
            "killed after {delay} ms, imported again"
        );
        assert_eq!(comparable(again)["turns"], imported["turns"]);
        assert_eq!(
            row_path(&killed_home, &id)?,
            row_path(&dest, &id)?.map(|path| {
                killed_home
                    .path()
                    .join(path.strip_prefix(dest.path()).unwrap_or(&path))
            })
        );
    }
    // The state a kill between the two writes leaves, made sure of: the row on the first
    // file. The next import points it back at the newest.
    let newest_row = row_path(&dest, &id)?.ok_or("no row")?;
    let first_row = newest_row.with_file_name(files[0].file_name().ok_or("name")?);
    rusqlite::Connection::open(dest.path().join("state_5.sqlite"))?.execute(
        "UPDATE threads SET rollout_path = ?1 WHERE id = ?2",
        [first_row.to_string_lossy().as_ref(), id.as_str()],
    )?;
    import_into(source.path(), dest.path(), codex.bin())?;
    assert_eq!(row_path(&dest, &id)?, Some(newest_row));
    assert_eq!(read(&dest, &id)?.1, ["one", "three"], "imported again");

    let (code, found) = repair(&dest, &[])?;
    let findings: Vec<&Value> = found
        .iter()
        .filter(|line| line["problem"].is_string())
        .collect();
    assert_eq!(
        (code, findings.len()),
        (0, 0),
        "nothing to repair: {found:?}"
    );

    // The copied home: repair finds the first file unprojected, and has Codex project it.
    let (_, found) = repair(&copied, &[])?;
    let problems: Vec<(String, String)> = found
        .iter()
        .filter_map(|line| {
            Some((
                rollout_id(Path::new(line["path"].as_str()?)).ok()?,
                line["problem"].as_str()?.to_owned(),
            ))
        })
        .collect();
    assert_eq!(
        problems,
        [(keys[0].clone(), "unprojected".to_owned())],
        "{found:?}"
    );
    repair(&copied, &["--apply"])?;
    assert_eq!(read(&copied, &id)?.1, ["one", "three"], "repaired");
    let (_, found) = repair(&copied, &[])?;
    assert!(
        found.iter().all(|line| !line["problem"].is_string()),
        "{found:?}"
    );
    Ok(())
}
