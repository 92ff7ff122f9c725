#![allow(clippy::unwrap_used)]

use std::fmt::Write as _;

use chrono::Utc;
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;
use crate::load::load_rollout_items;
use crate::reconstruct::reconstruct_history_from_rollout;

/// A legacy session of `turns` turns, a compaction every `every` turns whose replacement
/// history repeats an inline image of `image_bytes` bytes, and after turn `rollback_after`
/// a rollback of one turn.
fn session(
    turns: usize,
    every: usize,
    image_bytes: usize,
    rollback_after: usize,
) -> (ThreadId, String) {
    let id = ThreadId::new();
    let image = format!("data:image/png;base64,{}", "A".repeat(image_bytes));
    let mut out = String::new();
    let ts = "2025-10-01T10:00:00.000Z";
    writeln!(out, r#"{{"timestamp":"{ts}","type":"session_meta","payload":{{"id":"{id}","timestamp":"{ts}","cwd":"/repo","originator":"test","cli_version":"0.0.0","instructions":null}}}}"#).unwrap();
    for turn in 1..=turns {
        writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"task_started","turn_id":"t{turn}","model_context_window":null}}}}"#).unwrap();
        writeln!(out, r#"{{"timestamp":"{ts}","type":"turn_context","payload":{{"turn_id":"t{turn}","cwd":"/repo","approval_policy":"never","sandbox_policy":{{"mode":"read-only"}},"model":"m{turn}","summary":"auto"}}}}"#).unwrap();
        if turn % every == 0 {
            writeln!(out, r#"{{"timestamp":"{ts}","type":"compacted","payload":{{"message":"summary {turn}","window_number":{turn},"replacement_history":[{{"type":"message","role":"user","content":[{{"type":"input_text","text":"look"}},{{"type":"input_image","image_url":"{image}"}}]}},{{"type":"message","role":"user","content":[{{"type":"input_text","text":"summary {turn}"}}]}}]}}}}"#).unwrap();
            writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"context_compacted"}}}}"#).unwrap();
        }
        writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"question {turn}"}}]}}}}"#).unwrap();
        writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"user_message","message":"question {turn}"}}}}"#).unwrap();
        writeln!(out, r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"answer {turn}"}}]}}}}"#).unwrap();
        let usage = format!(
            r#"{{"input_tokens":{turn},"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":{turn}}}"#
        );
        writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{usage},"last_token_usage":{usage},"model_context_window":1000}},"rate_limits":null}}}}"#).unwrap();
        writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"task_complete","turn_id":"t{turn}","last_agent_message":"answer {turn}"}}}}"#).unwrap();
        if turn == rollback_after {
            writeln!(out, r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"thread_rolled_back","num_turns":1}}}}"#).unwrap();
        }
    }
    (id, out)
}

/// Rescues `text` and checks that the rescue rebuilds the original's history and is smaller.
#[track_caller]
fn check(text: &str) -> String {
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("original.jsonl");
    std::fs::write(&original, text).unwrap();
    let home = CodexHome::new(dir.path().join("home"));
    let rescued = rescue_rollout(&original, &home, Utc::now()).unwrap();
    let before =
        reconstruct_history_from_rollout(load_rollout_items(&original).unwrap().contents.items());
    let loaded = load_rollout_items(&rescued.path).unwrap();
    assert!(
        loaded.contents.problems().is_empty(),
        "{:?}",
        loaded.contents.problems()
    );
    assert_eq!(loaded.thread_id, rescued.thread_id);
    let after = reconstruct_history_from_rollout(loaded.contents.items());
    assert_eq!(after.history.raw_items(), before.history.raw_items());
    assert_eq!(
        rescued.rescued_bytes,
        std::fs::metadata(&rescued.path).unwrap().len()
    );
    assert!(rescued.rescued_bytes < rescued.original_bytes);
    let kept = std::fs::read_to_string(&rescued.path).unwrap();

    // The same session compressed: the same lines kept (after the meta line), found by
    // decoding forwards; unless a rollback removed the newest compaction, which a forward
    // pass keeping only what follows the newest compaction cannot tell.
    let compressed = dir.path().join("compressed.jsonl.zst");
    std::fs::write(&compressed, zstd::encode_all(text.as_bytes(), 3).unwrap()).unwrap();
    match rescue_rollout(&compressed, &home, Utc::now()) {
        Ok(from_zstd) => {
            let from_zstd = std::fs::read_to_string(&from_zstd.path).unwrap();
            let tail = |text: &str| text.split_once('\n').unwrap().1.to_owned();
            assert_eq!(tail(&from_zstd), tail(&kept));
        }
        Err(err) => assert!(
            matches!(err, RescueError::NothingToLeaveOut(_))
                && kept.matches("\"compacted\"").count() > 1,
            "{err}"
        ),
    }
    kept
}

#[test]
fn a_rescue_rebuilds_the_same_history_from_the_newest_compaction() {
    // The newest compaction a rollback did not remove is where the rescue starts; a removed
    // one after it stays in the copied suffix (2 compactions kept).
    for (turns, every, rollback_after, compactions) in [
        (6, 2, 0, 1),
        (9, 3, 8, 1),
        (9, 3, 9, 2),
        (12, 5, 11, 1),
        (40, 7, 36, 1),
    ] {
        let (_, text) = session(turns, every, 4096, rollback_after);
        let kept = check(&text);
        assert_eq!(
            kept.matches("\"compacted\"").count(),
            compactions,
            "{turns}/{every}"
        );
        assert_eq!(kept.matches("input_image").count(), compactions);
    }
}

#[test]
fn a_session_without_a_compaction_has_nothing_to_leave_out() {
    let (_, text) = session(4, 100, 16, 0);
    let dir = tempfile::tempdir().unwrap();
    let original = dir.path().join("original.jsonl");
    std::fs::write(&original, text).unwrap();
    let home = CodexHome::new(dir.path());
    let err = rescue_rollout(&original, &home, Utc::now()).unwrap_err();
    assert!(matches!(err, RescueError::NothingToLeaveOut(_)), "{err}");
    assert!(!dir.path().join("sessions").exists());
}

#[test]
fn the_meta_gets_a_new_thread_and_no_base() {
    let id = ThreadId::new();
    let line = format!(
        r#"{{"timestamp":"t","ordinal":0,"type":"session_meta","payload":{{"id":"{id}","session_id":"{id}","timestamp":"old","history_base":{{"thread_id":"{id}"}},"cwd":"/r"}}}}"#
    );
    let new = ThreadId::new();
    let (meta, paginated) = rewrite_meta(line.as_bytes(), new, Utc::now()).unwrap();
    assert!(paginated);
    let meta: Value = serde_json::from_slice(&meta).unwrap();
    assert_eq!(meta["payload"]["id"], new.to_string());
    assert_eq!(meta["payload"]["session_id"], new.to_string());
    assert_eq!(meta["payload"].get("history_base"), None);
    assert_eq!(meta["payload"]["cwd"], "/r");
    assert_eq!(meta["ordinal"], 0);
}

#[test]
fn ordinals_are_renumbered_in_place() {
    let line = br#"{"timestamp":"2025-10-01T10:00:00.000Z","ordinal":1234,"type":"x","payload":{"ordinal":5}}"#;
    assert_eq!(
        crate::with_line_ordinal(line, 7, crate::WhenMissing::Keep).unwrap(),
        br#"{"timestamp":"2025-10-01T10:00:00.000Z","ordinal":7,"type":"x","payload":{"ordinal":5}}"#
    );
    // Another key order: re-encoded.
    let other = br#"{"ordinal":3,"timestamp":"t","type":"x"}"#;
    let renumbered: Value = serde_json::from_slice(
        &crate::with_line_ordinal(other, 9, crate::WhenMissing::Keep).unwrap(),
    )
    .unwrap();
    assert_eq!(renumbered["ordinal"], 9);
    assert_eq!(
        crate::with_line_ordinal(b"not json", 1, crate::WhenMissing::Keep),
        None
    );
}
