use codex_protocol::event::{
    EventMsg, ThreadRolledBackEvent, TurnCompleteEvent, TurnStartedEvent, UserMessageEvent,
};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{CompactedItem, RolloutItem, SessionContextWindow, TurnContextItem};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::recorder::new_session_meta;

fn user(text: &str) -> ResponseItem {
    ResponseItem::user_text(text)
}

fn assistant(text: &str) -> ResponseItem {
    ResponseItem::assistant_text(text, None)
}

fn item(response: ResponseItem) -> RolloutItem {
    RolloutItem::ResponseItem(response)
}

fn event(msg: EventMsg) -> RolloutItem {
    RolloutItem::EventMsg(msg)
}

fn started(turn_id: &str) -> RolloutItem {
    event(EventMsg::TurnStarted(TurnStartedEvent {
        collaboration_mode_kind: "default".to_string(),
        ..TurnStartedEvent::new(turn_id)
    }))
}

fn complete(turn_id: &str) -> RolloutItem {
    event(EventMsg::TurnComplete(TurnCompleteEvent::new(turn_id)))
}

fn user_event(text: &str) -> RolloutItem {
    event(EventMsg::UserMessage(UserMessageEvent {
        message: text.to_string(),
        ..UserMessageEvent::default()
    }))
}

fn context(turn_id: &str, model: &str) -> TurnContextItem {
    let mut context = TurnContextItem::new("/repo", json!("never"), json!({}), model);
    context.turn_id = Some(turn_id.to_string());
    context
}

fn rollback(num_turns: u32) -> RolloutItem {
    event(EventMsg::ThreadRolledBack(ThreadRolledBackEvent {
        num_turns,
    }))
}

fn compacted(replacement: Option<Vec<ResponseItem>>, message: &str) -> RolloutItem {
    let mut item = CompactedItem::from_message(message);
    item.replacement_history = replacement;
    RolloutItem::Compacted(Box::new(item))
}

/// A complete user turn: started, the message and its event, the settings, a reply, complete.
fn turn(turn_id: &str, text: &str, reply: &str, model: &str) -> Vec<RolloutItem> {
    vec![
        started(turn_id),
        item(user(text)),
        user_event(text),
        RolloutItem::TurnContext(Box::new(context(turn_id, model))),
        item(assistant(reply)),
        complete(turn_id),
    ]
}

fn settings(model: &str) -> Option<PreviousTurnSettings> {
    Some(PreviousTurnSettings {
        model: model.to_string(),
        comp_hash: None,
        realtime_active: None,
    })
}

/// The state after every turn but the first was rolled back: its items, settings and context.
#[track_caller]
fn assert_back_at_first_turn(rebuilt: &ReconstructedHistory) {
    assert_eq!(rebuilt.history.raw_items(), &[user("u1"), assistant("a1")]);
    assert_eq!(rebuilt.previous_turn_settings, settings("m1"));
    assert_eq!(rebuilt.reference_context_item, Some(context("t1", "m1")));
}

fn concat(parts: Vec<Vec<RolloutItem>>) -> Vec<RolloutItem> {
    parts.into_iter().flatten().collect()
}

#[test]
fn reconstruct_history_rollback_keeps_history_and_metadata_in_sync_for_completed_turns() {
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        turn("t2", "u2", "a2", "m2"),
        vec![rollback(1)],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_back_at_first_turn(&rebuilt);
    assert_eq!(
        rebuilt.history.reference_context_item(),
        Some(context("t1", "m1"))
    );
    assert_eq!(rebuilt.stats.rollbacks_applied, 1);
}

#[test]
fn reconstruct_history_rollback_keeps_history_and_metadata_in_sync_for_incomplete_turn() {
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        vec![
            started("t2"),
            item(user("u2")),
            user_event("u2"),
            RolloutItem::TurnContext(Box::new(context("t2", "m2"))),
            rollback(1),
        ],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_back_at_first_turn(&rebuilt);
}

#[test]
fn reconstruct_history_rollback_skips_non_user_turns_for_history_and_metadata() {
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        turn("t2", "u2", "a2", "m2"),
        vec![
            started("t3"),
            RolloutItem::TurnContext(Box::new(context("t3", "m3"))),
            item(assistant("standalone")),
            complete("t3"),
            rollback(1),
        ],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    // The assistant-only turn is not a user turn: the rollback removes turn 2 (and with it
    // everything after turn 2's message).
    assert_back_at_first_turn(&rebuilt);
}

#[test]
fn reconstruct_history_rollback_counts_inter_agent_assistant_turns() {
    use codex_protocol::models::AgentMessageInputContent;
    let agent_message = ResponseItem::AgentMessage {
        id: None,
        author: "/root/worker".to_string(),
        recipient: "/root".to_string(),
        content: vec![AgentMessageInputContent::InputText {
            text: "review the patch".to_string(),
        }],
        internal_chat_message_metadata_passthrough: None,
    };
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        vec![
            started("t2"),
            item(agent_message),
            RolloutItem::TurnContext(Box::new(context("t2", "m2"))),
            item(assistant("reviewed")),
            complete("t2"),
            rollback(1),
        ],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    // The turn another agent started counts: rolling back one turn removes it, not turn 1.
    assert_back_at_first_turn(&rebuilt);
    // The turn index asks the same rule: the person's turn survives.
    let turns =
        crate::turns::user_turns_in_rollout(&items, crate::turns::TurnRecords::of_items(&items));
    assert_eq!(turns.len(), 1, "{turns:?}");
}

#[test]
fn reconstruct_history_rollback_clears_history_and_metadata_when_exceeding_user_turns() {
    let prefix =
        ResponseItem::developer_text("<permissions instructions>x</permissions instructions>");
    let items = concat(vec![
        vec![item(prefix.clone())],
        turn("t1", "u1", "a1", "m1"),
        turn("t2", "u2", "a2", "m2"),
        vec![rollback(99)],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(rebuilt.history.raw_items(), &[prefix]);
    assert_eq!(rebuilt.previous_turn_settings, None);
    assert_eq!(rebuilt.reference_context_item, None);
}

#[test]
fn record_initial_history_resumed_bare_turn_context_does_not_hydrate_previous_turn_settings() {
    let items = vec![RolloutItem::TurnContext(Box::new(context("t1", "m1")))];
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(rebuilt.previous_turn_settings, None);
    assert_eq!(rebuilt.reference_context_item, None);
    assert!(rebuilt.history.is_empty());
}

#[test]
fn record_initial_history_resumed_does_not_seed_reference_context_item_after_compaction() {
    let items = vec![
        RolloutItem::TurnContext(Box::new(context("t1", "m1"))),
        compacted(Some(vec![user("summary")]), ""),
    ];
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(rebuilt.previous_turn_settings, None);
    assert_eq!(rebuilt.reference_context_item, None);
    assert_eq!(rebuilt.history.raw_items(), &[user("summary")]);
}

#[test]
fn record_initial_history_resumed_turn_context_after_compaction_reestablishes_reference_context_item()
 {
    let items = vec![
        started("t1"),
        item(user("u1")),
        RolloutItem::TurnContext(Box::new(context("t1", "m1"))),
        compacted(Some(vec![user("u1"), user("summary")]), ""),
        RolloutItem::TurnContext(Box::new(context("t1", "m1b"))),
        item(assistant("a1")),
        complete("t1"),
    ];
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(rebuilt.reference_context_item, Some(context("t1", "m1b")));
    // The oldest settings of the turn are the turn's settings.
    assert_eq!(rebuilt.previous_turn_settings, settings("m1"));
    assert_eq!(
        rebuilt.history.raw_items(),
        &[user("u1"), user("summary"), assistant("a1")]
    );
    assert_eq!(rebuilt.stats.base_compaction, Some(3));
    assert_eq!(rebuilt.stats.replayed_from, 4);
}

#[test]
fn reconstruct_history_uses_replacement_history_verbatim() {
    let stale = ResponseItem::developer_text("stale developer message");
    let replacement = vec![stale, user("u1"), user("summary")];
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        vec![
            started("t2"),
            item(user("u2")),
            RolloutItem::TurnContext(Box::new(context("t2", "m2"))),
            compacted(Some(replacement.clone()), "summary"),
            item(assistant("a2")),
            complete("t2"),
        ],
        turn("t3", "u3", "a3", "m3"),
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    let mut expected = replacement;
    expected.extend([assistant("a2"), user("u3"), assistant("a3")]);
    assert_eq!(rebuilt.history.raw_items(), expected.as_slice());
    assert_eq!(rebuilt.previous_turn_settings, settings("m3"));
    // Everything was known at turn 2's start: turn 1 was never looked at.
    assert_eq!(rebuilt.stats.scanned_down_to, 6, "{:?}", rebuilt.stats);
}

#[test]
fn rolled_back_compaction_does_not_hide_earlier_turns() {
    // Turn 2 compacts mid-turn and is then rolled back. Upstream would replay only what came
    // after that compaction (nothing) and lose turn 1; turn 1 must survive whole.
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        vec![
            started("t2"),
            item(user("u2")),
            user_event("u2"),
            RolloutItem::TurnContext(Box::new(context("t2", "m2"))),
            compacted(
                Some(vec![user("u1"), user("u2"), user("summary")]),
                "summary",
            ),
            rollback(1),
        ],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_back_at_first_turn(&rebuilt);
    assert_eq!(rebuilt.stats.base_compaction, None);
    assert_eq!(rebuilt.stats.compactions_undone, 1);
}

#[test]
fn rollback_past_a_completed_compacted_turn_restores_the_history_before_it() {
    let items = concat(vec![
        turn("t1", "u1", "a1", "m1"),
        vec![
            started("t2"),
            item(user("u2")),
            user_event("u2"),
            RolloutItem::TurnContext(Box::new(context("t2", "m2"))),
            item(assistant("a2 before")),
            compacted(
                Some(vec![user("u1"), user("u2"), user("summary")]),
                "summary",
            ),
            item(assistant("a2 after")),
            complete("t2"),
        ],
        turn("t3", "u3", "a3", "m3"),
        vec![rollback(2)],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(rebuilt.history.raw_items(), &[user("u1"), assistant("a1")]);
    assert_eq!(rebuilt.previous_turn_settings, settings("m1"));
    // A later rollback of one turn keeps the compaction.
    let mut one = items;
    one.pop();
    one.push(rollback(1));
    let rebuilt = reconstruct_history_from_rollout(&one);
    assert_eq!(
        rebuilt.history.raw_items(),
        &[
            user("u1"),
            user("u2"),
            user("summary"),
            assistant("a2 after")
        ]
    );
    assert_eq!(rebuilt.stats.compactions_undone, 0);
}

#[test]
fn reconstruct_history_legacy_compaction_without_replacement_history_does_not_inject_current_initial_context()
 {
    let items = vec![
        started("t1"),
        item(user("before compact")),
        RolloutItem::TurnContext(Box::new(context("t1", "m1"))),
        item(assistant("reply")),
        compacted(None, "legacy summary"),
        RolloutItem::TurnContext(Box::new(context("t1", "m1"))),
        complete("t1"),
    ];
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(
        rebuilt.history.raw_items(),
        &[user("before compact"), user("legacy summary")]
    );
    assert_eq!(rebuilt.reference_context_item, None);
    assert!(rebuilt.stats.legacy_compaction);
    assert_eq!(rebuilt.window.window_number, 1);
}

#[test]
fn reconstruct_history_restores_initial_window_from_session_meta() {
    let window_id = uuid::Uuid::now_v7().to_string();
    let mut meta = new_session_meta(ThreadId::new(), "/repo", "test");
    meta.meta.context_window = Some(SessionContextWindow {
        window_id: window_id.clone(),
    });
    let items = concat(vec![
        vec![RolloutItem::SessionMeta(Box::new(meta))],
        turn("t1", "u1", "a1", "m1"),
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(
        rebuilt.window,
        ContextWindow {
            window_number: 0,
            first_window_id: Some(window_id.clone()),
            previous_window_id: None,
            window_id: Some(window_id),
        }
    );
}

#[test]
fn reconstruct_history_prefers_compacted_window_over_session_meta() {
    let first = uuid::Uuid::now_v7().to_string();
    let second = uuid::Uuid::now_v7().to_string();
    let mut meta = new_session_meta(ThreadId::new(), "/repo", "test");
    meta.meta.context_window = Some(SessionContextWindow {
        window_id: first.clone(),
    });
    let mut compaction = CompactedItem::from_message("s");
    compaction.replacement_history = Some(vec![user("s")]);
    compaction.window_number = Some(1);
    compaction.first_window_id = Some(first.clone());
    compaction.previous_window_id = Some(first.clone());
    compaction.window_id = Some(codex_protocol::rollout::CompactionWindowId::Id(
        second.clone(),
    ));
    let items = concat(vec![
        vec![RolloutItem::SessionMeta(Box::new(meta))],
        turn("t1", "u1", "a1", "m1"),
        vec![RolloutItem::Compacted(Box::new(compaction))],
    ]);
    let rebuilt = reconstruct_history_from_rollout(&items);
    assert_eq!(
        rebuilt.window,
        ContextWindow {
            window_number: 1,
            first_window_id: Some(first.clone()),
            previous_window_id: Some(first),
            window_id: Some(second),
        }
    );
}

#[test]
fn tool_outputs_are_retruncated_with_the_current_budget() {
    let long = "word ".repeat(2_000);
    let items = vec![
        item(user("u1")),
        item(ResponseItem::function_call("shell", "{}", "c1")),
        item(ResponseItem::function_call_output("c1", long.clone())),
    ];
    let options = ReconstructOptions {
        truncation_policy: TruncationPolicy::Bytes(100),
    };
    let rebuilt = reconstruct_history_with(&items, &options);
    let Some(ResponseItem::FunctionCallOutput { output, .. }) = rebuilt.history.raw_items().get(2)
    else {
        panic!("expected the output third");
    };
    let text = serde_json::to_string(output).unwrap_or_default();
    assert!(text.len() < long.len() / 10, "{}", text.len());
}
