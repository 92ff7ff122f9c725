use std::sync::Arc;

use codex_protocol::event::EventMsg;
use codex_protocol::items::HookPromptFragment;
use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::MessagePhase;
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::TruncationPolicy;
use crate::contextual::build_hook_prompt_message;
use crate::session::InMemoryEventSink;
use crate::session::InMemoryRolloutSink;
use crate::session::config::ModelSettings;
use crate::session::config::SessionConfiguration;

struct Harness {
    session: Session,
    rollout: InMemoryRolloutSink,
    events: InMemoryEventSink,
}

fn harness() -> Harness {
    let rollout = InMemoryRolloutSink::new();
    let events = InMemoryEventSink::new();
    let mut model = ModelSettings::new("gpt-test", "base");
    model.truncation_policy = TruncationPolicy::Bytes(64);
    let configuration = SessionConfiguration::new(ThreadId::new(), model);
    let session = Session::new(
        configuration,
        Some(Arc::new(rollout.clone())),
        Arc::new(events.clone()),
    );
    Harness {
        session,
        rollout,
        events,
    }
}

fn event_kinds(events: &[codex_protocol::event::Event]) -> Vec<&'static str> {
    events.iter().map(|event| event.msg.type_name()).collect()
}

#[tokio::test]
async fn record_conversation_items_stamps_missing_turn_id_and_preserves_existing_turn_id() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-new").await;
    let mut assistant = ResponseItem::assistant_text("earlier answer", None);
    assistant.set_turn_id_if_missing("turn-old");
    let items = vec![ResponseItem::user_text("hello"), assistant];

    h.session.record_conversation_items(&turn, &items).await;

    let history = h.session.clone_history().await;
    let recorded = history.raw_items();
    assert_eq!(recorded.len(), 2);
    assert_eq!(recorded[0].turn_id(), Some("turn-new"));
    assert!(recorded[0].create_time().is_some());
    assert_eq!(recorded[1].turn_id(), Some("turn-old"));
    assert_eq!(recorded[1].create_time(), None);
    let persisted: Vec<ResponseItem> = h
        .rollout
        .snapshot()
        .into_iter()
        .filter_map(|item| match item {
            RolloutItem::ResponseItem(item) => Some(item),
            _ => None,
        })
        .collect();
    assert_eq!(persisted, recorded.to_vec());
}

#[tokio::test]
async fn recording_emits_one_raw_response_item_per_prepared_item_in_order() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let items = vec![ResponseItem::user_text("a"), ResponseItem::user_text("b")];
    let recorded = h.session.record_conversation_items(&turn, &items).await;
    let events = h.events.snapshot();
    assert_eq!(
        event_kinds(&events),
        vec!["raw_response_item", "raw_response_item"]
    );
    for (event, item) in events.iter().zip(&recorded) {
        assert_eq!(event.id, "turn-1");
        assert!(matches!(&event.msg, EventMsg::RawResponseItem(raw) if &raw.item == item));
    }
}

#[tokio::test]
async fn rollout_gets_untruncated_items_while_history_truncates() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let long = "x".repeat(1_000);
    let items = vec![
        ResponseItem::function_call("shell", "{}", "call_1"),
        ResponseItem::function_call_output(
            "call_1",
            FunctionCallOutputPayload::from_text(long.clone()),
        ),
    ];
    h.session.record_conversation_items(&turn, &items).await;
    let history = h.session.clone_history().await;
    let stored = history.raw_items()[1].clone();
    let ResponseItem::FunctionCallOutput { output, .. } = stored else {
        panic!("output expected");
    };
    assert!(
        output
            .text_content()
            .is_some_and(|text| text.len() < long.len())
    );
    let persisted_len = h.rollout.snapshot().iter().find_map(|item| match item {
        RolloutItem::ResponseItem(ResponseItem::FunctionCallOutput { output, .. }) => {
            output.text_content().map(str::len)
        }
        _ => None,
    });
    assert_eq!(persisted_len, Some(long.len()));
}

#[tokio::test]
async fn record_response_item_and_emit_turn_item_emits_hook_prompt_lifecycle() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let fragment = HookPromptFragment::from_single_hook("Run the linter first.", "hook-run-1");
    let Some(item) = build_hook_prompt_message(&[fragment]) else {
        panic!("hook prompt message expected");
    };
    let turn_item = h
        .session
        .record_response_item_and_emit_turn_item(&turn, item)
        .await;
    assert!(matches!(turn_item, Some(TurnItem::HookPrompt(_))));
    let events = h.events.snapshot();
    assert_eq!(
        event_kinds(&events),
        vec!["raw_response_item", "item_started", "item_completed"]
    );
}

#[tokio::test]
async fn assistant_message_emits_item_events_and_legacy_agent_message_with_matching_id() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let item = ResponseItem::assistant_text("All tests pass.", Some(MessagePhase::FinalAnswer));
    let Some(turn_item) = h
        .session
        .record_response_item_and_emit_turn_item(&turn, item)
        .await
    else {
        panic!("agent message expected");
    };
    let history = h.session.clone_history().await;
    let recorded_id = history.raw_items()[0]
        .id()
        .map(|id| id.as_str().to_string());
    assert_eq!(Some(turn_item.id().to_string()), recorded_id);
    let events = h.events.snapshot();
    assert_eq!(
        event_kinds(&events),
        vec![
            "raw_response_item",
            "item_started",
            "item_completed",
            "agent_message"
        ]
    );
    let (EventMsg::ItemStarted(started), EventMsg::ItemCompleted(completed)) =
        (&events[1].msg, &events[2].msg)
    else {
        panic!("item events expected");
    };
    assert_eq!(started.thread_id, h.session.thread_id().to_string());
    assert_eq!(completed.turn_id, "turn-1");
    assert_eq!(completed.started_at_ms, Some(started.started_at_ms));
    assert!(completed.completed_at_ms >= started.started_at_ms);
}

#[tokio::test]
async fn items_without_turn_item_emit_only_raw_events() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let call = ResponseItem::function_call("shell", "{}", "call_1");
    assert_eq!(
        h.session
            .record_response_item_and_emit_turn_item(&turn, call)
            .await,
        None
    );
    assert_eq!(event_kinds(&h.events.snapshot()), vec!["raw_response_item"]);
}

#[tokio::test]
async fn system_messages_never_reach_the_api_history() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let reasoning = ResponseItem::Reasoning {
        id: None,
        summary: Vec::new(),
        content: None,
        encrypted_content: Some("blob".to_string()),
        internal_chat_message_metadata_passthrough: None,
    };
    let items = vec![
        ResponseItem::message("system", vec![ContentItem::input_text("old system prompt")]),
        reasoning,
        ResponseItem::user_text("question"),
        ResponseItem::assistant_text("answer", None),
        ResponseItem::Other,
    ];
    h.session.record_conversation_items(&turn, &items).await;
    let prompt = h.session.build_prompt(&turn, Vec::new(), None).await;
    let kinds: Vec<(&str, Option<&str>)> = prompt
        .input
        .iter()
        .map(|item| (item.item_type(), item.role()))
        .collect();
    assert_eq!(
        kinds,
        vec![
            ("reasoning", None),
            ("message", Some("user")),
            ("message", Some("assistant"))
        ]
    );
    assert_eq!(prompt.base_instructions.text, "base");
}

#[tokio::test]
async fn every_event_is_handed_to_the_rollout_sink_before_delivery() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    h.session
        .record_response_item_and_emit_turn_item(&turn, ResponseItem::assistant_text("hi", None))
        .await;
    let rollout_events: Vec<&'static str> = h
        .rollout
        .snapshot()
        .iter()
        .filter_map(|item| match item {
            RolloutItem::EventMsg(msg) => Some(msg.type_name()),
            _ => None,
        })
        .collect();
    assert_eq!(rollout_events, event_kinds(&h.events.snapshot()));
}

#[tokio::test]
async fn a_closed_rollout_sink_does_not_fail_recording() {
    let h = harness();
    h.rollout.close();
    let turn = h.session.new_turn_context("turn-1").await;
    let recorded = h
        .session
        .record_conversation_items(&turn, &[ResponseItem::user_text("x")])
        .await;
    assert_eq!(recorded.len(), 1);
    assert_eq!(h.session.clone_history().await.len(), 1);
    assert_eq!(h.events.snapshot().len(), 1);
}

#[tokio::test]
async fn clone_history_is_a_snapshot() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    h.session
        .record_conversation_items(&turn, &[ResponseItem::user_text("1")])
        .await;
    let snapshot = h.session.clone_history().await;
    h.session
        .record_conversation_items(&turn, &[ResponseItem::user_text("2")])
        .await;
    assert_eq!(snapshot.len(), 1);
    assert_eq!(h.session.clone_history().await.len(), 2);
}

#[tokio::test]
async fn user_input_is_recorded_with_user_message_turn_item_and_flushed() {
    let h = harness();
    let turn = h.session.new_turn_context("turn-1").await;
    let files = crate::session::user_input::InMemoryMediaFiles::new();
    let inputs = vec![
        UserInput::text("fix the bug"),
        UserInput::LocalImage {
            path: "/missing.png".into(),
            detail: None,
        },
    ];
    let recorded = h
        .session
        .record_user_input_and_emit_turn_item(&turn, &inputs, &files)
        .await;
    assert!(recorded.id().is_some_and(|id| id.starts_with("msg_")));
    assert_eq!(recorded.message_content().map(<[_]>::len), Some(2));
    assert_eq!(
        event_kinds(&h.events.snapshot()),
        vec![
            "raw_response_item",
            "item_started",
            "item_completed",
            "user_message"
        ]
    );
    assert_eq!(h.rollout.flush_count(), 1);
}
