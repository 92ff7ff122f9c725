use codex_protocol::rollout::LineFormat;
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;
use crate::fork::{ForkPoint, fork_point_dropping_turns};

fn contents(lines: &[String]) -> RolloutContents {
    RolloutContents::parse(lines.join("\n").into_bytes())
}

const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}}"#;

pub(crate) fn line(kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"2025-06-02T09:00:01.000Z","type":"{kind}","payload":{payload}}}"#)
}

pub(crate) fn user_item(text: &str) -> String {
    line(
        "response_item",
        &format!(
            r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}"#
        ),
    )
}

pub(crate) fn assistant_item(text: &str) -> String {
    line(
        "response_item",
        &format!(
            r#"{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"{text}"}}]}}"#
        ),
    )
}

pub(crate) fn user_event(text: &str) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"user_message","message":"{text}"}}"#),
    )
}

pub(crate) fn task_started(turn: &str) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"task_started","turn_id":"{turn}"}}"#),
    )
}

pub(crate) fn task_complete(turn: &str) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"task_complete","turn_id":"{turn}"}}"#),
    )
}

pub(crate) fn rollback(turns: u32) -> String {
    line(
        "event_msg",
        &format!(r#"{{"type":"thread_rolled_back","num_turns":{turns}}}"#),
    )
}

/// A turn's records as `(message, event)`; its start is checked by the fork-point tests.
fn turn(message: Option<usize>, event: Option<usize>) -> (Option<usize>, Option<usize>) {
    (message, event)
}

fn records(turns: &[UserTurn]) -> Vec<(Option<usize>, Option<usize>)> {
    turns
        .iter()
        .map(|turn| (turn.message, turn.event))
        .collect()
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
    assert_eq!(
        records(&turns),
        vec![turn(Some(1), Some(2)), turn(Some(8), Some(9))]
    );
    assert_eq!(user_turns(&contents).len(), 2);
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
    assert_eq!(
        records(&user_turns(&contents)),
        vec![turn(Some(3), Some(4))]
    );
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
    assert_eq!(
        records(&turns),
        vec![turn(None, Some(1)), turn(None, Some(5))]
    );
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
    // The turn index knows the turn opens at its `task_started`.
    assert_eq!(turns[1].start, 5);
    assert_eq!(point, ForkPoint::BeforeItem(5));
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
    assert_eq!(
        records(&turns),
        vec![turn(Some(1), None), turn(Some(2), None)]
    );
    assert_eq!(
        fork_point_dropping_turns(&turns, 1),
        Ok(ForkPoint::BeforeItem(2))
    );
}

#[test]
fn an_envelope_file_without_records_counts_message_items_inside_turns_only() {
    // A fork cut before its first turn keeps context that may look typed: not a turn.
    let contents = contents(&[META.to_string(), user_item("typed?")]);
    assert_eq!(user_turns(&contents).len(), 0);
    // A file filtered by hand keeps its turns but no record of them: the items decide.
    let contents = contents_with_turn();
    assert_eq!(user_turns(&contents).len(), 1);
}

fn contents_with_turn() -> RolloutContents {
    contents(&[
        META.to_string(),
        user_item("typed?"),
        task_started("t1"),
        user_item("hi"),
    ])
}

fn completed_user(turn: &str, text: &str) -> String {
    line(
        "event_msg",
        &format!(
            r#"{{"type":"item_completed","thread_id":"[redacted]","turn_id":"{turn}","item":{{"type":"UserMessage","id":"u-{turn}","content":[{{"type":"text","text":"{text}","text_elements":[]}}]}},"completed_at_ms":1}}"#
        ),
    )
}

#[test]
fn paginated_files_count_completed_user_messages_less_rollbacks() {
    let lines = vec![
        META.replace(
            r#""cli_version":"0.1.0""#,
            r#""cli_version":"0.152.1","history_mode":"paginated""#,
        ),
        task_started("t1"),
        user_item("<environment_context>x</environment_context>"),
        user_item("[redacted]"),
        user_item("hello"),
        completed_user("t1", "hello"),
        task_complete("t1"),
        task_started("t2"),
        user_item("again"),
        completed_user("t2", "again"),
        task_complete("t2"),
        rollback(1),
        task_started("t3"),
        user_item("third"),
        completed_user("t3", "third"),
    ];
    let contents = contents(&lines);
    assert_eq!(
        TurnRecords::of(&contents),
        TurnRecords::CompletedUserMessages
    );
    // The redacted context message looks typed, but the completed items decide.
    assert_eq!(
        records(&user_turns(&contents)),
        vec![turn(Some(4), Some(5)), turn(Some(13), Some(14))]
    );
}

#[test]
fn files_without_either_record_count_boundary_items() {
    let lines = vec![
        META.to_string(),
        task_started("t1"),
        user_item("hi"),
        assistant_item("hello"),
        task_complete("t1"),
    ];
    let contents = contents(&lines);
    assert_eq!(
        TurnRecords::of(&contents),
        TurnRecords::BoundaryItemsInTurns
    );
    assert_eq!(records(&user_turns(&contents)), vec![turn(Some(2), None)]);
}

const CHILD: &str = "019f4efd-0137-7790-9622-c175e1415048";
const PARENT: &str = "019f4efb-ae76-7e30-b44e-3fa464c16193";

fn meta_of(id: &str) -> String {
    META.replace("0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55", id)
}

#[test]
fn a_child_knows_the_prefix_it_copied_and_a_resumed_meta_is_not_one() {
    let lines = vec![
        meta_of(CHILD),
        meta_of(PARENT),
        // The parent's turn, minted before the child thread existed.
        task_started("019f4efc-d953-72a2-9d0b-c2ba8afdfec6"),
        user_item("parent task"),
        user_event("parent task"),
        // The child's own first turn.
        task_started("019f4efd-28c2-7b90-b56e-c9a325f3739e"),
        assistant_item("working"),
        task_complete("019f4efd-28c2-7b90-b56e-c9a325f3739e"),
    ];
    let child = contents(&lines);
    let prefix = parent_prefix(child.items());
    assert_eq!(
        prefix,
        Some(ParentPrefix {
            parent_thread_id: ThreadId::from_string(PARENT).unwrap_or_default(),
            items: 1..5,
        })
    );
    let resumed = vec![meta_of(CHILD), task_started("t"), meta_of(CHILD)];
    assert_eq!(parent_prefix(contents(&resumed).items()), None);
}

/// The streaming rule ([`TurnTally`]) numbers each turn's record as the whole-file index
/// counts it, and ends with the same number of turns.
#[track_caller]
fn check_tally(lines: &[String]) {
    let contents = contents(lines);
    let turns = all_user_turns_in_rollout(contents.items(), TurnRecords::of(&contents));
    let mut tally = TurnTally::default();
    let numbers: Vec<u32> = contents
        .entries()
        .iter()
        .filter_map(|entry| {
            entry
                .item()
                .map(|index| tally.push(&contents.items()[index], entry.format))
        })
        .collect();
    for (k, turn) in turns.iter().enumerate() {
        let record = turn.event.or(turn.message).unwrap_or(turn.start);
        assert_eq!(
            numbers[record],
            k as u32 + 1,
            "turn {} numbered {numbers:?}",
            k + 1
        );
    }
    assert_eq!(tally.turns() as usize, turns.len(), "{numbers:?}");
}

#[test]
fn the_streaming_rule_agrees_with_the_whole_file_rule() {
    // Events, with injected context that looks typed before the first one, and a rollback
    // (rolled-back turns keep their numbers).
    check_tally(&[
        META.to_string(),
        task_started("t1"),
        user_item("context?"),
        user_item("one"),
        user_event("one"),
        assistant_item("a"),
        task_complete("t1"),
        task_started("t2"),
        user_item("two"),
        user_event("two"),
        rollback(1),
        task_started("t3"),
        user_item("three"),
        user_event("three"),
    ]);
    // Paginated records.
    check_tally(&[
        META.to_string(),
        task_started("t1"),
        user_item("one"),
        completed_user("t1", "one"),
        task_started("t2"),
        user_item("two"),
        completed_user("t2", "two"),
    ]);
    // No records: message items inside turns.
    check_tally(&[
        META.to_string(),
        user_item("before any turn"),
        task_started("t1"),
        user_item("one"),
        task_complete("t1"),
        task_started("t2"),
        user_item("two"),
    ]);
}

#[test]
fn without_records_two_messages_of_one_turn_share_its_number_until_it_ends() {
    // The whole-file rule makes each its own turn; a stream cannot know yet whether a record
    // follows (then the first would be injected context). The count agrees once the turn
    // ends; the second message's number is one less than the whole-file index gives it.
    let contents = contents(&[
        META.to_string(),
        task_started("t1"),
        user_item("one"),
        user_item("one again"),
        task_complete("t1"),
        assistant_item("after"),
    ]);
    assert_eq!(user_turns(&contents).len(), 2);
    let mut tally = TurnTally::default();
    let numbers: Vec<u32> = contents
        .items()
        .iter()
        .map(|item| tally.push(item, LineFormat::Envelope))
        .collect();
    assert_eq!(numbers, vec![0, 0, 1, 1, 2, 2]);
    assert_eq!(tally.turns(), 2);
}

/// The streamed index of `contents` (every rule read side by side, the beaten ones dropped
/// as the file shows them) equals the whole-file index.
fn check_streamed_index(contents: &RolloutContents) -> TurnRecords {
    let mut index = StreamedTurnIndex::default();
    for entry in contents.entries() {
        index.note_format(entry.format);
        if let Some(item) = entry.item() {
            index.push(&contents.items()[item]);
        }
    }
    let records = TurnRecords::of(contents);
    let expected = all_user_turns_in_rollout(contents.items(), records);
    assert!(!expected.is_empty());
    for turn in &expected {
        assert!(may_start_turn(&contents.items()[turn.start]), "{turn:?}");
    }
    assert_eq!(index.finish(), (records, expected));
    records
}

#[test]
fn the_streamed_index_keeps_the_rule_the_file_ends_up_with() {
    // Paginated records first, then events: the events' rule wins, read after the other.
    let records = check_streamed_index(&contents(&[
        META.to_string(),
        task_started("t1"),
        user_item("one"),
        completed_user("t1", "one"),
        task_complete("t1"),
        task_started("t2"),
        user_item("two"),
        user_event("two"),
        rollback(1),
        task_started("t3"),
        user_item("three"),
        user_event("three"),
    ]));
    assert_eq!(records, TurnRecords::UserMessageEvents);
    // Events first, then a pre-envelope line: the boundary items count after all.
    let records = check_streamed_index(&contents(&[
        META.to_string(),
        task_started("t1"),
        user_item("one"),
        user_event("one"),
        task_complete("t1"),
        r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"two"}]}"#
            .to_string(),
    ]));
    assert_eq!(records, TurnRecords::BoundaryItems);
}

#[test]
fn the_streamed_index_marks_turns_a_rollback_removes_far_back() {
    // More surviving turns than the index keeps whole: the older ones are folded, and a
    // rollback reaching among them still marks exactly its turns.
    let mut lines = vec![META.to_string()];
    for turn in 0..300 {
        let id = format!("t{turn}");
        lines.push(task_started(&id));
        lines.push(user_item(&format!("message {turn}")));
        lines.push(user_event(&format!("message {turn}")));
        lines.push(task_complete(&id));
        match turn {
            100 => lines.push(rollback(30)),
            250 => lines.push(rollback(120)),
            _ => {}
        }
    }
    lines.push(rollback(5));
    let contents = contents(&lines);
    check_streamed_index(&contents);
    let turns = all_user_turns_in_rollout(contents.items(), TurnRecords::of(&contents));
    let removed = turns.iter().filter(|turn| turn.rolled_back).count();
    assert_eq!(removed, 30 + 120 + 5);
}
