//! `codex-thread repair` on a home whose Codex state was lost: the real Codex writes a home (a
//! paginated thread of two turns, named; a legacy thread), its state databases are deleted and
//! Codex started on it again (it rebuilds its rows from the files, without the name, and the
//! paginated thread opens empty). `repair` finds exactly that, each with its reason;
//! `repair --apply` has Codex fix it, after which Codex's `thread/read` of every thread equals
//! what it showed before the loss, the files are unchanged, and `repair` finds nothing. Then
//! the thread's projected turns and items are deleted but its projection state kept (Codex
//! then shows it empty even after a resume): `repair` finds the stale projection, and
//! `--apply` (a direct write, after a backup) has Codex project it again.

use crate::common;

use std::time::Duration;

use codex_test_support::{
    CodexHome, Script, ScriptedModel, describe_differences, json_differences, real_codex_or_skip,
};
use serde_json::{Value, json};

use common::TestResult;
use common::real_codex::{StatefulThreads, text, write_stateful_threads};

/// `thread` as compared before and after: the times Codex takes from its rebuilt rows
/// (the file's time) set aside (`reference/codex-state.md`).
fn comparable(mut thread: Value) -> Value {
    if let Some(fields) = thread.as_object_mut() {
        for key in ["updatedAt", "recencyAt"] {
            fields.remove(key);
        }
    }
    thread
}

/// Deletes Codex's databases in `home` whose names start with one of `names` (with their
/// `-wal` and `-shm` files).
fn remove_databases(home: &CodexHome, names: &[&str]) -> Result<(), Box<dyn std::error::Error>> {
    for entry in std::fs::read_dir(home.path())? {
        let path = entry?.path();
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        if names.iter().any(|database| name.starts_with(database)) {
            std::fs::remove_file(&path)?;
        }
    }
    Ok(())
}

/// Has Codex's server project thread `id` (a resume without turns, then unsubscribe).
fn project(home: &CodexHome, id: &str) -> Result<(), Box<dyn std::error::Error>> {
    let mut server = home.app_server()?;
    server.call(
        "thread/resume",
        json!({"threadId": id, "excludeTurns": true}),
    )?;
    server.call("thread/unsubscribe", json!({"threadId": id}))?;
    Ok(())
}

/// `codex-thread repair ARGS --json` on `home`: its exit code and JSON lines.
pub(crate) fn repair(
    home: &CodexHome,
    args: &[&str],
) -> Result<(i32, Vec<Value>), Box<dyn std::error::Error>> {
    let output = common::bin()?
        .args(["--json", "repair", "--home", text(home.path())?])
        .args(["--codex", text(home.codex().bin())?])
        .args(args)
        .output()?;
    let lines = String::from_utf8(output.stdout)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<Vec<Value>, _>>()?;
    Ok((output.status.code().unwrap_or(-1), lines))
}

#[test]
fn repair_has_codex_rebuild_what_a_lost_state_left_wrong() -> TestResult {
    let Some(codex) = real_codex_or_skip("repair_has_codex_rebuild_what_a_lost_state_left_wrong")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let StatefulThreads { paginated, legacy } = write_stateful_threads(&home, &model)?;
    // Read by a server that has not loaded them (one that ran a thread shows it loaded).
    let mut server = home.app_server()?;
    let before = [
        comparable(server.thread_read(&paginated)?),
        comparable(server.thread_read(&legacy)?),
    ];
    drop(server);
    let files: Vec<(std::path::PathBuf, Vec<u8>, std::time::SystemTime)> = home
        .session_files()?
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path)?;
            let time = std::fs::metadata(&path)?.modified()?;
            Ok((path, bytes, time))
        })
        .collect::<std::io::Result<_>>()?;
    let (code, clean) = repair(&home, &[])?;
    assert_eq!(code, 0, "a home Codex wrote needs nothing: {clean:?}");

    // The state is lost; Codex, started again, rebuilds its rows from the files.
    remove_databases(&home, &["state_5.sqlite", "thread_history_1.sqlite"])?;
    let mut server = home.app_server()?;
    server.thread_list(false)?;
    let lost = server.thread_read(&paginated)?;
    assert_eq!(lost["turns"], json!([]), "the paginated thread opens empty");
    assert_eq!(lost["name"], Value::Null, "its name is lost");
    drop(server);

    let (code, found) = repair(&home, &[])?;
    assert_eq!(code, 1, "{found:?}");
    let mut problems: Vec<(String, String)> = found
        .iter()
        .filter_map(|line| {
            Some((
                line["thread_id"].as_str()?.to_owned(),
                line["problem"].as_str()?.to_owned(),
            ))
        })
        .collect();
    problems.sort();
    let mut expected = vec![
        (paginated.clone(), "name_lost".to_owned()),
        (paginated.clone(), "unprojected".to_owned()),
    ];
    expected.sort();
    assert_eq!(problems, expected, "{found:?}");

    // Killed while Codex fixes, the next run finishes the job.
    let mut killed = std::process::Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
        .args(["repair", "--apply", "--home", text(home.path())?])
        .args(["--codex", text(home.codex().bin())?])
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()?;
    std::thread::sleep(Duration::from_millis(300));
    let _ = killed.kill();
    killed.wait()?;
    let (code, applied) = repair(&home, &["--apply"])?;
    assert_eq!(code, 0, "{applied:?}");
    let mut server = home.app_server()?;
    let after = [
        comparable(server.thread_read(&paginated)?),
        comparable(server.thread_read(&legacy)?),
    ];
    drop(server);
    let differences = json_differences(&Value::from(after.to_vec()), &Value::from(before.to_vec()));
    assert!(
        differences.is_empty(),
        "Codex shows the threads otherwise than before the loss:\n{}",
        describe_differences(&differences, 20)
    );
    for (path, bytes, time) in files {
        assert_eq!(std::fs::read(&path)?, bytes, "{}", path.display());
        assert_eq!(
            std::fs::metadata(&path)?.modified()?,
            time,
            "{}",
            path.display()
        );
    }
    let (code, again) = repair(&home, &[])?;
    assert_eq!(code, 0, "{again:?}");

    // The projected items and turns are lost but the projection state kept: Codex's catch-up
    // starts at the end it recorded, so even a resume shows the thread empty.
    let history = rusqlite::Connection::open(home.path().join("thread_history_1.sqlite"))?;
    for table in ["thread_items", "thread_turns"] {
        history.execute(
            &format!("DELETE FROM {table} WHERE thread_id = ?1"),
            [&paginated],
        )?;
    }
    drop(history);
    project(&home, &paginated)?;
    let mut server = home.app_server()?;
    assert_eq!(
        server.thread_read(&paginated)?["turns"],
        json!([]),
        "empty even after a resume"
    );
    drop(server);
    let (code, found) = repair(&home, &[])?;
    assert_eq!(code, 1, "{found:?}");
    assert_eq!(found[0]["problem"], "stale_projection", "{found:?}");
    let (code, applied) = repair(&home, &["--apply"])?;
    assert_eq!(code, 0, "{applied:?}");
    let backups = std::fs::read_dir(home.path())?
        .flatten()
        .filter(|entry| {
            entry
                .file_name()
                .to_string_lossy()
                .contains(".repair-backup-")
        })
        .count();
    assert_eq!(
        backups, 1,
        "the database was copied before the direct write"
    );
    let mut server = home.app_server()?;
    let repaired = comparable(server.thread_read(&paginated)?);
    drop(server);
    let differences = json_differences(&repaired, &before[0]);
    assert!(
        differences.is_empty(),
        "after the stale projection's repair:\n{}",
        describe_differences(&differences, 20)
    );
    Ok(())
}

#[test]
fn repair_writes_a_file_whose_ordinals_go_backwards_again_for_codex() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("repair_writes_a_file_whose_ordinals_go_backwards_again_for_codex")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let StatefulThreads { paginated, .. } = write_stateful_threads(&home, &model)?;
    let mut server = home.app_server()?;
    let before = comparable(server.thread_read(&paginated)?);
    drop(server);
    let file = home
        .session_files()?
        .into_iter()
        .find(|path| path.to_string_lossy().contains(&paginated))
        .ok_or("no file")?;
    let written = std::fs::read_to_string(&file)?;
    // From the second turn on, the ordinals start again at 1, as a writer that lost count
    // would write them.
    let second_start = written
        .lines()
        .position(|line| line.contains(r#""type":"task_started""#))
        .and_then(|first| {
            written
                .lines()
                .skip(first + 1)
                .position(|line| line.contains(r#""type":"task_started""#))
                .map(|next| first + 1 + next)
        })
        .ok_or("no second turn")?;
    let mut broken = String::new();
    for (index, line) in written.lines().enumerate() {
        let line = match index.checked_sub(second_start) {
            Some(restarted) => {
                let at = line.find(r#""ordinal":"#).ok_or("no ordinal")? + r#""ordinal":"#.len();
                let digits = line[at..].chars().take_while(char::is_ascii_digit).count();
                format!("{}{}{}", &line[..at], restarted + 1, &line[at + digits..])
            }
            None => line.to_owned(),
        };
        broken.push_str(&line);
        broken.push('\n');
    }
    std::fs::write(&file, &broken)?;
    // Codex, projecting the file again, drops the second turn.
    remove_databases(&home, &["thread_history_1.sqlite"])?;
    project(&home, &paginated)?;
    let mut server = home.app_server()?;
    let dropped = server.thread_read(&paginated)?;
    drop(server);
    assert_eq!(
        dropped["turns"].as_array().map(Vec::len),
        Some(1),
        "Codex drops the turn after the ordinal that went back"
    );
    let (code, found) = repair(&home, &[])?;
    assert_eq!(code, 1, "{found:?}");
    assert!(
        found
            .iter()
            .any(|line| line["problem"] == "ordinals_out_of_order"),
        "{found:?}"
    );
    let (code, applied) = repair(&home, &["--apply"])?;
    assert_eq!(code, 0, "{applied:?}");
    // The file is Codex's own again (its ordinals rose by one), the broken one in the trash.
    assert_eq!(std::fs::read_to_string(&file)?, written);
    let trash = home.path().join("trash");
    let kept: Vec<std::path::PathBuf> = std::fs::read_dir(&trash)?
        .flatten()
        .map(|stamp| {
            stamp
                .path()
                .join(file.strip_prefix(home.path()).unwrap_or(&file))
        })
        .filter(|kept| kept.exists())
        .collect();
    assert_eq!(kept.len(), 1, "the broken file is kept in the trash");
    assert_eq!(std::fs::read_to_string(&kept[0])?, broken);
    let mut server = home.app_server()?;
    let repaired = comparable(server.thread_read(&paginated)?);
    drop(server);
    let differences = json_differences(&repaired, &before);
    assert!(
        differences.is_empty(),
        "after the rewrite:\n{}",
        describe_differences(&differences, 20)
    );
    let (code, again) = repair(&home, &[])?;
    assert_eq!(code, 0, "{again:?}");
    Ok(())
}
