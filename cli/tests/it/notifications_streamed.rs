//! `notifications` of a file, read twice as a stream with lines passed over, prints the
//! messages of codex-rollout's whole-file replay of the same bytes (`replay_rollout`)
//! projected as the command projects a replay, and what it prints for the same bytes on
//! standard input (spooled, then read the same way), with the same exit code: on every real
//! file, a zstd copy, and generated files with compactions, rollbacks and a torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use codex_app_server_protocol::v2::ThreadStartedNotification;
use codex_app_server_protocol::{
    EventProjector, ServerMessage, ServerNotification, thread_from_session_meta,
};
use codex_protocol::rollout::RolloutItem;
use codex_rollout::RolloutContents;
use codex_rollout::testing::replay_rollout;
use codex_test_support::real_jsonl_files;
use common::generate::{real_lines, streamed_equivalence_shapes, write_rollout};
use pretty_assertions::assert_eq;
use serde_json::Value;

/// Exit code and standard output of `codex-thread notifications ARG`, with `stdin` fed.
fn notifications(arg: &Path, stdin: Option<Vec<u8>>) -> (Option<i32>, String) {
    let mut command = assert_cmd::Command::cargo_bin("codex-thread").unwrap();
    command.env_remove("RUST_LOG").arg("notifications").arg(arg);
    if let Some(stdin) = stdin {
        command.write_stdin(stdin);
    }
    let output = command.output().unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

/// The messages of `bytes` replayed whole (the file loaded, every item pushed in order):
/// the thread's start when the file has a session meta, then each event's messages projected
/// at the event's time.
fn whole_file_messages(bytes: Vec<u8>) -> Vec<Value> {
    let contents = RolloutContents::parse(bytes);
    let replay = replay_rollout(&contents);
    let now_ms = Arc::new(AtomicI64::new(0));
    let clock = Arc::clone(&now_ms);
    let mut projector = EventProjector::with_clock(replay.thread_id.to_string(), move || {
        clock.load(Ordering::Relaxed)
    });
    let mut messages: Vec<ServerMessage> = contents
        .items()
        .iter()
        .find_map(|item| match item {
            RolloutItem::SessionMeta(meta) => Some(ServerMessage::Notification(
                ServerNotification::ThreadStarted(ThreadStartedNotification {
                    thread: Box::new(thread_from_session_meta(meta)),
                }),
            )),
            _ => None,
        })
        .into_iter()
        .collect();
    for event in &replay.events {
        now_ms.store(event.at_ms.unwrap_or_default(), Ordering::Relaxed);
        messages.extend(projector.project(&event.msg));
    }
    messages
        .iter()
        .map(|message| serde_json::to_value(message).unwrap())
        .collect()
}

/// `notifications` of `path` streamed equals `notifications` of `plain`'s bytes on standard
/// input and, when it succeeds, the whole-file replay of those bytes.
fn check(path: &Path, plain: &Path) {
    let streamed = notifications(path, None);
    let bytes = std::fs::read(plain).unwrap();
    let whole = notifications(Path::new("-"), Some(bytes.clone()));
    assert_eq!(streamed.0, whole.0, "{}: exit code", path.display());
    assert_eq!(streamed.1, whole.1, "{}: messages", path.display());
    if streamed.0 == Some(0) {
        let printed: Vec<Value> = streamed
            .1
            .lines()
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert!(
            printed == whole_file_messages(bytes),
            "{}: the streamed replay is not the whole-file replay",
            path.display()
        );
    }
}

#[test]
fn streamed_notifications_equal_the_whole_file_replay() {
    let Some(files) = real_jsonl_files().unwrap() else {
        return;
    };
    let mut messages = 0;
    for file in &files {
        check(file, file);
        messages += notifications(file, None).1.lines().count();
    }
    assert!(
        messages > 1_000,
        "the real files replay {messages} message(s)"
    );
    let dir = tempfile::tempdir().unwrap();
    // A compressed copy streams to the plain file's messages.
    let (plain, zst) = common::compressed_copy_of_largest(&files, dir.path()).unwrap();
    check(&zst, &plain);

    let Some(lines) = real_lines() else {
        return;
    };
    for (index, shape) in streamed_equivalence_shapes().iter().enumerate() {
        let path = dir.path().join(format!("generated-{index}.jsonl"));
        write_rollout(&path, &lines, shape).unwrap();
        check(&path, &path);
    }
}

/// The second pass hands the replay a turn context unparsed: its time still moves the replay's
/// clock, as its item would have, and a turn context that does not parse (no item) moves
/// nothing. Approval requests are projected at the clock's time.
#[test]
fn lines_the_replay_passes_over_move_its_clock_as_their_items_would() {
    let sample = std::fs::read_to_string(common::view::SAMPLE).unwrap();
    let lines: Vec<&str> = sample.lines().collect();
    let approval = |call: &str| {
        format!(
            r#"{{"timestamp":"later","type":"event_msg","payload":{{"type":"exec_approval_request","call_id":"{call}","turn_id":"turn-1","command":["ls"],"cwd":"/tmp","reason":null,"parsed_cmd":[]}}}}"#
        )
    };
    let file = [
        lines[0].to_owned(),
        lines[1].to_owned(),
        lines[2].replace("09:00:00.750Z", "09:05:00.000Z"),
        approval("call-1"),
        r#"{"timestamp":"2025-06-02T09:10:00.000Z","type":"turn_context","payload":5}"#.to_owned(),
        approval("call-2"),
    ]
    .join("\n");
    assert!(
        lines[2].contains(r#""type":"turn_context""#),
        "{}",
        lines[2]
    );
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("clock.jsonl");
    std::fs::write(&path, file + "\n").unwrap();
    check(&path, &path);
    let (_, printed) = notifications(&path, None);
    let started: Vec<i64> = printed
        .lines()
        .map(|line| serde_json::from_str::<Value>(line).unwrap())
        .filter(|message| message["method"] == "item/commandExecution/requestApproval")
        .map(|message| message["params"]["startedAtMs"].as_i64().unwrap())
        .collect();
    // 2025-06-02T09:05:00Z, the readable turn context's time, for both.
    assert_eq!(started, [1_748_855_100_000, 1_748_855_100_000]);
}
