//! `thread` read as a stream (what the command does) equals the thread the libraries build of
//! the whole loaded file (`client_view_items`, then `thread_from_rollout_items`'s builder), and
//! `thread --last N` is the last N turns of `thread`, on every real file, a zstd copy, and
//! generated large files with compactions, rollbacks and a torn last line.

#![allow(clippy::expect_used, clippy::unwrap_used)]

use crate::common;

use std::path::Path;

use codex_app_server_protocol::{BuiltThread, ThreadBuilder, TranscriptMode};
use codex_rollout::RolloutContents;
use codex_test_support::real_jsonl_files;
use codex_thread::testing::thread_of_file;
use common::generate::{
    real_lines, real_paginated_lines, streamed_equivalence_shapes, write_rollout,
};
use pretty_assertions::assert_eq;
use serde_json::Value;

/// `codex-thread --json thread ARGS...` parsed, or `None` when the command refused the file.
fn thread_json(path: &Path, last: Option<usize>) -> Option<Value> {
    let mut command = assert_cmd::Command::cargo_bin("codex-thread").unwrap();
    command
        .env_remove("RUST_LOG")
        .args(["--json", "thread"])
        .arg(path);
    if let Some(last) = last {
        command.args(["--last", &last.to_string()]);
    }
    let output = command.output().unwrap();
    if !output.status.success() {
        return None;
    }
    Some(serde_json::from_slice(&output.stdout).unwrap())
}

/// The thread the libraries build of the whole loaded file; `None` for a file that cannot be
/// read as a session (damaged, blank, or without a readable line), which `thread` refuses.
fn build_whole(path: &Path, mode: TranscriptMode) -> Option<BuiltThread> {
    let contents = RolloutContents::read(std::fs::File::open(path).ok()?).ok()?;
    if contents.damage().is_some()
        || contents.bytes().iter().all(u8::is_ascii_whitespace)
        || contents.items().is_empty()
    {
        return None;
    }
    let mut builder = ThreadBuilder::in_mode(mode);
    for item in codex_rollout::client_view_items(&contents).iter() {
        builder.handle_rollout_item(item);
    }
    Some(builder.finish())
}

fn check(path: &Path) {
    for mode in [TranscriptMode::Complete, TranscriptMode::Codex] {
        let whole = build_whole(path, mode);
        let streamed = thread_of_file(path, mode);
        match (whole, streamed) {
            (Some(whole), Ok(streamed)) => {
                assert_eq!(streamed, whole, "{}: streamed {mode:?}", path.display());
            }
            (None, Err(_)) => return,
            (whole, streamed) => panic!(
                "{}: whole {:?} but streamed {:?}",
                path.display(),
                whole.map(|_| ()),
                streamed.map(|_| ())
            ),
        }
    }
    let full = thread_json(path, None).expect("thread refused a file it can build");
    let turns = full["turns"].as_array().unwrap();
    for last in [1, 2, 5, turns.len() + 3] {
        let tail = thread_json(path, Some(last)).unwrap();
        let expected = &turns[turns.len().saturating_sub(last)..];
        assert_eq!(
            tail["turns"].as_array().unwrap().as_slice(),
            expected,
            "{}: --last {last}",
            path.display()
        );
        // The identity is the whole thread's.
        let mut identity = tail.clone();
        let mut full_identity = full.clone();
        identity["turns"] = Value::Null;
        full_identity["turns"] = Value::Null;
        assert_eq!(identity, full_identity, "{}: --last {last}", path.display());
    }
}

#[test]
fn streamed_thread_equals_the_whole_file_thread_and_last_is_its_suffix() {
    let Some(files) = real_jsonl_files().unwrap() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for file in &files {
        check(file);
    }
    // A compressed copy streams to the plain file's thread.
    let (plain, zst) = common::compressed_copy_of_largest(&files, dir.path()).unwrap();
    check(&zst);
    let from_zst = thread_of_file(&zst, TranscriptMode::Codex).unwrap();
    let from_plain = build_whole(&plain, TranscriptMode::Codex).unwrap();
    assert_eq!(from_zst, from_plain);

    let Some(lines) = real_lines() else {
        return;
    };
    for (index, shape) in streamed_equivalence_shapes().iter().enumerate() {
        let path = dir.path().join(format!("generated-{index}.jsonl"));
        write_rollout(&path, &lines, shape).unwrap();
        check(&path);
    }
}

/// Generated paginated files (the real paginated lines repeated, compactions, rollbacks
/// before and after the last compaction, a torn last line): `thread --last N` reads their
/// last turns from the end (`codex_home::last_turns_from_end`) and shows the whole thread's.
#[test]
fn last_turns_read_from_the_end_are_the_whole_threads() {
    let Some(lines) = real_paginated_lines() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    for (index, shape) in streamed_equivalence_shapes().iter().enumerate() {
        let path = dir.path().join(format!("paginated-{index}.jsonl"));
        write_rollout(&path, &lines, shape).unwrap();
        check(&path);
        let from_end = [1, 2, 5]
            .into_iter()
            .filter(|last| {
                codex_home::last_turns_from_end(&path, *last, TranscriptMode::Codex)
                    .unwrap()
                    .is_some()
            })
            .count();
        assert!(from_end > 0, "{}: never read from the end", path.display());
    }
}

/// A file whose first turn record comes after the items the stream decides its view by: the
/// command reads it again with the rule the whole file calls for, and gets the whole file's
/// thread.
#[test]
fn a_late_turn_record_is_read_again_with_the_whole_file_rule() {
    let Some(lines) = real_lines() else {
        return;
    };
    let stamp = r#""timestamp":"2026-01-01T00:00:00.000Z""#;
    let filler = format!(
        r#"{{{stamp},"type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"filler"}}]}}}}"#
    );
    let mut text = vec![
        String::from_utf8(lines.meta).unwrap(),
        format!(
            r#"{{{stamp},"type":"event_msg","payload":{{"type":"task_started","turn_id":"turn-1"}}}}"#
        ),
    ];
    text.extend(std::iter::repeat_n(
        filler,
        codex_rollout::DECIDING_ITEMS + 5,
    ));
    text.push(format!(
        r#"{{{stamp},"type":"event_msg","payload":{{"type":"user_message","message":"typed late"}}}}"#
    ));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("late-record.jsonl");
    std::fs::write(&path, text.join("\n") + "\n").unwrap();
    check(&path);
    let thread = thread_of_file(&path, TranscriptMode::Codex).unwrap();
    let BuiltThread::Thread(thread) = thread else {
        panic!("a file with a session meta builds a thread");
    };
    let text = serde_json::to_string(&thread.turns).unwrap();
    assert!(text.contains("typed late"), "{text}");
}
