//! The one-to-one part of the projection: item lifecycle events and content deltas map to
//! exactly one notification each, with no state.
//!
//! Everything that needs memory (turn status, de-duplication, approvals, UTF-8 split across
//! output chunks) lives in [`super::EventProjector`].

use codex_protocol::event::EventMsg;

use crate::common::ServerNotification;
use crate::v2::{
    AgentMessageDeltaNotification, CommandExecutionOutputDeltaNotification,
    ItemCompletedNotification, ItemStartedNotification, PlanDeltaNotification,
    ReasoningSummaryPartAddedNotification, ReasoningSummaryTextDeltaNotification,
    ReasoningTextDeltaNotification, ThreadItem, TimedThreadItem,
};

/// The notification for an item event (started, completed, a content delta, a reasoning
/// section break), or `None` for any other event.
///
/// `thread_id` and `turn_id` fill in events that do not carry them (command output chunks
/// name only their call).
pub fn item_event_to_server_notification(
    msg: &EventMsg,
    thread_id: &str,
    turn_id: &str,
) -> Option<ServerNotification> {
    let notification = match msg {
        EventMsg::ItemStarted(event) => ServerNotification::ItemStarted(ItemStartedNotification {
            item: TimedThreadItem::new(
                ThreadItem::from(event.item.clone()),
                Some(event.started_at_ms),
                None,
            ),
            thread_id: event.thread_id.to_string(),
            turn_id: event.turn_id.clone(),
            started_at_ms: event.started_at_ms,
        }),
        EventMsg::ItemCompleted(event) => {
            ServerNotification::ItemCompleted(ItemCompletedNotification {
                item: TimedThreadItem::new(
                    ThreadItem::from(event.item.clone()),
                    event.started_at_ms,
                    Some(event.completed_at_ms),
                ),
                thread_id: event.thread_id.to_string(),
                turn_id: event.turn_id.clone(),
                completed_at_ms: event.completed_at_ms,
                content_token_count: None,
            })
        }
        EventMsg::AgentMessageContentDelta(event) => {
            ServerNotification::AgentMessageDelta(AgentMessageDeltaNotification {
                thread_id: event.thread_id.clone(),
                turn_id: event.turn_id.clone(),
                item_id: event.item_id.clone(),
                delta: event.delta.clone(),
            })
        }
        EventMsg::PlanDelta(event) => ServerNotification::PlanDelta(PlanDeltaNotification {
            thread_id: event.thread_id.clone(),
            turn_id: event.turn_id.clone(),
            item_id: event.item_id.clone(),
            delta: event.delta.clone(),
        }),
        EventMsg::ReasoningContentDelta(event) => {
            ServerNotification::ReasoningSummaryTextDelta(ReasoningSummaryTextDeltaNotification {
                thread_id: event.thread_id.clone(),
                turn_id: event.turn_id.clone(),
                item_id: event.item_id.clone(),
                delta: event.delta.clone(),
                summary_index: event.summary_index,
            })
        }
        EventMsg::ReasoningRawContentDelta(event) => {
            ServerNotification::ReasoningTextDelta(ReasoningTextDeltaNotification {
                thread_id: event.thread_id.clone(),
                turn_id: event.turn_id.clone(),
                item_id: event.item_id.clone(),
                delta: event.delta.clone(),
                content_index: event.content_index,
            })
        }
        EventMsg::AgentReasoningSectionBreak(event) if !event.item_id.is_empty() => {
            ServerNotification::ReasoningSummaryPartAdded(ReasoningSummaryPartAddedNotification {
                thread_id: thread_id.to_owned(),
                turn_id: turn_id.to_owned(),
                item_id: event.item_id.clone(),
                summary_index: event.summary_index,
            })
        }
        EventMsg::ExecCommandOutputDelta(event) => ServerNotification::CommandExecutionOutputDelta(
            CommandExecutionOutputDeltaNotification {
                thread_id: thread_id.to_owned(),
                turn_id: turn_id.to_owned(),
                item_id: event.call_id.clone(),
                delta: String::from_utf8_lossy(&event.chunk).into_owned(),
            },
        ),
        _ => return None,
    };
    Some(notification)
}
