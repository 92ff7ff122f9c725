use codex_rollout::fork::ForkPoint;
use codex_rollout::load::RolloutContents;

use super::*;

fn contents(lines: &[&str]) -> RolloutContents {
    RolloutContents::parse(lines.join("\n").into_bytes())
}

const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}}"#;

fn user_item(text: &str) -> String {
    format!(
        r#"{{"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}}}"#
    )
}

fn user_event(text: &str) -> String {
    format!(
        r#"{{"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{{"type":"user_message","message":"{text}"}}}}"#
    )
}

fn rollback(turns: u32) -> String {
    format!(
        r#"{{"timestamp":"2025-06-02T09:00:02.000Z","type":"event_msg","payload":{{"type":"thread_rolled_back","num_turns":{turns}}}}}"#
    )
}

#[test]
fn events_count_and_rollbacks_subtract() {
    let lines = [
        META.to_string(),
        user_item("a"),
        user_event("a"),
        user_item("b"),
        user_event("b"),
        user_item("c"),
        user_event("c"),
        rollback(2),
        user_item("d"),
        user_event("d"),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let contents = contents(&lines);
    assert_eq!(surviving_user_message_events(&contents), Some(vec![2, 9]));
    assert_eq!(user_turn_count(&contents), 2);
    // Dropping the last turn cuts before `d`'s message item, the 2nd surviving one (index 1).
    assert_eq!(
        fork_point_dropping(&contents, 1),
        Ok(ForkPoint::BeforeNthUserMessage(1))
    );
    assert_eq!(
        fork_point_dropping(&contents, 2),
        Ok(ForkPoint::BeforeNthUserMessage(0))
    );
    assert_eq!(fork_point_dropping(&contents, 0), Ok(ForkPoint::KeepAll));
    assert_eq!(
        fork_point_dropping(&contents, 3),
        Err(ForkPointError::TooFewTurns { turns: 2 })
    );
}

#[test]
fn injected_context_that_looks_typed_does_not_count_when_events_exist() {
    // A redacted context message is a user message item without an event.
    let lines = [
        META.to_string(),
        user_item("[REDACTED_TEXT len=3017]"),
        user_item("the question"),
        user_event("the question"),
    ];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let contents = contents(&lines);
    assert_eq!(user_turn_count(&contents), 1);
    assert_eq!(
        fork_point_dropping(&contents, 1),
        Ok(ForkPoint::BeforeNthUserMessage(1))
    );
}

#[test]
fn a_turn_whose_message_item_is_missing_cannot_be_cut() {
    let lines = [META.to_string(), user_event("only the event")];
    let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
    let contents = contents(&lines);
    assert_eq!(user_turn_count(&contents), 1);
    assert_eq!(
        fork_point_dropping(&contents, 1),
        Err(ForkPointError::NoMessageItem)
    );
}

#[test]
fn legacy_files_count_message_items() {
    let lines = [
        r#"{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","instructions":null}"#,
        r#"{"record_type":"state"}"#,
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"one"}]}"#,
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"two"}]}"#,
    ];
    let contents = contents(&lines);
    assert!(contents.has_legacy_lines());
    assert_eq!(surviving_user_message_events(&contents), None);
    assert_eq!(user_turn_count(&contents), 2);
    assert_eq!(
        fork_point_dropping(&contents, 1),
        Ok(ForkPoint::BeforeNthLastUserMessage(1))
    );
}
