//! Every command sees the same user turns, on every real Codex session file and on our own
//! recorder's sample, and they are the file's own record of them.
//!
//! The record, counted here line by line and independently of the libraries: the
//! `user_message` events of a legacy file, or, in a paginated file (0.151 and later), the
//! `item_completed` events carrying a `UserMessage`, less the turns each `thread_rolled_back`
//! removed. Files with neither record (the pre-envelope format, files filtered by hand) have
//! no record to compare with; all views must still agree.
//!
//! `inspect --json`'s `turns` are `thread --json`'s turns on every file. Compared, per file:
//! `inspect --json` `user_messages`; the `userMessage` items of
//! `thread --json`; the `userMessage` items completed in `notifications`, less the rolled-back
//! turns (a live client saw those messages and learned of the rollback from its own
//! `thread/rollback` reply, which is no notification); the `userMessage` items of
//! `export --json` (the thread's, in its complete transcript); and the
//! user turns a fork can drop (`fork --drop-turns N` succeeds for N = the count, fails past
//! it), and the positions codex-rollout's own fork cuts before
//! (`user_message_positions_in_rollout`). The table is printed.

// Printing the table is this test's job.
#![allow(clippy::print_stderr)]

use crate::common;

use std::path::Path;

use common::{TestResult, bin, is_catalogue, json_lines, name, real_files};

/// The file's own record of its user turns, and the turns its rollbacks removed.
#[derive(Debug, Default)]
struct Record {
    events: usize,
    completed: usize,
    rolled_back: usize,
    /// Each rollback's request applied to what was recorded before it (saturating), for
    /// events and completed items separately.
    events_alive: usize,
    completed_alive: usize,
}

impl Record {
    fn of(path: &Path) -> Result<Record, Box<dyn std::error::Error>> {
        let mut record = Record::default();
        for line in std::fs::read_to_string(path)?.lines() {
            let Ok(value) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            if value["type"] != "event_msg" {
                continue;
            }
            let payload = &value["payload"];
            match payload["type"].as_str() {
                Some("user_message") => {
                    record.events += 1;
                    record.events_alive += 1;
                }
                Some("item_completed") if payload["item"]["type"] == "UserMessage" => {
                    record.completed += 1;
                    record.completed_alive += 1;
                }
                Some("thread_rolled_back") => {
                    let turns = usize::try_from(payload["num_turns"].as_u64().unwrap_or(0))?;
                    let alive = if record.events > 0 {
                        &mut record.events_alive
                    } else {
                        &mut record.completed_alive
                    };
                    let removed = turns.min(*alive);
                    *alive -= removed;
                    record.rolled_back += removed;
                }
                _ => {}
            }
        }
        Ok(record)
    }

    /// The user turns the record says survive, if the file has a record.
    fn user_turns(&self) -> Option<usize> {
        if self.events > 0 {
            Some(self.events_alive)
        } else if self.completed > 0 {
            Some(self.completed_alive)
        } else {
            None
        }
    }
}

/// The user turns each command reports for `file` (`None`: the bundled sample).
#[derive(Debug, PartialEq, Eq)]
struct Views {
    inspect: usize,
    thread: usize,
    notifications: usize,
    export: usize,
    /// The library's fork positions (`user_message_positions_in_rollout` on the loaded items).
    library_fork: usize,
}

fn run(args: &[&str], file: Option<&Path>) -> Result<String, Box<dyn std::error::Error>> {
    let mut command = bin()?;
    command.args(args);
    if let Some(file) = file {
        command.arg(file);
    }
    let output = command.output()?;
    assert!(
        output.status.success(),
        "{args:?} {file:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(String::from_utf8(output.stdout)?)
}

fn count_user_messages(items: &serde_json::Value) -> usize {
    items.as_array().map_or(0, |items| {
        items
            .iter()
            .filter(|item| item["type"] == "userMessage")
            .count()
    })
}

fn views(file: Option<&Path>, rolled_back: usize) -> Result<Views, Box<dyn std::error::Error>> {
    let inspect: serde_json::Value = serde_json::from_str(&run(&["--json", "inspect"], file)?)?;
    let thread: serde_json::Value = serde_json::from_str(&run(&["--json", "thread"], file)?)?;
    let export: serde_json::Value = serde_json::from_str(&run(&["--json", "export"], file)?)?;
    let notifications = json_lines(&run(&["notifications"], file)?)?;
    // `inspect`'s turns are the thread's.
    let thread_turns = thread["turns"].as_array().ok_or("no turns")?.len();
    assert_eq!(inspect["turns"], thread_turns, "{file:?}: inspect's turns");
    let completed_user_messages = notifications
        .iter()
        .filter(|message| {
            message["method"] == "item/completed"
                && message["params"]["item"]["type"] == "userMessage"
        })
        .count();
    Ok(Views {
        inspect: usize::try_from(
            inspect["user_messages"]
                .as_u64()
                .ok_or("no user_messages")?,
        )?,
        thread: thread["turns"]
            .as_array()
            .ok_or("no turns")?
            .iter()
            .map(|turn| count_user_messages(&turn["items"]))
            .sum(),
        notifications: completed_user_messages.saturating_sub(rolled_back),
        export: export["turns"]
            .as_array()
            .ok_or("no turns")?
            .iter()
            .map(|turn| count_user_messages(&turn["items"]))
            .sum(),
        library_fork: library_fork_positions(file)?,
    })
}

/// How many user turns codex-rollout's own fork can cut before, on the items it loads.
fn library_fork_positions(file: Option<&Path>) -> Result<usize, Box<dyn std::error::Error>> {
    let contents = match file {
        Some(file) => codex_rollout::RolloutContents::read(std::fs::File::open(file)?)?,
        None => codex_rollout::RolloutContents::parse(
            codex_thread::sample::SAMPLE_JSONL.as_bytes().to_vec(),
        ),
    };
    Ok(codex_rollout::user_message_positions_in_rollout(contents.items()).len())
}

/// Whether some line of `file` is a `session_meta` (a fork needs the thread it forks).
fn has_session_meta(file: &Path) -> Result<bool, Box<dyn std::error::Error>> {
    Ok(std::fs::read_to_string(file)?.lines().any(|line| {
        serde_json::from_str::<serde_json::Value>(line)
            .is_ok_and(|value| value["type"] == "session_meta")
    }))
}

/// `fork --drop-turns n` works for every n up to `turns` and is refused past it.
fn fork_drops(file: &Path, turns: usize) -> TestResult {
    let dir = tempfile::tempdir()?;
    for drop in [turns, turns + 1] {
        let out = dir.path().join(format!("fork-{drop}.jsonl"));
        let output = bin()?
            .args(["fork", "--drop-turns", &drop.to_string(), "-o"])
            .arg(&out)
            .arg(file)
            .output()?;
        assert_eq!(
            output.status.success(),
            drop <= turns,
            "{}: fork --drop-turns {drop} of {turns}: {}",
            name(file),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}

#[test]
fn every_view_sees_the_files_own_user_turns() -> TestResult {
    let sample = views(None, 1)?;
    eprintln!(
        "{:<52} {:>6} {:>7} {:>6} {:>6} {:>6} {:>7}",
        "file", "record", "inspect", "thread", "notif", "export", "libfork"
    );
    eprintln!(
        "{:<52} {:>6} {:>7} {:>6} {:>6} {:>6} {:>7}",
        "(bundled sample)",
        "-",
        sample.inspect,
        sample.thread,
        sample.notifications,
        sample.export,
        sample.library_fork
    );
    assert_eq!(sample.inspect, sample.library_fork);
    assert_eq!(sample.inspect, sample.thread);
    assert_eq!(sample.inspect, sample.notifications);
    assert_eq!(sample.inspect, sample.export);
    let Some(files) = real_files()? else {
        return Ok(());
    };
    for file in &files {
        let record = Record::of(file)?;
        let views = views(Some(file), record.rolled_back)?;
        let expected = record
            .user_turns()
            .map_or_else(|| "-".to_string(), |turns| turns.to_string());
        eprintln!(
            "{:<52} {expected:>6} {:>7} {:>6} {:>6} {:>6} {:>7}",
            name(file).chars().take(52).collect::<String>(),
            views.inspect,
            views.thread,
            views.notifications,
            views.export,
            views.library_fork
        );
        if is_catalogue(file) {
            // Values trimmed on purpose: some records do not parse, so views may differ.
            continue;
        }
        let agreed = Views {
            inspect: views.inspect,
            thread: views.inspect,
            notifications: views.inspect,
            export: views.inspect,
            library_fork: views.inspect,
        };
        assert_eq!(views, agreed, "{}: views disagree", name(file));
        if let Some(turns) = record.user_turns() {
            assert_eq!(
                views.inspect,
                turns,
                "{}: views vs the file's record",
                name(file)
            );
        }
        if has_session_meta(file)? {
            fork_drops(file, views.inspect)?;
        }
    }
    Ok(())
}

/// Export shows the thread's turns: on the sample and every real file, the turns of
/// `export --json` are those of `thread --json`, with the same ids and statuses, in order (the
/// export adds the calls Codex's records leave out, never a turn).
#[test]
fn export_shows_the_threads_turns_with_their_statuses() -> TestResult {
    let sample = std::path::PathBuf::from(common::view::SAMPLE);
    let files = real_files()?.unwrap_or_default();
    for path in std::iter::once(&sample).chain(&files) {
        let run = |command: &str| -> Result<Vec<(String, String)>, Box<dyn std::error::Error>> {
            let output = bin()?.args(["--json", command]).arg(path).output()?;
            let value: serde_json::Value = serde_json::from_slice(&output.stdout)?;
            Ok(value["turns"]
                .as_array()
                .into_iter()
                .flatten()
                .map(|turn| (turn["id"].to_string(), turn["status"].to_string()))
                .collect())
        };
        let (export, thread) = (run("export")?, run("thread")?);
        assert!(!thread.is_empty(), "{}: no turns", name(path));
        assert_eq!(export, thread, "{}", name(path));
    }
    Ok(())
}
