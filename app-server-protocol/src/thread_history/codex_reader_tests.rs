//! Where the history follows what Codex's own reader keeps of a file, checked against Codex
//! 0.169's `thread/read` on files of each shape (`docs/compat-real-codex.md`).

#![allow(clippy::unwrap_used, clippy::expect_used)]

use codex_protocol::event::{ContextCompactedEvent, EventMsg};
use codex_protocol::rollout::{CompactedItem, RolloutItem};
use pretty_assertions::assert_eq;

use super::tests::{agent, ev, kinds, user};
use super::*;

#[test]
fn a_compaction_line_without_its_event_shows_only_in_the_complete_mode() {
    // Codex 0.47 and 0.58 wrote `compacted {message}` with no `context_compacted` event;
    // Codex 0.169 shows no item for it.
    let compacted = RolloutItem::Compacted(Box::new(CompactedItem::from_message("summary")));
    let items = [user("a"), compacted.clone(), agent("A"), user("b")];
    let codex = build_turns_in_mode(&items, TranscriptMode::Codex);
    assert_eq!(kinds(&codex[0]), vec!["userMessage", "agentMessage"]);
    let complete = build_turns_in_mode(&items, TranscriptMode::Complete);
    assert_eq!(
        kinds(&complete[0]),
        vec!["userMessage", "contextCompaction", "agentMessage"]
    );
    // Ids are Codex's in both: the compaction mints none.
    assert_eq!(complete[0].items[2].id(), codex[0].items[1].id());
    assert_eq!(complete[0].items[1].id(), "compaction-1");
    // With its event, one item in both modes.
    let with_event = [
        user("a"),
        compacted,
        ev(EventMsg::ContextCompacted(ContextCompactedEvent {})),
        agent("A"),
    ];
    for mode in [TranscriptMode::Codex, TranscriptMode::Complete] {
        let turns = build_turns_in_mode(&with_event, mode);
        assert_eq!(
            kinds(&turns[0]),
            vec!["userMessage", "contextCompaction", "agentMessage"],
            "{mode:?}"
        );
        assert_eq!(turns[0].items[1].id(), "item-2", "{mode:?}");
    }
}

#[test]
fn implicit_turns_are_named_after_the_items_codex_reads() {
    // Lines Codex 0.169's reader skips, which this model keeps: a classic turn context, a
    // retired `ghost_snapshot` response item, a line kind it does not know. Checked against
    // Codex's `thread/read` of such a file (`docs/protocol-compat.md`).
    let line = |json: &str| {
        let parsed = codex_protocol::rollout::parse_rollout_line(json.as_bytes())
            .expect("a line this model reads");
        parsed.line().expect("an enveloped line").item.clone()
    };
    let classic_context = line(
        r#"{"timestamp":"t","type":"turn_context","payload":{"cwd":"/tmp","approval_policy":"never","sandbox_policy":{"mode":"danger-full-access"},"model":"m","summary":"auto"}}"#,
    );
    let context = line(
        r#"{"timestamp":"t","type":"turn_context","payload":{"cwd":"/tmp","approval_policy":"never","sandbox_policy":{"type":"danger-full-access"},"model":"m","summary":"auto"}}"#,
    );
    let ghost = line(
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"ghost_snapshot","ghost_commit":{"id":"a","parent":"b","preexisting_untracked_files":[]}}}"#,
    );
    let unknown = line(r#"{"timestamp":"t","type":"some_future_kind","payload":{"x":1}}"#);
    let tools = line(
        r#"{"timestamp":"t","type":"dynamic_tools_updated","payload":{"thread_id":"0199a1b2-0000-7000-8000-00000000000a","tools":[]}}"#,
    );
    let ids = |items: &[RolloutItem]| -> Vec<String> {
        build_turns_from_rollout_items(items)
            .iter()
            .map(|turn| turn.id.clone())
            .collect()
    };
    for skipped in [&classic_context, &ghost, &unknown] {
        assert!(!skipped.is_read_by_codex(), "{skipped:?}");
        assert_eq!(
            ids(&[
                skipped.clone(),
                user("a"),
                agent("A"),
                skipped.clone(),
                user("b")
            ]),
            ["rollout-0", "rollout-2"],
            "{skipped:?}"
        );
    }
    for read in [&context, &tools] {
        assert!(read.is_read_by_codex(), "{read:?}");
        assert_eq!(
            ids(&[read.clone(), user("a"), agent("A"), read.clone(), user("b")]),
            ["rollout-1", "rollout-4"],
            "{read:?}"
        );
    }
}
