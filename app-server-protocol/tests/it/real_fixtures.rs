//! Thread history rebuilt from real Codex session files.
//!
//! For every file in `../shared/fixtures/real/`: the rebuilt thread has as many turns as the
//! file has user turns (counted independently below, with `turn_aborted` and rollbacks taken
//! into account), and its JSON validates against the committed JSON Schema of `Thread`. The
//! real multi-agent pair also checks a thread's session and sub-agent fields.
//!
//! The folder is absent outside this project's CI machines: the test then says loudly that it
//! skipped, unless `CODEX_REQUIRE_REAL_FIXTURES=1`, where a missing folder fails.

// Reporting (what was written, what was measured, what was skipped) is this test's job.
#![allow(clippy::print_stderr)]

use std::fs;
use std::path::Path;

use codex_app_server_protocol::build_turns_from_rollout_items;
use codex_app_server_protocol::thread_from_rollout_items;
use codex_app_server_protocol::v2::{Thread, ThreadItem, ThreadSource, TurnStatus};
use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::{RolloutItem, parse_rollout_line, split_lines};
use codex_test_support::{REAL_FIXTURES, real_file, real_jsonl_files};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Files that are shape catalogues with trimmed values, not captures (see the README there).
const SHAPE_CATALOGUES: &[&str] = &["jazzyalex__agent-sessions__small.jsonl"];

/// Every rollout item of a file, one line at a time; lines the parser rejects are counted,
/// not fatal (the catalogue file trims values on purpose).
fn rollout_items(path: &Path) -> Result<(Vec<RolloutItem>, usize), Box<dyn std::error::Error>> {
    let bytes = fs::read(path)?;
    let mut items = Vec::new();
    let mut rejected = 0;
    for (_, line) in split_lines(&bytes) {
        match parse_rollout_line(line) {
            Ok(parsed) => items.extend(parsed.item().cloned()),
            Err(_) => rejected += 1,
        }
    }
    Ok((items, rejected))
}

/// User turns, counted from the events alone: a user message (legacy event or completed
/// item) opens a turn unless it steers a turn `task_started` opened that already has one;
/// a `task_started` right after a user message belongs to that message's turn;
/// `task_complete`/`turn_aborted` close the open turn; a rollback drops the last turns. Only
/// turns holding a user message count.
fn count_user_turns(items: &[RolloutItem]) -> usize {
    let mut closed: Vec<bool> = Vec::new();
    // (explicit, has_user_message)
    let mut open: Option<(bool, bool)> = None;
    let mut last_was_user_message = false;
    for item in items {
        let RolloutItem::EventMsg(event) = item else {
            continue;
        };
        let is_user_message = matches!(event, EventMsg::UserMessage(_))
            || matches!(event, EventMsg::ItemCompleted(done) if matches!(done.item, TurnItem::UserMessage(_)));
        if is_user_message {
            match open {
                Some((true, _)) => open = Some((true, true)),
                Some((false, true)) | None => {
                    if let Some((_, has_user)) = open.take() {
                        closed.push(has_user);
                    }
                    open = Some((false, true));
                }
                Some((false, false)) => open = Some((false, true)),
            }
        }
        match event {
            EventMsg::TurnStarted(_) => match open.take() {
                Some((false, true)) if last_was_user_message => open = Some((true, true)),
                previous => {
                    if let Some((_, has_user)) = previous {
                        closed.push(has_user);
                    }
                    open = Some((true, false));
                }
            },
            EventMsg::TurnComplete(_) | EventMsg::TurnAborted(_) => {
                if let Some((_, has_user)) = open.take() {
                    closed.push(has_user);
                }
            }
            EventMsg::ThreadRolledBack(rollback) => {
                if let Some((_, has_user)) = open.take() {
                    closed.push(has_user);
                }
                let keep = closed.len().saturating_sub(rollback.num_turns as usize);
                closed.truncate(keep);
            }
            _ => {}
        }
        if !matches!(event, EventMsg::TokenCount(_)) {
            last_was_user_message = is_user_message;
        }
    }
    if let Some((_, has_user)) = open {
        closed.push(has_user);
    }
    closed.into_iter().filter(|has_user| *has_user).count()
}

/// Turns that ended without completing: one per `turn_aborted`, plus one per `task_started`
/// that arrives while an earlier turn is still open (a child's copy of its parent's turn
/// stops where the child was spawned; a crash leaves a turn open).
fn cut_off_turns(items: &[RolloutItem]) -> usize {
    let mut open = false;
    let mut cut_off = 0;
    for item in items {
        match item {
            RolloutItem::EventMsg(EventMsg::TurnStarted(_)) => {
                cut_off += usize::from(open);
                open = true;
            }
            RolloutItem::EventMsg(EventMsg::TurnAborted(_)) => {
                cut_off += 1;
                open = false;
            }
            RolloutItem::EventMsg(EventMsg::TurnComplete(_)) => open = false,
            _ => {}
        }
    }
    cut_off
}

fn has_user_message(turn: &codex_app_server_protocol::v2::Turn) -> bool {
    turn.items
        .iter()
        .any(|item| matches!(item.item, ThreadItem::UserMessage { .. }))
}

fn thread_schema() -> Result<jsonschema::Validator, Box<dyn std::error::Error>> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/schema/json/v2/Thread.json");
    let schema: serde_json::Value = serde_json::from_str(&fs::read_to_string(path)?)?;
    Ok(jsonschema::validator_for(&schema)?)
}

#[test]
fn real_files_rebuild_one_turn_per_user_turn_and_validate() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty(), "no .jsonl files in {REAL_FIXTURES}");
    let validator = thread_schema()?;
    for path in files {
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let (items, rejected) = rollout_items(&path)?;
        let turns = build_turns_from_rollout_items(&items);
        let user_turns = count_user_turns(&items);
        let items_total: usize = turns.iter().map(|turn| turn.items.len()).sum();
        eprintln!(
            "{name}: {} rollout items ({rejected} lines rejected by the parser), {} turns, \
             {user_turns} user turns, {items_total} thread items",
            items.len(),
            turns.len()
        );
        if SHAPE_CATALOGUES.contains(&name.as_str()) {
            // Values are trimmed there (README: "never crash, never lose a line" only), so
            // whole records are rejected and turn counts are meaningless; the schema check
            // below still applies.
            eprintln!("  {name} is a shape catalogue: turn count not asserted");
        } else if !items
            .iter()
            .any(|item| matches!(item, RolloutItem::EventMsg(_)))
        {
            // The pre-envelope format records response items only, no events. Thread history
            // (like upstream's resume view) is built from events, so such a file shows no
            // turns even though people typed in it; the response items still reach the model
            // history. Said here so an empty thread is a known outcome, not a silent pass.
            assert!(turns.is_empty(), "{name}: turns without any event");
            eprintln!("  {name} records no events: thread history is empty by design");
        } else {
            // Turns may hold no user message: one another agent started (its task arrives
            // as an agent message), or one the harness started itself (a 0.145 capture has
            // one between two resumes). Every user turn is in exactly one turn.
            let with_user = turns.iter().filter(|turn| has_user_message(turn)).count();
            assert_eq!(
                with_user, user_turns,
                "{name}: turns with a user message vs user turns"
            );
            if with_user < turns.len() {
                eprintln!(
                    "  {} turn(s) without a user message",
                    turns.len() - with_user
                );
            }
            let interrupted = turns
                .iter()
                .filter(|turn| turn.status == TurnStatus::Interrupted)
                .count();
            assert_eq!(
                interrupted,
                cut_off_turns(&items),
                "{name}: interrupted turns vs turn_aborted events and turns cut off"
            );
        }
        for turn in turns
            .iter()
            .filter(|_| !SHAPE_CATALOGUES.contains(&name.as_str()))
        {
            if turn.status == TurnStatus::Failed {
                assert!(
                    turn.error.is_some(),
                    "{name}: failed turn {} without error",
                    turn.id
                );
            }
        }

        // The whole thread (or, for files without session meta, a thread around the turns)
        // must match the generated schema.
        let thread = match thread_from_rollout_items(&items) {
            Some(thread) => thread,
            None => {
                let mut value: serde_json::Value =
                    serde_json::from_str(include_str!("fixtures/empty_thread.json"))?;
                value["turns"] = serde_json::to_value(&turns)?;
                serde_json::from_value(value)?
            }
        };
        // The thread of a file shows a turn the file leaves open as interrupted, as Codex
        // shows a thread it has not loaded; otherwise its turns are the history builder's.
        let mut expected = turns.clone();
        if let Some(last) = expected.last_mut()
            && last.status == TurnStatus::InProgress
        {
            last.status = TurnStatus::Interrupted;
        }
        assert_eq!(thread.turns, expected);
        let json = serde_json::to_value(&thread)?;
        let errors: Vec<String> = validator
            .iter_errors(&json)
            .map(|error| format!("{} at {}", error, error.instance_path()))
            .take(5)
            .collect();
        assert!(
            errors.is_empty(),
            "{name}: thread JSON violates the schema: {errors:#?}"
        );
    }
    Ok(())
}

#[test]
fn user_turn_counter_respects_aborts_and_rollbacks() -> TestResult {
    let lines = [
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"a"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"turn_aborted","reason":"interrupted"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"b"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"ok"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_started","turn_id":"3","model_context_window":null}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"c"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"steer"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete","turn_id":"3","last_agent_message":null}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":1}}"#,
    ];
    let mut items = Vec::new();
    for line in lines {
        items.extend(parse_rollout_line(line.as_bytes())?.item().cloned());
    }
    assert_eq!(count_user_turns(&items), 2);
    let turns = build_turns_from_rollout_items(&items);
    let statuses: Vec<TurnStatus> = turns.iter().map(|turn| turn.status).collect();
    assert_eq!(
        statuses,
        vec![TurnStatus::Interrupted, TurnStatus::Completed]
    );
    Ok(())
}

/// The real 0.144 multi-agent pair: the child's thread names the parent's session and the
/// parent thread, with the nickname its meta gives (its role is `null` there); the parent is
/// its own session. Neither knows a project.
#[test]
fn sub_agent_threads_name_their_session_and_parent() -> TestResult {
    const PARENT: &str = "019f4efb-ae76-7e30-b44e-3fa464c16193";
    let (Some(parent), Some(child)) = (
        real_file("doudouqie66__CommonTools__rollout-2026-07-11T10-22-29")?,
        real_file("doudouqie66__CommonTools__rollout-2026-07-11T10-23-56")?,
    ) else {
        return Ok(());
    };
    let thread_of = |path: &Path| -> Result<Thread, Box<dyn std::error::Error>> {
        let (items, _) = rollout_items(path)?;
        thread_from_rollout_items(&items).ok_or_else(|| "no session meta".into())
    };
    let parent = thread_of(&parent)?;
    assert_eq!(parent.id, PARENT);
    assert_eq!(parent.session_id, PARENT);
    assert_eq!(parent.parent_thread_id, None);
    assert_eq!(parent.project_id, None);

    let child = thread_of(&child)?;
    assert_eq!(child.id, "019f4efd-0137-7790-9622-c175e1415048");
    // Codex 0.169's thread/read of this file shows the child's own id as its session (its
    // state keeps no session for a thread it has not loaded).
    assert_eq!(child.session_id, child.id);
    assert_eq!(child.parent_thread_id.as_deref(), Some(PARENT));
    assert_eq!(child.thread_source, Some(ThreadSource::Subagent));
    assert_eq!(child.agent_nickname.as_deref(), Some("Noether"));
    assert_eq!(child.agent_role, None);
    assert_eq!(child.project_id, None);
    Ok(())
}
