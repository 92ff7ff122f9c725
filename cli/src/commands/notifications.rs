//! `codex-thread notifications [FILE]`: the JSON-RPC messages a client would receive if the
//! session were replayed live, one per line.
//!
//! The replay runs the rollout through app-server-protocol's [`EventProjector`], the same
//! stateful projection a live app server runs, after the thread's `thread/started` (when the
//! file has a session meta). What it is fed, in file order:
//! - every persisted event (turn lifecycle, token counts, exec and patch events, errors...);
//! - for files that did not persist item events (`item_started` / `item_completed`, which
//!   most writers drop), the item events core emitted live for each recorded response item
//!   that has a client-visible form: core's `record_response_item_and_emit_turn_item` sends
//!   `item_started` then `item_completed` for exactly the items `parse_turn_item` projects, so
//!   the replay rebuilds them from the same items with the same function. Items carry their
//!   recorded ids (`line-<N>` for an item recorded without one), so output is reproducible.
//!
//! The projector's clock, and the item event times, follow the file: each line is replayed at
//! its own timestamp. Streaming deltas are never persisted, so a replay has no `.../delta`
//! notifications; approvals come out as server requests (with an `id`).

use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};

use codex_app_server_protocol::thread_history::thread_from_session_meta;
use codex_app_server_protocol::v2::ThreadStartedNotification;
use codex_app_server_protocol::{EventProjector, ServerMessage, ServerNotification};
use codex_core::event_mapping::parse_turn_item;
use codex_protocol::event::{EventMsg, ItemCompletedEvent, ItemStartedEvent};
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::load::RolloutContents;

use crate::error::{CommandResult, Status};
use crate::input::{Session, Source, load_session};
use crate::output::Output;

/// The messages of a live replay of `session`, in order.
pub fn replay(session: &Session) -> Vec<ServerMessage> {
    let contents = session.contents();
    let thread_id = session.thread_id().unwrap_or_else(nil_thread_id);
    let now_ms = Arc::new(AtomicI64::new(0));
    let clock = Arc::clone(&now_ms);
    let mut projector =
        EventProjector::with_clock(thread_id.to_string(), move || clock.load(Ordering::Relaxed));
    let mut messages = Vec::new();
    if let Some(meta) = session.session_meta() {
        messages.push(ServerMessage::Notification(
            ServerNotification::ThreadStarted(ThreadStartedNotification {
                thread: thread_from_session_meta(meta),
            }),
        ));
    }
    let synthesize_items = !contents.items().iter().any(|item| {
        matches!(
            item,
            RolloutItem::EventMsg(EventMsg::ItemStarted(_) | EventMsg::ItemCompleted(_))
        )
    });
    for (index, item) in contents.items().iter().enumerate() {
        let at_ms = line_time_ms(contents, index);
        if let Some(ms) = at_ms {
            now_ms.store(ms, Ordering::Relaxed);
        }
        match item {
            RolloutItem::EventMsg(event) => messages.extend(projector.project(event)),
            RolloutItem::ResponseItem(response) if synthesize_items => {
                let Some(turn_item) = parse_turn_item(response) else {
                    continue;
                };
                let stable_id = match response.id() {
                    Some(id) if !id.is_empty() => id.to_string(),
                    _ => {
                        let line = contents
                            .entry_of_item(index)
                            .map_or(0, |entry| entry.number);
                        format!("line-{line}")
                    }
                };
                let turn_item = with_stable_id(turn_item, stable_id);
                let turn_id = response
                    .turn_id()
                    .or(projector.current_turn_id())
                    .unwrap_or_default()
                    .to_string();
                let at = at_ms.unwrap_or_default();
                let started = EventMsg::ItemStarted(ItemStartedEvent {
                    thread_id,
                    turn_id: turn_id.clone(),
                    item: turn_item.clone(),
                    started_at_ms: at,
                });
                let completed = EventMsg::ItemCompleted(ItemCompletedEvent {
                    thread_id,
                    turn_id,
                    item: turn_item,
                    started_at_ms: Some(at),
                    completed_at_ms: at,
                });
                messages.extend(projector.project(&started));
                messages.extend(projector.project(&completed));
            }
            _ => {}
        }
    }
    messages
}

fn nil_thread_id() -> ThreadId {
    ThreadId::from_string("00000000-0000-0000-0000-000000000000").unwrap_or_default()
}

/// `item` with its id replaced by `stable_id` (the recorded item's id, else `line-<N>`) when
/// `parse_turn_item` left it empty or minted a random one (user messages and hook prompts
/// get fresh ids there).
fn with_stable_id(item: TurnItem, stable_id: String) -> TurnItem {
    let fallback = || stable_id.clone();
    match item {
        TurnItem::UserMessage(mut message) => {
            message.id = fallback();
            TurnItem::UserMessage(message)
        }
        TurnItem::HookPrompt(mut prompt) => {
            prompt.id = fallback();
            TurnItem::HookPrompt(prompt)
        }
        TurnItem::Reasoning(mut reasoning) if reasoning.id.is_empty() => {
            reasoning.id = fallback();
            TurnItem::Reasoning(reasoning)
        }
        TurnItem::WebSearch(mut search) if search.id.is_empty() => {
            search.id = fallback();
            TurnItem::WebSearch(search)
        }
        TurnItem::AgentMessage(mut message) if message.id.is_empty() => {
            message.id = fallback();
            TurnItem::AgentMessage(message)
        }
        other => other,
    }
}

/// The timestamp of the line holding item `index`, in Unix milliseconds.
fn line_time_ms(contents: &RolloutContents, index: usize) -> Option<i64> {
    #[derive(serde::Deserialize)]
    struct Stamp {
        timestamp: Option<String>,
    }
    let entry = contents.entry_of_item(index)?;
    let stamp: Stamp = serde_json::from_slice(contents.raw_line(entry)).ok()?;
    let at = chrono::DateTime::parse_from_rfc3339(&stamp.timestamp?).ok()?;
    Some(at.timestamp_millis())
}

/// Runs `notifications`: JSON Lines in both modes (it is a stream of protocol messages).
pub fn run(source: &Source, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    for message in replay(&session) {
        out.json_line(&message)?;
    }
    Ok(Status::Ok)
}
