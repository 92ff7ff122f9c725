use std::collections::BTreeMap;
use std::fs::File;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use parquet::arrow::arrow_reader::ParquetRecordBatchReaderBuilder;
use pretty_assertions::assert_eq;

use super::*;

pub(super) type TestResult = Result<(), Box<dyn std::error::Error>>;

pub(super) const IDS: [&str; 3] = [
    "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a51",
    "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a52",
    "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a53",
];

/// One session of `turns` turns on `day` (`2025-06-0D`): a message, a call and its output,
/// and a token count per turn.
pub(super) fn session(id: &str, day: u32, turns: u32) -> String {
    let at = |second: u32| format!("2025-06-{day:02}T09:00:{second:02}.000Z");
    let mut lines = vec![format!(
        r#"{{"timestamp":"{}","type":"session_meta","payload":{{"id":"{id}","timestamp":"{}","cwd":"/work/demo","originator":"test","cli_version":"0.1.0"}}}}"#,
        at(0),
        at(0)
    )];
    for turn in 1..=turns {
        lines.extend(turn_lines(id, turn, &at(turn)));
    }
    lines.join("\n") + "\n"
}

pub(super) fn turn_lines(id: &str, turn: u32, at: &str) -> Vec<String> {
    let total = 100 * u64::from(turn);
    vec![
        format!(
            r#"{{"timestamp":"{at}","type":"event_msg","payload":{{"type":"task_started","turn_id":"{id}-t{turn}"}}}}"#
        ),
        format!(
            r#"{{"timestamp":"{at}","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"turn {turn} mail me at a.b@example.org"}}]}}}}"#
        ),
        format!(
            r#"{{"timestamp":"{at}","type":"event_msg","payload":{{"type":"user_message","message":"turn {turn}"}}}}"#
        ),
        format!(
            r#"{{"timestamp":"{at}","type":"response_item","payload":{{"type":"function_call","name":"shell","arguments":"{{}}","call_id":"c{turn}"}}}}"#
        ),
        format!(
            r#"{{"timestamp":"{at}","type":"response_item","payload":{{"type":"function_call_output","call_id":"c{turn}","output":"ok"}}}}"#
        ),
        format!(
            r#"{{"timestamp":"{at}","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{{"input_tokens":{total},"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":{}}},"last_token_usage":{{"input_tokens":100,"cached_input_tokens":0,"output_tokens":10,"reasoning_output_tokens":0,"total_tokens":110}}}},"rate_limits":null}}}}"#,
            total + 10
        ),
        format!(
            r#"{{"timestamp":"{at}","type":"event_msg","payload":{{"type":"task_complete","turn_id":"{id}-t{turn}","last_agent_message":null}}}}"#
        ),
    ]
}

/// A home with the three sessions on June 1, 2 and 3; their paths.
pub(super) fn home() -> Result<(tempfile::TempDir, Vec<PathBuf>), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let mut paths = Vec::new();
    for (index, id) in IDS.iter().enumerate() {
        let day = u32::try_from(index)? + 1;
        let folder = dir.path().join(format!("sessions/2025/06/{day:02}"));
        std::fs::create_dir_all(&folder)?;
        let path = folder.join(format!("rollout-2025-06-{day:02}T09-00-00-{id}.jsonl"));
        std::fs::write(&path, session(id, day, 2))?;
        paths.push(path);
    }
    Ok((dir, paths))
}

fn write(home: &Path, out: &Path) -> Result<TableRun, TableError> {
    write_tables(
        &CodexHome::new(home),
        out,
        &TableOptions::default(),
        &|_| {},
    )
}

/// Every file under `out` with its inode and modification time: what a run touched.
pub(super) fn files_of(out: &Path) -> Result<BTreeMap<PathBuf, (u64, i64, i64)>, std::io::Error> {
    let mut files = BTreeMap::new();
    let mut folders = vec![out.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(folder)? {
            let path = entry?.path();
            let meta = std::fs::metadata(&path)?;
            if meta.is_dir() {
                folders.push(path);
            } else {
                files.insert(path, (meta.ino(), meta.mtime(), meta.mtime_nsec()));
            }
        }
    }
    Ok(files)
}

/// Rows per table, read back as a `*.parquet` glob of each day folder reads them.
fn rows_of(out: &Path) -> Result<BTreeMap<String, usize>, Box<dyn std::error::Error>> {
    let mut rows = BTreeMap::new();
    for table in Table::ALL {
        let mut count = 0;
        let Ok(days) = std::fs::read_dir(out.join(table.name())) else {
            continue;
        };
        for day in days {
            for file in std::fs::read_dir(day?.path())? {
                let path = file?.path();
                if path.extension().is_none_or(|ext| ext != "parquet") {
                    continue;
                }
                for batch in
                    ParquetRecordBatchReaderBuilder::try_new(File::open(&path)?)?.build()?
                {
                    count += batch?.num_rows();
                }
            }
        }
        rows.insert(table.name().to_string(), count);
    }
    Ok(rows)
}

fn expected_rows(sessions: usize, turns: usize) -> BTreeMap<String, usize> {
    BTreeMap::from([
        ("threads".to_string(), sessions),
        ("turns".to_string(), turns),
        ("items".to_string(), 3 * turns),
        ("token_usage".to_string(), turns),
    ])
}

#[test]
fn a_first_run_writes_every_table_by_day_and_an_unchanged_home_writes_nothing() -> TestResult {
    let (home, _) = home()?;
    let out = tempfile::tempdir()?;
    let first = write(home.path(), out.path())?;
    assert_eq!((first.threads, first.changed), (3, 3));
    // Four tables on three days.
    assert_eq!(first.partitions.written, 12);
    assert_eq!(rows_of(out.path())?, expected_rows(3, 6));
    assert!(
        out.path()
            .join("token_usage/day=2025-06-02")
            .join(PART_FILE)
            .is_file()
    );

    let before = files_of(out.path())?;
    let second = write(home.path(), out.path())?;
    assert!(second.wrote_nothing(), "{second:?}");
    assert_eq!(second.reread, 0);
    assert_eq!(
        files_of(out.path())?,
        before,
        "an unchanged home touched no file"
    );
    Ok(())
}

#[test]
fn a_grown_file_rewrites_only_the_partitions_its_rows_fall_on() -> TestResult {
    let (home, paths) = home()?;
    let out = tempfile::tempdir()?;
    write(home.path(), out.path())?;
    let before = files_of(out.path())?;

    // The second session grows by a turn on its own day and one on June 4.
    let mut text = std::fs::read_to_string(&paths[1])?;
    text += &(turn_lines(IDS[1], 3, "2025-06-02T10:00:00.000Z").join("\n") + "\n");
    text += &(turn_lines(IDS[1], 4, "2025-06-04T10:00:00.000Z").join("\n") + "\n");
    std::fs::write(&paths[1], text)?;
    let run = write(home.path(), out.path())?;
    assert_eq!((run.changed, run.reread, run.recognised), (1, 0, 0));
    // June 2 (turns, items, tokens; its thread row too) and the new June 4 (no thread row).
    assert_eq!(run.partitions.written, 7);
    let after = files_of(out.path())?;
    for (path, stamp) in &before {
        let name = path.to_string_lossy();
        let touched = after.get(path) != Some(stamp);
        let june_2 = name.contains("day=2025-06-02") || name.ends_with(MANIFEST_FILE);
        assert_eq!(touched, june_2, "{name}");
    }
    assert!(
        after
            .keys()
            .any(|path| path.to_string_lossy().contains("items/day=2025-06-04"))
    );
    assert_eq!(rows_of(out.path())?, expected_rows(3, 8));

    // A session added on a day that has another: that one is read again for the partition.
    let extra = paths[0].with_file_name(format!(
        "rollout-2025-06-01T09-00-00-{}.jsonl",
        "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a54"
    ));
    std::fs::write(
        &extra,
        session("0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a54", 1, 1),
    )?;
    let run = write(home.path(), out.path())?;
    assert_eq!((run.changed, run.reread), (1, 1));
    assert_eq!(rows_of(out.path())?, expected_rows(4, 9));
    Ok(())
}

#[test]
fn a_compressed_or_archived_file_is_the_same_thread_and_a_removed_one_goes() -> TestResult {
    let (home, paths) = home()?;
    let out = tempfile::tempdir()?;
    write(home.path(), out.path())?;
    let before = files_of(out.path())?;

    // The first compressed in place, the third moved to archived_sessions/.
    let compressed = paths[0].with_extension("jsonl.zst");
    std::fs::write(&compressed, zstd::encode_all(File::open(&paths[0])?, 3)?)?;
    std::fs::remove_file(&paths[0])?;
    let archived = home.path().join("archived_sessions");
    std::fs::create_dir_all(&archived)?;
    let moved = archived.join(paths[2].file_name().ok_or("no name")?);
    std::fs::rename(&paths[2], &moved)?;
    let run = write(home.path(), out.path())?;
    assert_eq!((run.recognised, run.changed, run.reread), (2, 0, 0));
    assert_eq!(run.partitions, PartitionCounts::default());
    let after = files_of(out.path())?;
    let data = |files: &BTreeMap<PathBuf, (u64, i64, i64)>| {
        files
            .iter()
            .filter(|(path, _)| !path.ends_with(MANIFEST_FILE))
            .map(|(path, stamp)| (path.clone(), *stamp))
            .collect::<Vec<_>>()
    };
    assert_eq!(data(&after), data(&before), "no partition was written");
    // The manifest follows the files: the next run writes nothing at all.
    assert!(write(home.path(), out.path())?.wrote_nothing());

    // A thread gone from the home leaves the tables; its days' partitions go with it.
    std::fs::remove_file(&moved)?;
    let run = write(home.path(), out.path())?;
    assert_eq!(run.removed, 1);
    assert_eq!(run.partitions.removed, 4);
    assert!(!out.path().join("threads/day=2025-06-03").exists());
    assert_eq!(rows_of(out.path())?, expected_rows(2, 4));
    Ok(())
}

#[test]
fn a_temporary_file_left_by_a_killed_run_breaks_no_reader_and_is_cleaned_up() -> TestResult {
    let (home, paths) = home()?;
    let out = tempfile::tempdir()?;
    write(home.path(), out.path())?;
    // A run killed while writing June 2's items: half a Parquet file beside the old one.
    let day = out.path().join("items/day=2025-06-02");
    let partial = day.join(format!(".{PART_FILE}.tmp-4242"));
    let whole = std::fs::read(day.join(PART_FILE))?;
    std::fs::write(&partial, &whole[..whole.len() / 2])?;
    assert_eq!(rows_of(out.path())?, expected_rows(3, 6));

    // A killed run also leaves the previous manifest: the next run redoes the work.
    let mut text = std::fs::read_to_string(&paths[1])?;
    text += &(turn_lines(IDS[1], 3, "2025-06-02T10:00:00.000Z").join("\n") + "\n");
    std::fs::write(&paths[1], text)?;
    let run = write(home.path(), out.path())?;
    assert_eq!(run.changed, 1);
    assert!(!partial.exists(), "the stale temporary file was removed");
    assert_eq!(rows_of(out.path())?, expected_rows(3, 7));
    Ok(())
}

#[test]
fn rows_come_from_the_existing_answers_and_redaction_masks_text() -> TestResult {
    let (home, _) = home()?;
    let codex_home = CodexHome::new(home.path());
    let options = TableOptions {
        with_text: true,
        redact: true,
        person: None,
    };
    let rows = thread_rows(&codex_home, IDS[0], &options)?.ok_or("no thread")?;
    assert_eq!(rows.thread.pieces, 1);
    assert_eq!(rows.thread.cwd.as_deref(), Some("/work/demo"));
    // No git in the meta: the project is the working directory.
    assert_eq!(rows.thread.project.as_deref(), Some("/work/demo"));
    let statuses: Vec<_> = rows
        .turns
        .iter()
        .map(|turn| turn.status.as_deref())
        .collect();
    assert_eq!(statuses, vec![Some("completed"), Some("completed")]);
    let tokens: Vec<u64> = rows.tokens.iter().map(|row| row.input_tokens).collect();
    assert_eq!(tokens, vec![100, 100]);
    let user = rows
        .items
        .iter()
        .find(|item| item.role.as_deref() == Some("user"))
        .ok_or("no user item")?;
    assert_eq!(user.text.as_deref(), Some("turn 1 mail me at [email]"));
    assert_eq!(
        user.text_chars,
        "turn 1 mail me at a.b@example.org".chars().count() as u64
    );
    let call = rows
        .items
        .iter()
        .find(|item| item.tool_name.is_some())
        .ok_or("no call")?;
    assert_eq!(
        (
            call.tool_name.as_deref(),
            call.status.as_deref(),
            call.turn_id.as_deref()
        ),
        (
            Some("shell"),
            Some("completed"),
            Some(format!("{}-t1", IDS[0]).as_str())
        )
    );
    Ok(())
}

pub(super) fn write_as(home: &Path, out: &Path, person: &str) -> Result<TableRun, TableError> {
    let options = TableOptions {
        person: Some(person.to_string()),
        ..TableOptions::default()
    };
    write_tables(&CodexHome::new(home), out, &options, &|_| {})
}

/// The files under `out` of one person's partitions.
fn files_of_person(
    out: &Path,
    person: &str,
) -> Result<BTreeMap<PathBuf, (u64, i64, i64)>, std::io::Error> {
    let marker = format!("person={person}");
    Ok(files_of(out)?
        .into_iter()
        .filter(|(path, _)| {
            path.components()
                .any(|part| part.as_os_str() == marker.as_str())
        })
        .collect())
}

#[test]
fn two_people_write_into_one_folder_each_only_into_their_own_partitions() -> TestResult {
    let (alice_home, alice_paths) = home()?;
    let (bob_home, _) = home()?;
    let out = tempfile::tempdir()?;
    write_as(alice_home.path(), out.path(), "alice")?;
    write_as(bob_home.path(), out.path(), "bob")?;
    for person in ["alice", "bob"] {
        for table in Table::ALL {
            let part = out
                .path()
                .join(table.name())
                .join(format!("person={person}"))
                .join("day=2025-06-01")
                .join(PART_FILE);
            assert!(part.is_file(), "{} missing", part.display());
        }
        let manifest = out
            .path()
            .join(format!("_manifests/person={person}"))
            .join(MANIFEST_FILE);
        assert!(manifest.is_file(), "{} missing", manifest.display());
        assert_eq!(
            rows_of(&out.path().join("any"))?.values().sum::<usize>(),
            0,
            "no table outside the tables' folders"
        );
    }
    assert!(!out.path().join(MANIFEST_FILE).exists());

    // Each file and each manifest says its schema version.
    let part = out
        .path()
        .join("items/person=bob/day=2025-06-03")
        .join(PART_FILE);
    let builder = ParquetRecordBatchReaderBuilder::try_new(File::open(part)?)?;
    let version = builder
        .metadata()
        .file_metadata()
        .key_value_metadata()
        .into_iter()
        .flatten()
        .find(|entry| entry.key == SCHEMA_VERSION_KEY)
        .and_then(|entry| entry.value.clone());
    assert_eq!(version, Some(SCHEMA_VERSION.to_string()));
    let manifest: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(
        out.path().join("_manifests/person=bob").join(MANIFEST_FILE),
    )?)?;
    assert_eq!(manifest["schema_version"], SCHEMA_VERSION);

    // Alice's home grows: her run rewrites her June 2 partitions and nothing of Bob's.
    let bob_before = files_of_person(out.path(), "bob")?;
    let alice_before = files_of_person(out.path(), "alice")?;
    let mut text = std::fs::read_to_string(&alice_paths[1])?;
    text += &(turn_lines(IDS[1], 3, "2025-06-02T10:00:00.000Z").join("\n") + "\n");
    std::fs::write(&alice_paths[1], text)?;
    let run = write_as(alice_home.path(), out.path(), "alice")?;
    assert_eq!(run.changed, 1);
    assert_eq!(files_of_person(out.path(), "bob")?, bob_before);
    let alice_after = files_of_person(out.path(), "alice")?;
    let touched: Vec<_> = alice_after
        .iter()
        .filter(|(path, stamp)| alice_before.get(*path) != Some(*stamp))
        .map(|(path, _)| path.strip_prefix(out.path()).map(Path::to_path_buf))
        .collect::<Result<_, _>>()?;
    let manifest = Path::new("_manifests/person=alice").join(MANIFEST_FILE);
    assert!(
        touched
            .iter()
            .all(|path| *path == manifest || path.to_string_lossy().contains("day=2025-06-02")),
        "touched {touched:?}"
    );
    assert_eq!(
        touched.len(),
        5,
        "every table's June 2 partition and the manifest: {touched:?}"
    );

    // A rerun of an unchanged home writes nothing.
    let before = files_of(out.path())?;
    assert!(write_as(bob_home.path(), out.path(), "bob")?.wrote_nothing());
    assert_eq!(files_of(out.path())?, before);
    Ok(())
}

#[test]
fn one_persons_tables_and_a_teams_never_share_a_folder() -> TestResult {
    let (home, _) = home()?;
    let single = tempfile::tempdir()?;
    write(home.path(), single.path())?;
    let before = files_of(single.path())?;
    let refused = write_as(home.path(), single.path(), "alice");
    assert!(
        matches!(refused, Err(TableError::MixedLayout { .. })),
        "{refused:?}"
    );
    assert_eq!(files_of(single.path())?, before, "nothing written");

    let team = tempfile::tempdir()?;
    write_as(home.path(), team.path(), "alice")?;
    let before = files_of(team.path())?;
    let refused = write(home.path(), team.path());
    assert!(
        matches!(refused, Err(TableError::MixedLayout { .. })),
        "{refused:?}"
    );
    assert_eq!(files_of(team.path())?, before, "nothing written");
    Ok(())
}

#[test]
fn a_second_run_for_the_same_person_waits_for_none_and_is_refused() -> TestResult {
    let (home, _) = home()?;
    let out = tempfile::tempdir()?;
    let held = Layout::new(out.path(), Some("alice"))?.lock()?;
    let refused = write_as(home.path(), out.path(), "alice");
    assert!(
        matches!(refused, Err(TableError::Busy { .. })),
        "{refused:?}"
    );
    // Another person is not held up.
    write_as(home.path(), out.path(), "bob")?;
    drop(held);
    write_as(home.path(), out.path(), "alice")?;

    let bad = write_as(home.path(), &out.path().join("new"), "1st");
    assert!(matches!(bad, Err(TableError::Person { .. })), "{bad:?}");
    assert!(!out.path().join("new").exists(), "nothing written");
    Ok(())
}

#[test]
fn a_thread_copied_in_both_folders_gives_each_response_one_token_row() -> TestResult {
    let (home, paths) = home()?;
    let codex_home = CodexHome::new(home.path());
    let options = TableOptions::default();
    let once = thread_rows(&codex_home, IDS[0], &options)?.ok_or("no thread")?;
    let archived = home.path().join("archived_sessions");
    std::fs::create_dir_all(&archived)?;
    std::fs::copy(
        &paths[0],
        archived.join(paths[0].file_name().ok_or("no name")?),
    )?;
    let twice = thread_rows(&codex_home, IDS[0], &options)?.ok_or("no thread")?;
    assert_eq!(twice.thread.pieces, 2, "both copies are read");
    assert!(!once.tokens.is_empty());
    assert_eq!(twice.tokens.len(), once.tokens.len());
    Ok(())
}

#[test]
fn a_thread_is_named_by_its_session_meta_whatever_its_file_is_called() -> TestResult {
    let (home, _) = home()?;
    // A copy of the first session under another id's name (a file renamed by hand).
    let renamed = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a99";
    let folder = home.path().join("sessions/2025/06/04");
    std::fs::create_dir_all(&folder)?;
    std::fs::write(
        folder.join(format!("rollout-2025-06-04T09-00-00-{renamed}.jsonl")),
        session(IDS[0], 4, 1),
    )?;
    let rows = thread_rows(
        &CodexHome::new(home.path()),
        renamed,
        &TableOptions::default(),
    )?
    .ok_or("no thread")?;
    assert_eq!(rows.thread.thread_id, IDS[0]);
    assert!(rows.turns.iter().all(|turn| turn.thread_id == IDS[0]));
    assert!(rows.items.iter().all(|item| item.thread_id == IDS[0]));
    Ok(())
}
