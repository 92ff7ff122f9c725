//! Forks: kept lines are copied byte for byte, only the session meta line changes; the cut
//! is rollback-aware; a fork rebuilds to the same history as rolling back the same turns.
#![allow(clippy::print_stderr)]

use std::path::Path;

use codex_protocol::event::{EventMsg, ThreadRolledBackEvent};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{RolloutItem, RolloutLine, TurnContextItem};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use codex_rollout::find_first_rollout;
use codex_rollout::new_session_meta;
use codex_rollout::reconstruct_history_from_rollout;
use codex_rollout::{
    ForkError, ForkMode, ForkPoint, fork_rollout, fork_rollout_to_path,
    user_message_positions_in_rollout,
};
use codex_rollout::{LoadedRollout, load_rollout_bytes, load_rollout_items};
use codex_rollout::{fork_point_dropping_turns, user_turns};
use codex_test_support::real_jsonl_files;

use crate::common::first_session_meta_index;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The kept lines copied into the fork.
const COPY: ForkMode = ForkMode::Copy;

fn line(item: RolloutItem) -> Result<String, serde_json::Error> {
    RolloutLine::new("2025-10-01T10:00:00.000Z", item).to_json_line()
}

fn event(json: Value) -> Result<RolloutItem, serde_json::Error> {
    Ok(RolloutItem::EventMsg(serde_json::from_value(json)?))
}

/// A complete turn `index` as lines: started, user message, settings, reply, complete.
fn turn_lines(index: usize) -> Result<Vec<String>, serde_json::Error> {
    let turn_id = format!("t{index}");
    let mut context = TurnContextItem::new("/repo", json!("never"), json!({}), format!("m{index}"));
    context.turn_id = Some(turn_id.clone());
    Ok(vec![
        line(event(
            json!({"type": "task_started", "turn_id": turn_id, "model_context_window": null}),
        )?)?,
        line(RolloutItem::ResponseItem(ResponseItem::user_text(format!(
            "user {index}"
        ))))?,
        line(RolloutItem::TurnContext(Box::new(context)))?,
        line(RolloutItem::ResponseItem(ResponseItem::assistant_text(
            format!("reply {index}"),
            None,
        )))?,
        line(event(
            json!({"type": "task_complete", "turn_id": turn_id, "last_agent_message": null}),
        )?)?,
    ])
}

fn session(turns: usize, thread_id: ThreadId) -> Result<Vec<String>, serde_json::Error> {
    let mut lines = vec![line(RolloutItem::SessionMeta(Box::new(new_session_meta(
        thread_id, "/repo", "test",
    ))))?];
    for index in 0..turns {
        lines.extend(turn_lines(index)?);
    }
    Ok(lines)
}

fn rollback_line(num_turns: u32) -> Result<String, serde_json::Error> {
    line(RolloutItem::EventMsg(EventMsg::ThreadRolledBack(
        ThreadRolledBackEvent { num_turns },
    )))
}

fn split(bytes: &[u8]) -> Vec<&[u8]> {
    let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    body.split(|byte| *byte == b'\n').collect()
}

fn meta_payload(line: &[u8]) -> Result<Value, serde_json::Error> {
    let value: Value = serde_json::from_slice(line)?;
    Ok(value.get("payload").cloned().unwrap_or(value))
}

#[test]
fn fork_copies_kept_lines_byte_for_byte_with_a_new_thread_id() -> TestResult {
    let source_id = ThreadId::new();
    let mut lines = session(1, source_id)?;
    // Lines the typed model would not write this way, or cannot read at all.
    lines.push(r#"{"type":"event_msg", "timestamp":"t","payload":{"type":"token_count","info":null,"rate_limits":null}}"#.to_string());
    lines.push(r#"{"timestamp":"t","type":"world_state","payload":{"b":2,"a":1.50}}"#.to_string());
    lines.push(r#"{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","source":"from-the-future"}}"#.to_string());
    lines.push("garbage that is not json".to_string());
    lines.push(format!("{}\r", turn_lines(1)?[0]));
    lines.extend(turn_lines(1)?.into_iter().skip(1));
    let text = lines.join("\n") + "\n";
    let source = load_rollout_bytes(text.clone().into_bytes(), "source.jsonl")?;
    assert_eq!(
        source.contents.problems().len(),
        3,
        "{:?}",
        source.contents.problems()
    );

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("fork.jsonl");
    let forked =
        fork_rollout_to_path(&source, ForkPoint::BeforeNthLastUserMessage(1), &path, COPY)?;
    assert_eq!(forked.forked_from_id, source_id);
    assert_ne!(forked.thread_id, source_id);
    assert_eq!(forked.skipped_problem_lines, 1);
    assert_eq!(forked.path, path);

    let fork_bytes = std::fs::read(&path)?;
    let fork_lines = split(&fork_bytes);
    let source_lines = split(text.as_bytes());
    // Everything before turn 2's task_started, minus the garbage line.
    let expected: Vec<&[u8]> = source_lines[1..10]
        .iter()
        .copied()
        .filter(|line| !line.starts_with(b"garbage"))
        .collect();
    assert_eq!(&fork_lines[1..], expected.as_slice());
    assert_eq!(forked.lines_written, fork_lines.len());

    let meta = meta_payload(fork_lines[0])?;
    let source_meta = meta_payload(source_lines[0])?;
    assert_eq!(meta["id"], json!(forked.thread_id.to_string()));
    assert_eq!(meta["forked_from_id"], json!(source_id.to_string()));
    assert_eq!(meta["cwd"], source_meta["cwd"]);
    assert_eq!(meta["originator"], source_meta["originator"]);

    let reloaded = load_rollout_items(&path)?;
    assert_eq!(reloaded.thread_id, forked.thread_id);
    assert_eq!(
        &reloaded.contents.items()[1..],
        &source.contents.items()[1..forked.kept_items]
    );
    Ok(())
}

#[test]
fn fork_rebuilds_like_a_rollback_of_the_same_turns() -> TestResult {
    let lines = session(4, ThreadId::new())?;
    let text = lines.join("\n") + "\n";
    let source = load_rollout_bytes(text.clone().into_bytes(), "source.jsonl")?;
    let dir = tempfile::tempdir()?;
    for n in 0..=5u32 {
        let path = dir.path().join(format!("fork-{n}.jsonl"));
        let forked = fork_rollout_to_path(
            &source,
            ForkPoint::BeforeNthLastUserMessage(n as usize),
            &path,
            COPY,
        )?;
        let fork = reconstruct_history_from_rollout(load_rollout_items(&path)?.contents.items());

        let rolled_back_text = format!("{text}{}\n", rollback_line(n)?);
        let rolled_back = load_rollout_bytes(rolled_back_text.into_bytes(), "rb.jsonl")?;
        let rollback = reconstruct_history_from_rollout(rolled_back.contents.items());
        assert_eq!(
            fork.history.raw_items(),
            rollback.history.raw_items(),
            "n = {n}"
        );
        assert_eq!(
            fork.previous_turn_settings, rollback.previous_turn_settings,
            "n = {n}"
        );
        assert_eq!(
            fork.reference_context_item, rollback.reference_context_item,
            "n = {n}"
        );
        eprintln!("n = {n}: kept {} items", forked.kept_items);
    }
    Ok(())
}

#[test]
fn fork_positions_are_rollback_aware() -> TestResult {
    let mut lines = session(3, ThreadId::new())?;
    lines.push(rollback_line(1)?);
    lines.extend(turn_lines(3)?);
    let source = load_rollout_bytes((lines.join("\n") + "\n").into_bytes(), "source.jsonl")?;
    // user 0, user 1, (user 2 rolled back), user 3.
    let positions = user_message_positions_in_rollout(source.contents.items());
    assert_eq!(positions, vec![2, 7, 18]);

    let dir = tempfile::tempdir()?;
    let path = dir.path().join("fork.jsonl");
    // Before the 2nd last surviving user message (user 1): keeps turn 0 only.
    let forked =
        fork_rollout_to_path(&source, ForkPoint::BeforeNthLastUserMessage(2), &path, COPY)?;
    assert_eq!(forked.kept_items, 6);
    let fork = reconstruct_history_from_rollout(load_rollout_items(&path)?.contents.items());
    assert_eq!(
        fork.history.raw_items(),
        &[
            ResponseItem::user_text("user 0"),
            ResponseItem::assistant_text("reply 0", None)
        ]
    );
    // Before the last one (user 3): the rolled-back turn and its marker are kept, so the
    // fork rebuilds to turns 0 and 1.
    let path = dir.path().join("fork-last.jsonl");
    let forked =
        fork_rollout_to_path(&source, ForkPoint::BeforeNthLastUserMessage(1), &path, COPY)?;
    assert_eq!(forked.kept_items, 17);
    let fork = reconstruct_history_from_rollout(load_rollout_items(&path)?.contents.items());
    assert_eq!(fork.history.len(), 4);
    Ok(())
}

#[test]
fn fork_into_a_home_is_findable_and_never_overwrites() -> TestResult {
    let lines = session(2, ThreadId::new())?;
    let source = load_rollout_bytes((lines.join("\n") + "\n").into_bytes(), "source.jsonl")?;
    let dir = tempfile::tempdir()?;
    let home = CodexHome::new(dir.path());
    let forked = fork_rollout(&source, ForkPoint::BeforeNthLastUserMessage(1), &home, COPY)?;
    assert!(forked.path.starts_with(home.sessions_dir()));
    assert_eq!(
        find_first_rollout(&home, |name| name.thread_id == *forked.thread_id.as_uuid())?,
        Some(forked.path.clone())
    );
    let again = fork_rollout_to_path(&source, ForkPoint::KeepAll, &forked.path, COPY);
    assert!(
        matches!(again, Err(ForkError::DestinationExists(_))),
        "{again:?}"
    );
    // No temporary file is left behind.
    let siblings = std::fs::read_dir(forked.path.parent().ok_or("no parent")?)?.count();
    assert_eq!(siblings, 1);
    Ok(())
}

/// Checks one fork of a real file: its lines are the source's first lines (the meta line
/// aside), and it loads back to the source's items up to the cut.
fn check_real_fork(source: &LoadedRollout, point: ForkPoint, path: &Path) -> TestResult {
    let forked = fork_rollout_to_path(source, point, path, COPY)?;
    let fork_bytes = std::fs::read(path)?;
    let fork_lines = split(&fork_bytes);
    let contents = &source.contents;
    let kept: Vec<&[u8]> = contents
        .entries()
        .iter()
        .map(|entry| contents.raw_line(entry))
        .take(fork_lines.len())
        .collect();
    let meta_index = first_session_meta_index(contents.items());
    let meta_line = meta_index
        .and_then(|index| contents.entry_of_item(index))
        .map(|entry| entry.number);
    for (number, (fork_line, source_line)) in fork_lines.iter().zip(&kept).enumerate() {
        if Some(contents.entries()[number].number) == meta_line {
            let meta = meta_payload(fork_line)?;
            assert_eq!(meta["id"], json!(forked.thread_id.to_string()));
            assert_eq!(meta["forked_from_id"], json!(source.thread_id.to_string()));
        } else {
            assert_eq!(fork_line, source_line, "line {}", number + 1);
        }
    }
    let reloaded = load_rollout_items(path)?;
    assert_eq!(reloaded.thread_id, forked.thread_id);
    let meta = meta_index.unwrap_or(0);
    assert_eq!(
        &reloaded.contents.items()[meta + 1..],
        &source.contents.items()[meta + 1..forked.kept_items]
    );
    Ok(())
}

#[test]
fn every_real_session_forks_byte_for_byte() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    for (index, path) in files.iter().enumerate() {
        let Ok(source) = load_rollout_items(path) else {
            continue;
        };
        let positions = user_message_positions_in_rollout(source.contents.items()).len();
        eprintln!("{}: {positions} user message positions", path.display());
        for (variant, point) in [
            ForkPoint::KeepAll,
            ForkPoint::BeforeNthLastUserMessage(1),
            ForkPoint::BeforeNthUserMessage(1),
        ]
        .into_iter()
        .enumerate()
        {
            let fork = dir.path().join(format!("fork-{index}-{variant}.jsonl"));
            check_real_fork(&source, point, &fork)
                .map_err(|err| format!("{} {point:?}: {err}", path.display()))?;
        }
    }
    Ok(())
}

/// Every real file forks without each number of its last user turns, and the fork has that
/// many turns fewer; this includes a capture whose user message items were removed (only
/// the `user_message` events are left), where the cut falls before the event.
#[test]
fn every_real_session_forks_without_its_last_user_turns() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let mut event_only_turns = 0;
    for (index, path) in files.iter().enumerate() {
        let Ok(source) = load_rollout_items(path) else {
            continue;
        };
        let turns = user_turns(&source.contents);
        event_only_turns += turns.iter().filter(|turn| turn.message.is_none()).count();
        for drop in 1..=turns.len() {
            let point = fork_point_dropping_turns(&turns, drop)?;
            let fork = dir.path().join(format!("drop-{index}-{drop}.jsonl"));
            check_real_fork(&source, point, &fork)
                .map_err(|err| format!("{} drop {drop}: {err}", path.display()))?;
            let reloaded = load_rollout_items(&fork)?;
            assert_eq!(
                user_turns(&reloaded.contents).len(),
                turns.len() - drop,
                "{} drop {drop}",
                path.display()
            );
        }
    }
    assert!(
        event_only_turns >= 3,
        "the codemie capture's turns have no message item: {event_only_turns}"
    );
    Ok(())
}
