//! [`ThreadState`]: what a client holds after reducing the messages it received.
//!
//! This is the reference reducer, the Rust twin of the TypeScript client's: streaming deltas
//! append to the active item, `item/completed` replaces the item with the final one, turn
//! notifications set status and timing, approvals stay open until `serverRequest/resolved`.
//! Reducing a live stream must give the turns the history builder rebuilds from the rollout
//! (tested in `cli/tests/it/live_equals_replay/`).

use std::collections::BTreeMap;

use crate::common::{ServerNotification, ServerRequest};
use crate::jsonrpc::RequestId;
use crate::projection::ServerMessage;
use crate::v2::{
    ErrorNotification, ThreadItem, ThreadTokenUsage, TimedThreadItem, Turn, TurnItemsView,
    TurnStatus,
};

/// A client's view of one thread.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadState {
    /// The turns, oldest first, with every item the client has seen.
    pub turns: Vec<Turn>,
    /// The last token usage reported.
    pub token_usage: Option<ThreadTokenUsage>,
    /// Approval requests not yet resolved, by request id.
    pub pending_requests: BTreeMap<RequestId, ServerRequest>,
    /// Error notifications received, in order.
    pub errors: Vec<ErrorNotification>,
}

impl ThreadState {
    /// An empty thread.
    pub fn new() -> Self {
        Self::default()
    }

    /// A thread resumed from history (the turns a `thread/resume` response carries).
    pub fn from_turns(turns: Vec<Turn>) -> Self {
        Self {
            turns,
            ..Self::default()
        }
    }

    /// Reduces one server message.
    pub fn apply(&mut self, message: &ServerMessage) {
        match message {
            ServerMessage::Notification(notification) => self.apply_notification(notification),
            ServerMessage::Request(request) => self.apply_request(request),
        }
    }

    /// Reduces one server request: it stays pending until resolved.
    pub fn apply_request(&mut self, request: &ServerRequest) {
        self.pending_requests
            .insert(request.id().clone(), request.clone());
    }

    /// The client's own `thread/rollback` succeeded: drop the last `num_turns` turns.
    pub fn rollback(&mut self, num_turns: u32) {
        let drop = usize::try_from(num_turns).unwrap_or(usize::MAX);
        let keep = self.turns.len().saturating_sub(drop);
        self.turns.truncate(keep);
    }

    /// Reduces one notification.
    pub fn apply_notification(&mut self, notification: &ServerNotification) {
        match notification {
            ServerNotification::TurnStarted(started) => {
                let turn = self.turn_mut(&started.turn.id);
                turn.status = started.turn.status;
                turn.started_at = started.turn.started_at.or(turn.started_at);
            }
            ServerNotification::TurnCompleted(completed) => {
                let turn = self.turn_mut(&completed.turn.id);
                turn.status = completed.turn.status;
                turn.error = completed.turn.error.clone();
                turn.started_at = completed.turn.started_at.or(turn.started_at);
                turn.completed_at = completed.turn.completed_at;
                turn.duration_ms = completed.turn.duration_ms;
                if completed.turn.items_view == TurnItemsView::Full {
                    turn.items = completed.turn.items.clone();
                }
            }
            ServerNotification::ItemStarted(started) => {
                let item = upsert(self.turn_mut(&started.turn_id), started.item.item.clone());
                item.started_at_ms = Some(started.started_at_ms);
            }
            ServerNotification::ItemCompleted(completed) => {
                let item = upsert(
                    self.turn_mut(&completed.turn_id),
                    completed.item.item.clone(),
                );
                item.started_at_ms = item.started_at_ms.or(completed.item.started_at_ms);
                item.completed_at_ms = Some(completed.completed_at_ms);
            }
            ServerNotification::AgentMessageDelta(delta) => {
                let item = self.item_or(&delta.turn_id, &delta.item_id, || {
                    ThreadItem::AgentMessage {
                        moderation: None,
                        id: delta.item_id.clone(),
                        text: String::new(),
                        phase: None,
                        memory_citation: None,
                        delivery: None,
                        questions: None,
                    }
                });
                if let ThreadItem::AgentMessage { text, .. } = item {
                    text.push_str(&delta.delta);
                }
            }
            ServerNotification::PlanDelta(delta) => {
                let item = self.item_or(&delta.turn_id, &delta.item_id, || ThreadItem::Plan {
                    id: delta.item_id.clone(),
                    text: String::new(),
                });
                if let ThreadItem::Plan { text, .. } = item {
                    text.push_str(&delta.delta);
                }
            }
            ServerNotification::ReasoningSummaryTextDelta(delta) => {
                if let ThreadItem::Reasoning { summary, .. } =
                    self.reasoning(&delta.turn_id, &delta.item_id)
                {
                    append_at(summary, delta.summary_index, &delta.delta);
                }
            }
            ServerNotification::ReasoningSummaryPartAdded(part) => {
                if let ThreadItem::Reasoning { summary, .. } =
                    self.reasoning(&part.turn_id, &part.item_id)
                {
                    append_at(summary, part.summary_index, "");
                }
            }
            ServerNotification::ReasoningTextDelta(delta) => {
                if let ThreadItem::Reasoning { content, .. } =
                    self.reasoning(&delta.turn_id, &delta.item_id)
                {
                    append_at(content, delta.content_index, &delta.delta);
                }
            }
            ServerNotification::CommandExecutionOutputDelta(delta) => {
                let turn = self.turn_mut(&delta.turn_id);
                if let Some(ThreadItem::CommandExecution {
                    aggregated_output, ..
                }) = turn.item_mut(&delta.item_id)
                {
                    aggregated_output
                        .get_or_insert_with(String::new)
                        .push_str(&delta.delta);
                }
            }
            ServerNotification::ServerRequestResolved(resolved) => {
                self.pending_requests.remove(&resolved.request_id);
            }
            ServerNotification::ThreadTokenUsageUpdated(usage) => {
                self.token_usage = Some(usage.token_usage.clone());
            }
            ServerNotification::Error(error) => self.errors.push(error.clone()),
            ServerNotification::ThreadStarted(started) => {
                if self.turns.is_empty() {
                    self.turns = started.thread.turns.clone();
                }
            }
            ServerNotification::ThreadStatusChanged(_)
            | ServerNotification::ThreadNameUpdated(_)
            | ServerNotification::TurnDiffUpdated(_)
            | ServerNotification::TerminalInteraction(_)
            | ServerNotification::Warning(_)
            | ServerNotification::DeprecationNotice(_) => {}
        }
    }

    /// The turn with `turn_id`, created (running, no items) when the client has not seen it.
    fn turn_mut(&mut self, turn_id: &str) -> &mut Turn {
        let index = match self.turns.iter().position(|turn| turn.id == turn_id) {
            Some(index) => index,
            None => {
                let mut turn = Turn::in_progress(turn_id, None);
                turn.items_view = TurnItemsView::Full;
                turn.status = TurnStatus::InProgress;
                self.turns.push(turn);
                self.turns.len() - 1
            }
        };
        &mut self.turns[index]
    }

    fn item_or(
        &mut self,
        turn_id: &str,
        item_id: &str,
        create: impl FnOnce() -> ThreadItem,
    ) -> &mut ThreadItem {
        let turn = self.turn_mut(turn_id);
        let index = match turn.items.iter().position(|item| item.id() == item_id) {
            Some(index) => index,
            None => {
                turn.items.push(create().into());
                turn.items.len() - 1
            }
        };
        &mut turn.items[index]
    }

    fn reasoning(&mut self, turn_id: &str, item_id: &str) -> &mut ThreadItem {
        self.item_or(turn_id, item_id, || ThreadItem::Reasoning {
            id: item_id.to_owned(),
            summary: Vec::new(),
            content: Vec::new(),
        })
    }
}

/// Replaces the item with the same id in place (keeping the times recorded so far), or
/// appends it; the entry either way.
fn upsert(turn: &mut Turn, item: ThreadItem) -> &mut TimedThreadItem {
    match turn.items.iter().position(|timed| timed.id() == item.id()) {
        Some(index) => {
            let existing = &mut turn.items[index];
            existing.item = item;
            existing
        }
        None => {
            turn.items.push(item.into());
            let last = turn.items.len() - 1;
            &mut turn.items[last]
        }
    }
}

/// Paragraph indexes beyond this are ignored rather than allocated: a bogus index must not
/// make a client allocate unbounded memory.
const MAX_PARAGRAPH_INDEX: usize = 4096;

/// Appends `text` to paragraph `index`, creating empty paragraphs up to it.
fn append_at(paragraphs: &mut Vec<String>, index: i64, text: &str) {
    let Ok(index) = usize::try_from(index) else {
        return;
    };
    if index > MAX_PARAGRAPH_INDEX {
        return;
    }
    if paragraphs.len() <= index {
        paragraphs.resize(index + 1, String::new());
    }
    paragraphs[index].push_str(text);
}
