use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::load::RolloutContents;
use crate::turns::tests::{
    assistant_item, line, rollback, task_complete, task_started, user_event, user_item,
};
use crate::turns::{
    TurnRecords, UserTurnCounter, all_user_turns_in_rollout, user_turns_in_rollout,
};

fn started(turn: &str) -> String {
    task_started(turn)
}

fn complete(turn: &str) -> String {
    task_complete(turn)
}

fn agent_item(text: &str) -> String {
    line(
        "response_item",
        &format!(
            r#"{{"type":"agent_message","author":"/root/worker","recipient":"/root","content":[{{"type":"input_text","text":"{text}"}}]}}"#
        ),
    )
}

/// A person's turn as the legacy recorder writes it.
fn person_turn(id: &str, text: &str) -> Vec<String> {
    vec![
        started(id),
        user_item(text),
        user_event(text),
        assistant_item("ok"),
        complete(id),
    ]
}

/// A turn another agent started: its message, no `user_message` event.
fn agent_turn(id: &str, text: &str) -> Vec<String> {
    vec![
        started(id),
        agent_item(text),
        assistant_item("ok"),
        complete(id),
    ]
}

/// A turn nobody started (a standalone assistant turn): it does not count.
fn quiet_turn(id: &str) -> Vec<String> {
    vec![started(id), assistant_item("standalone"), complete(id)]
}

fn items(parts: Vec<Vec<String>>) -> Vec<RolloutItem> {
    let lines: Vec<String> = parts.into_iter().flatten().collect();
    RolloutContents::parse(lines.join("\n").into_bytes())
        .items()
        .to_vec()
}

fn segments_of(items: &[RolloutItem]) -> (Vec<Segment>, usize) {
    let mut scan = SegmentScan::keeping_all();
    for (index, item) in items.iter().enumerate() {
        scan.push(index, item);
    }
    scan.finish()
}

/// `(first item, discarded)` of every segment that holds an item.
fn shape(items: &[RolloutItem]) -> Vec<(usize, bool)> {
    segments_of(items)
        .0
        .iter()
        .filter(|segment| !segment.items.is_empty())
        .map(|segment| (segment.items.start, segment.discarded))
        .collect()
}

/// The messages of the user turns that survive, under the file's rule.
fn surviving_texts(items: &[RolloutItem]) -> Vec<usize> {
    user_turns_in_rollout(items, TurnRecords::of_items(items))
        .iter()
        .map(|turn| turn.record())
        .collect()
}

/// The streamed count equals the whole-file index on each prefix of `items`.
fn assert_streamed_count_agrees_on_every_prefix(items: &[RolloutItem]) {
    for end in 0..=items.len() {
        let prefix = &items[..end];
        assert_eq!(
            streamed_count(prefix),
            surviving_texts(prefix).len(),
            "prefix of {end} items"
        );
    }
}

fn streamed_count(items: &[RolloutItem]) -> usize {
    let mut counter = UserTurnCounter::default();
    for item in items {
        counter.push(item);
    }
    counter.count()
}

#[test]
fn a_rollback_discards_its_own_segment_and_counts_it() {
    let items = items(vec![
        person_turn("t1", "a"),
        person_turn("t2", "b"),
        vec![rollback(1)],
    ]);
    assert_eq!(shape(&items), vec![(0, false), (5, true)]);
    assert_eq!(surviving_texts(&items), vec![1]);
    assert_eq!(streamed_count(&items), 1);
}

#[test]
fn a_turn_another_agent_started_uses_up_a_rollback() {
    // Core's rebuild counts the agent's turn: rolling back one turn removes it, and the
    // person's turn before it stays.
    let items = items(vec![
        person_turn("t1", "a"),
        agent_turn("t2", "do it"),
        vec![rollback(1)],
    ]);
    assert_eq!(surviving_texts(&items), vec![1]);
    assert_eq!(streamed_count(&items), 1);
    let all = all_user_turns_in_rollout(&items, TurnRecords::of_items(&items));
    assert_eq!(all.len(), 1, "the agent's turn is not a user turn: {all:?}");
}

#[test]
fn turns_nobody_started_are_discarded_on_the_way_without_counting() {
    let items = items(vec![
        person_turn("t1", "a"),
        person_turn("t2", "b"),
        quiet_turn("t3"),
        vec![rollback(1)],
    ]);
    assert_eq!(shape(&items), vec![(0, false), (5, true), (10, true)]);
    assert_eq!(surviving_texts(&items), vec![1]);
}

#[test]
fn a_message_sent_during_a_turn_is_rolled_back_with_it() {
    // Two messages in one segment (the person steered the running turn): one segment, so a
    // rollback of one turn removes both.
    let mut steered = person_turn("t2", "b");
    steered.insert(3, user_item("steer"));
    steered.insert(4, user_event("steer"));
    let items = items(vec![person_turn("t1", "a"), steered, vec![rollback(1)]]);
    assert_eq!(surviving_texts(&items), vec![1]);
    assert_eq!(streamed_count(&items), 1);
}

#[test]
fn a_turn_start_of_another_turn_does_not_end_the_segment() {
    // `x` started, but what follows records turn `t2`: core keeps reading `t2` back through
    // the start of `x`, so the rollback of one turn takes both.
    let items = items(vec![
        person_turn("t1", "a"),
        vec![started("t2"), user_item("b"), user_event("b")],
        vec![started("x"), assistant_item("ok"), complete("t2")],
        vec![rollback(1)],
    ]);
    assert_eq!(shape(&items), vec![(0, false), (5, true)]);
    assert_eq!(surviving_texts(&items), vec![1]);
}

#[test]
fn a_rollback_past_every_turn_reports_what_it_could_not_remove() {
    let items = items(vec![person_turn("t1", "a"), vec![rollback(3)]]);
    let (segments, unmatched) = segments_of(&items);
    assert!(segments.iter().all(|segment| segment.discarded));
    assert_eq!(unmatched, 2);
    assert_eq!(surviving_texts(&items), Vec::<usize>::new());
    assert_eq!(streamed_count(&items), 0);
}

#[test]
fn later_rollbacks_reach_past_discarded_segments() {
    let items = items(vec![
        person_turn("t1", "a"),
        person_turn("t2", "b"),
        person_turn("t3", "c"),
        vec![rollback(1)],
        person_turn("t4", "d"),
        vec![rollback(2)],
    ]);
    // t3 by the first marker; t4 and t2 by the second.
    assert_eq!(surviving_texts(&items), vec![1]);
    assert_eq!(streamed_count(&items), 1);
}

#[test]
fn every_segment_rule_agrees_with_the_whole_file_index_on_each_prefix() {
    let items = items(vec![
        person_turn("t1", "a"),
        agent_turn("t2", "x"),
        quiet_turn("t3"),
        person_turn("t4", "b"),
        vec![rollback(2)],
        person_turn("t5", "c"),
        vec![rollback(1)],
        person_turn("t6", "d"),
    ]);
    assert_streamed_count_agrees_on_every_prefix(&items);
    assert_eq!(surviving_texts(&items).len(), 2);
}

/// A person's turn with a second message sent while it ran: two turns of one rule.
fn steered_turn(id: &str) -> Vec<String> {
    let mut lines = person_turn(id, "a");
    lines.insert(3, user_item("more"));
    lines.insert(4, user_event("more"));
    lines
}

#[test]
fn a_counting_reader_keeps_a_byte_per_old_turn_and_rolls_back_into_them() {
    let mut parts: Vec<Vec<String>> = (0..200)
        .map(|turn| person_turn(&format!("t{turn}"), "a"))
        .collect();
    parts.push(vec![rollback(150)]);
    parts.push(person_turn("u1", "b"));
    parts.push(agent_turn("u2", "x"));
    parts.push(person_turn("u3", "c"));
    parts.push(vec![rollback(2)]);
    let items = items(parts);
    let mut scan = SegmentScan::counting();
    for (index, item) in items.iter().enumerate() {
        scan.push(index, item);
        if matches!(item, RolloutItem::EventMsg(EventMsg::UserMessage(_))) {
            scan.note_turn(0);
        }
    }
    // t0..t49, u1 and u2 (the last rollback takes u2 when u3's segment closes).
    assert_eq!(
        scan.older.codes.len() + scan.surviving.len(),
        52,
        "one byte for each old surviving turn, the newest kept whole"
    );
    assert!(scan.older.wide.is_empty());
    assert_eq!(streamed_count(&items), surviving_texts(&items).len());
    assert_eq!(streamed_count(&items), 51);
}

/// Turn `turn` of a run that cycles through every kind: a person's, a quiet one, a steered
/// one (two turns of a rule), another agent's.
fn turn_of_every_kind(turn: usize) -> Vec<String> {
    let id = format!("t{turn}");
    match turn % 4 {
        0 => person_turn(&id, "a"),
        1 => quiet_turn(&id),
        2 => steered_turn(&id),
        _ => agent_turn(&id, "x"),
    }
}

#[test]
fn old_turns_of_every_kind_roll_back_as_the_whole_file_index_says() {
    // Far more turns than are kept whole, of every kind: quiet ones (kept as nothing),
    // steered ones (two turns of a rule: kept wide), agent and person turns; rollbacks reach
    // deep into them, and the streamed count agrees on each prefix.
    let mut parts: Vec<_> = (0..(3 * RECENT_SEGMENTS)).map(turn_of_every_kind).collect();
    parts.push(vec![rollback(90)]);
    parts.push(person_turn("u1", "b"));
    parts.push(steered_turn("u2"));
    parts.push(vec![rollback(40)]);
    parts.push(person_turn("u3", "c"));
    let items = items(parts);
    assert_streamed_count_agrees_on_every_prefix(&items);
    assert!(surviving_texts(&items).len() > 10);
}

#[test]
fn the_streamed_index_marks_old_turns_a_rollback_reached_through_a_gap() {
    // Turns beyond those kept whole, a rollback, then enough turns that the ones after the
    // gap it left are folded too; a last rollback reaches back through the gap. Every turn's
    // mark must be the whole-file index's: the folded segments keep their firsts in a byte
    // only where the turns follow on, and whole where they do not.
    let mut parts: Vec<_> = (0..(2 * RECENT_SEGMENTS)).map(turn_of_every_kind).collect();
    // Leaves a person's turn (a byte) right below the gap.
    parts.push(vec![rollback(5)]);
    parts.extend(((2 * RECENT_SEGMENTS)..(4 * RECENT_SEGMENTS)).map(turn_of_every_kind));
    // The 128 turns after the gap hold 96 that count: this reaches 24 turns below it.
    parts.push(vec![rollback(120)]);
    parts.push(person_turn("u1", "b"));
    let items = items(parts);
    let mut index = crate::turns::StreamedTurnIndex::default();
    for item in &items {
        index.push(item);
    }
    let records = TurnRecords::of_items(&items);
    let expected = all_user_turns_in_rollout(&items, records);
    assert!(expected.iter().filter(|turn| turn.rolled_back).count() > RECENT_SEGMENTS / 2);
    assert!(expected.iter().filter(|turn| !turn.rolled_back).count() > RECENT_SEGMENTS / 2);
    assert_eq!(index.finish(), (records, expected));
}
