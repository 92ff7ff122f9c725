//! Emitting events: every event is first handed to the rollout sink (whose persistence policy
//! decides whether it is durable), then delivered to the event sink. Sink failures are logged
//! and never fail the turn: the in-memory history stays the source of truth for the running
//! session.

use std::time::SystemTime;
use std::time::UNIX_EPOCH;

use codex_protocol::event::Event;
use codex_protocol::event::EventMsg;
use codex_protocol::event::ItemCompletedEvent;
use codex_protocol::event::ItemStartedEvent;
use codex_protocol::event::RawResponseItemEvent;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

use super::config::TurnContext;
use super::legacy_events::legacy_events_for_completed_item;
use super::legacy_tool_events::legacy_begin_event;
use super::legacy_tool_events::legacy_end_event;
use super::state::Session;

/// Milliseconds since the Unix epoch, the unit of item event timestamps.
pub(crate) fn now_unix_ms() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

impl Session {
    /// Hands `items` to the rollout sink. Returning means *accepted*, not on disk; a failure is
    /// logged (`failed to record rollout items`) and otherwise swallowed, like upstream.
    pub async fn persist_rollout_items(&self, items: &[RolloutItem]) {
        let Some(rollout) = &self.rollout else {
            return;
        };
        if let Err(err) = rollout.record(items).await {
            tracing::error!(error = %err, "failed to record rollout items");
        }
    }

    /// Emits one event for turn `turn`: rollout sink first, then the event sink.
    pub async fn send_event(&self, turn: &TurnContext, msg: EventMsg) {
        self.send_event_with_id(&turn.sub_id, msg).await;
    }

    /// [`Session::send_event`] with an explicit event id (for events outside any turn).
    pub async fn send_event_with_id(&self, id: &str, msg: EventMsg) {
        self.persist_rollout_items(&[RolloutItem::EventMsg(msg.clone())])
            .await;
        let event = Event {
            id: id.to_string(),
            msg,
        };
        if let Err(err) = self.events.send(event).await {
            tracing::warn!(error = %err, "failed to deliver event");
        }
    }

    /// One `raw_response_item` event per recorded item, in order.
    pub(crate) async fn send_raw_response_items(&self, turn: &TurnContext, items: &[ResponseItem]) {
        for item in items {
            let msg = EventMsg::RawResponseItem(RawResponseItemEvent { item: item.clone() });
            self.send_event(turn, msg).await;
        }
    }

    /// Emits `item_started` for `item`, then its legacy begin event when it is a tool item
    /// (`exec_command_begin`, `patch_apply_begin`, `mcp_tool_call_begin`); returns its start
    /// time for the completion.
    pub async fn emit_turn_item_started(&self, turn: &TurnContext, item: &TurnItem) -> i64 {
        let started_at_ms = now_unix_ms();
        let begin = legacy_begin_event(item, &turn.sub_id, started_at_ms);
        let msg = EventMsg::ItemStarted(ItemStartedEvent {
            thread_id: self.thread_id().to_string(),
            turn_id: turn.sub_id.clone(),
            item: item.clone(),
            started_at_ms,
        });
        self.send_event(turn, msg).await;
        if let Some(begin) = begin {
            self.send_event(turn, begin).await;
        }
        started_at_ms
    }

    /// Emits `item_completed` for `item`, then its legacy events (for a tool item, its end
    /// event). Without a recorded start the start time is the completion time.
    pub async fn emit_turn_item_completed(
        &self,
        turn: &TurnContext,
        item: TurnItem,
        started_at_ms: Option<i64>,
    ) {
        let completed_at_ms = now_unix_ms();
        let mut legacy = legacy_events_for_completed_item(&item, turn.show_raw_reasoning);
        legacy.extend(legacy_end_event(&item, &turn.sub_id, completed_at_ms));
        let msg = EventMsg::ItemCompleted(ItemCompletedEvent {
            thread_id: self.thread_id().to_string(),
            turn_id: turn.sub_id.clone(),
            item,
            started_at_ms: Some(started_at_ms.unwrap_or(completed_at_ms)),
            completed_at_ms,
        });
        self.send_event(turn, msg).await;
        for legacy_msg in legacy {
            self.send_event(turn, legacy_msg).await;
        }
    }
}
