use pretty_assertions::assert_eq;

use super::*;

fn contents(lines: &[String]) -> RolloutContents {
    RolloutContents::parse(lines.join("\n").into_bytes())
}

const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}}"#;

fn line(kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"2025-06-02T09:00:01.000Z","type":"{kind}","payload":{payload}}}"#)
}

fn user_item(text: &str) -> String {
    line(
        "response_item",
        &format!(
            r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}"#
        ),
    )
}

fn assistant_item(text: &str) -> String {
    line(
        "response_item",
        &format!(
            r#"{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"{text}"}}]}}"#
        ),
    )
}

fn user_event(text: &str) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"user_message","message":"{text}"}}"#),
    )
}

fn task_started(turn: &str) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"task_started","turn_id":"{turn}"}}"#),
    )
}

fn task_complete(turn: &str) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"task_complete","turn_id":"{turn}"}}"#),
    )
}

fn rollback(turns: u32) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"thread_rolled_back","num_turns":{turns}}}"#),
    )
}

fn turn(message: Option<usize>, event: Option<usize>) -> UserTurn {
    UserTurn { event, message }
}

#[test]
fn events_count_and_rollbacks_subtract() {
    let contents = contents(&[
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
    ]);
    let turns = user_turns(&contents);
    assert_eq!(turns, vec![turn(Some(1), Some(2)), turn(Some(8), Some(9))]);
    assert_eq!(user_turn_count(&contents), 2);
    assert_eq!(
        fork_point_dropping_turns(&turns, 1),
        Ok(ForkPoint::BeforeItem(8))
    );
    assert_eq!(
        fork_point_dropping_turns(&turns, 2),
        Ok(ForkPoint::BeforeItem(1))
    );
    assert_eq!(fork_point_dropping_turns(&turns, 0), Ok(ForkPoint::KeepAll));
    assert_eq!(
        fork_point_dropping_turns(&turns, 3),
        Err(TooFewTurns {
            turns: 2,
            requested: 3
        })
    );
}

#[test]
fn injected_context_that_looks_typed_does_not_count_when_events_exist() {
    // A redacted context message is a user message item without an event.
    let contents = contents(&[
        META.to_string(),
        user_item("[REDACTED_TEXT len=3017]"),
        assistant_item("ok"),
        user_item("the question"),
        user_event("the question"),
    ]);
    assert_eq!(user_turns(&contents), vec![turn(Some(3), Some(4))]);
}

#[test]
fn a_turn_whose_message_item_is_missing_starts_at_its_event() {
    // As in real files whose author removed the user message items: only events remain.
    let contents = contents(&[
        META.to_string(),
        user_event("first"),
        assistant_item("answer"),
        user_item("[context injected mid-turn]"),
        assistant_item("more"),
        user_event("second"),
        assistant_item("answer"),
    ]);
    let turns = user_turns(&contents);
    assert_eq!(turns, vec![turn(None, Some(1)), turn(None, Some(5))]);
    let point = fork_point_dropping_turns(&turns, 1);
    assert_eq!(point, Ok(ForkPoint::BeforeItem(5)));
    assert_eq!(
        crate::fork::fork_cut(contents.items(), ForkPoint::BeforeItem(5)),
        5
    );
}

#[test]
fn the_cut_moves_up_to_the_turns_task_started() -> Result<(), TooFewTurns> {
    let contents = contents(&[
        META.to_string(),
        task_started("t1"),
        user_event("first"),
        assistant_item("answer"),
        task_complete("t1"),
        task_started("t2"),
        user_event("second"),
    ]);
    let turns = user_turns(&contents);
    assert_eq!(turns.len(), 2);
    let point = fork_point_dropping_turns(&turns, 1)?;
    assert_eq!(point, ForkPoint::BeforeItem(6));
    assert_eq!(crate::fork::fork_cut(contents.items(), point), 5);
    Ok(())
}

#[test]
fn legacy_files_count_turn_boundaries() {
    let contents = contents(&[
        r#"{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","instructions":null}"#.to_string(),
        r#"{"record_type":"state"}"#.to_string(),
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"one"}]}"#.to_string(),
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"two"}]}"#.to_string(),
    ]);
    assert!(contents.has_legacy_lines());
    assert_eq!(TurnRecords::of(&contents), TurnRecords::BoundaryItems);
    let turns = user_turns(&contents);
    assert_eq!(turns, vec![turn(Some(1), None), turn(Some(2), None)]);
    assert_eq!(
        fork_point_dropping_turns(&turns, 1),
        Ok(ForkPoint::BeforeItem(2))
    );
}

#[test]
fn an_envelope_file_without_events_has_no_turns() {
    // A fork that kept no event: the message item alone is not a recorded turn.
    let contents = contents(&[META.to_string(), user_item("typed?")]);
    assert_eq!(user_turn_count(&contents), 0);
}
