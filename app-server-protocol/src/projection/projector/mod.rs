//! [`EventProjector`]: the stateful part of turning a thread's core events into what its
//! clients receive.
//!
//! State it keeps, and why:
//! - the running turn's id, start time and last error, because `turn_complete` alone does not
//!   say whether the turn failed (seed 004 §3.1: completed or failed comes from the turn
//!   summary's last error);
//! - which items of the turn already had their started/completed notification, so a command
//!   whose begin event repeats (or that arrives both as an exec event and as an item event) is
//!   announced once, and when each started, which its completion repeats in the item (as
//!   Codex's server sends an item: its fields and its two times side by side);
//! - the turn's last agent message, which `turn/completed` carries as the turn's summary (as
//!   Codex 0.169's server sends it), and the turn's root turn;
//! - the open approval requests, so each gets exactly one `serverRequest/resolved`, whether the
//!   client answered, the command went ahead, or the turn ended;
//! - an incomplete UTF-8 tail per command, so a character split across two output chunks is
//!   not turned into replacement characters.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;

use codex_protocol::event::{EventMsg, TokenCountEvent};
use codex_protocol::items::{ExecCommandSource, TurnItem};

use super::event_mapping::item_event_to_server_notification;
use super::item_builders;
use super::turn_status::{TurnOutcome, turn_error_for_status};
use crate::common::{ServerNotification, ServerRequest};
use crate::jsonrpc::RequestId;
use crate::v2::{
    ErrorNotification, ItemCompletedNotification, ItemStartedNotification, ThreadItem,
    ThreadTokenUsage, ThreadTokenUsageUpdatedNotification, TimedThreadItem, TokenUsageBreakdown,
    Turn, TurnCompletedNotification, TurnDiffUpdatedNotification, TurnError, TurnItemsView,
    TurnStartedNotification, WarningNotification,
};

/// A message from the server to a client: a notification, or a request awaiting an answer.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub enum ServerMessage {
    /// Fire and forget.
    Notification(ServerNotification),
    /// Needs the client's answer.
    Request(ServerRequest),
}

/// Projects one thread's core events into client messages. Feed it every event of the thread
/// in order; it never reads files or clocks except through the clock it was given.
pub struct EventProjector {
    thread_id: String,
    turn: Option<TurnSummary>,
    next_request_id: i64,
    pending: BTreeMap<RequestId, PendingRequest>,
    output_tails: BTreeMap<String, Vec<u8>>,
    clock: Box<dyn Fn() -> i64 + Send>,
}

impl fmt::Debug for EventProjector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EventProjector")
            .field("thread_id", &self.thread_id)
            .field("turn", &self.turn)
            .field("pending", &self.pending)
            .finish_non_exhaustive()
    }
}

#[derive(Debug, Default)]
struct TurnSummary {
    id: String,
    root_turn_id: Option<String>,
    started_at: Option<i64>,
    last_error: Option<TurnError>,
    started_items: HashSet<String>,
    completed_items: HashSet<String>,
    /// When each item announced started, Unix milliseconds.
    starts: HashMap<String, i64>,
    /// The last agent message completed.
    last_agent_message: Option<TimedThreadItem>,
}

#[derive(Debug, Clone)]
struct PendingRequest {
    item_id: String,
}

impl EventProjector {
    /// A projector for `thread_id` whose approval requests are stamped with the system clock.
    pub fn new(thread_id: impl Into<String>) -> Self {
        Self::with_clock(thread_id, system_now_ms)
    }

    /// A projector with an injected millisecond clock (for deterministic tests and replays).
    pub fn with_clock(
        thread_id: impl Into<String>,
        clock: impl Fn() -> i64 + Send + 'static,
    ) -> Self {
        Self {
            thread_id: thread_id.into(),
            turn: None,
            next_request_id: 0,
            pending: BTreeMap::new(),
            output_tails: BTreeMap::new(),
            clock: Box::new(clock),
        }
    }

    /// The thread this projector serves.
    pub fn thread_id(&self) -> &str {
        &self.thread_id
    }

    /// The id of the running turn, if one is running.
    pub fn current_turn_id(&self) -> Option<&str> {
        self.turn.as_ref().map(|turn| turn.id.as_str())
    }

    /// The approval requests still waiting for an answer.
    pub fn pending_requests(&self) -> impl Iterator<Item = &RequestId> {
        self.pending.keys()
    }

    /// The open approval request about `item_id`, if any (the oldest when several).
    pub fn request_for_item(&self, item_id: &str) -> Option<&RequestId> {
        self.pending
            .iter()
            .find(|(_, pending)| pending.item_id == item_id)
            .map(|(id, _)| id)
    }

    /// The client answered (or the server cancelled) `request_id`: the notification that
    /// tells every client to close the prompt, or `None` when it was not open.
    pub fn resolve_request(&mut self, request_id: &RequestId) -> Option<ServerNotification> {
        self.pending
            .remove(request_id)
            .map(|_| self.resolved(request_id.clone()))
    }

    /// The messages a client receives for one core event (often none, sometimes several).
    pub fn project(&mut self, msg: &EventMsg) -> Vec<ServerMessage> {
        let mut out = Vec::new();
        match msg {
            EventMsg::TurnStarted(event) => {
                self.resolve_all(&mut out);
                let started_at = event.started_at.as_ref().and_then(|at| at.unix_seconds());
                self.turn = Some(TurnSummary {
                    id: event.turn_id.clone(),
                    root_turn_id: event.root_turn_id.clone(),
                    started_at,
                    ..TurnSummary::default()
                });
                out.push(notify(ServerNotification::TurnStarted(
                    TurnStartedNotification {
                        thread_id: self.thread_id.clone(),
                        turn: Turn {
                            root_turn_id: event.root_turn_id.clone(),
                            ..Turn::in_progress(event.turn_id.clone(), started_at)
                        },
                    },
                )));
            }
            EventMsg::TurnComplete(event) => {
                self.resolve_all(&mut out);
                let summary = self.turn.take().unwrap_or_default();
                let outcome = TurnOutcome::from_complete(event, summary.last_error.clone());
                let root = event.root_turn_id.clone();
                out.push(self.turn_completed(
                    turn_id_or(&event.turn_id, &summary.id),
                    summary,
                    root,
                    outcome,
                ));
            }
            EventMsg::TurnAborted(event) => {
                self.resolve_all(&mut out);
                let summary = self.turn.take().unwrap_or_default();
                let turn_id = event.turn_id.clone().unwrap_or_else(|| summary.id.clone());
                let root = event.root_turn_id.clone();
                out.push(self.turn_completed(
                    turn_id,
                    summary,
                    root,
                    TurnOutcome::from_aborted(event),
                ));
            }
            EventMsg::Error(event) => {
                let error = TurnError::from(event.clone());
                if let Some(turn) = self.turn.as_mut()
                    && let Some(error) = turn_error_for_status(event)
                {
                    turn.last_error = Some(error);
                }
                out.push(self.error_notification(error, false));
            }
            EventMsg::StreamError(event) => {
                out.push(self.error_notification(TurnError::from(event.clone()), true));
            }
            EventMsg::Warning(event) => {
                out.push(notify(ServerNotification::Warning(WarningNotification {
                    thread_id: Some(self.thread_id.clone()),
                    message: event.message.clone(),
                })));
            }
            EventMsg::ItemStarted(event) if !is_interaction_item(&event.item) => {
                if self.first_start(event.item.id())
                    && let Some(notification) =
                        item_event_to_server_notification(msg, &self.thread_id, self.turn_id())
                {
                    out.push(notify(notification));
                }
            }
            EventMsg::ItemCompleted(event) if !is_interaction_item(&event.item) => {
                if self.first_completion(event.item.id())
                    && let Some(notification) =
                        item_event_to_server_notification(msg, &self.thread_id, self.turn_id())
                {
                    out.push(notify(notification));
                }
            }
            EventMsg::ItemStarted(_) | EventMsg::ItemCompleted(_) => {}
            EventMsg::ExecCommandBegin(event) => self.exec_begin(event, &mut out),
            EventMsg::ExecCommandOutputDelta(event) => self.exec_output(event, &mut out),
            EventMsg::ExecCommandEnd(event) => self.exec_end(event, &mut out),
            EventMsg::PatchApplyBegin(event) => {
                self.resolve_item(&event.call_id, &mut out);
                let item = item_builders::file_change_started(event);
                self.push_started(item, &event.turn_id, &mut out);
            }
            EventMsg::PatchApplyEnd(event) => {
                self.resolve_item(&event.call_id, &mut out);
                // A client saw the patch start before it ended; a file that kept only the end
                // (legacy files) is replayed with that start.
                let item = item_builders::file_change_completed(event);
                self.push_started(
                    item_builders::file_change_begun(&item),
                    &event.turn_id,
                    &mut out,
                );
                self.push_completed(item, &event.turn_id, &mut out);
            }
            EventMsg::McpToolCallBegin(event) => {
                let item = item_builders::mcp_tool_call_started(event);
                self.push_started(item, &event.turn_id, &mut out);
            }
            EventMsg::McpToolCallEnd(event) => {
                let item = item_builders::mcp_tool_call_completed(event);
                self.push_completed(item, &event.turn_id, &mut out);
            }
            EventMsg::WebSearchEnd(event) => {
                // Announced started first, as Codex's server does, with the same fields.
                let item = item_builders::web_search_completed(event);
                self.push_started(item.clone(), "", &mut out);
                self.push_completed(item, "", &mut out);
            }
            EventMsg::ImageGenerationEnd(event) => {
                self.push_completed(
                    item_builders::image_generation_completed(event),
                    "",
                    &mut out,
                );
            }
            EventMsg::ViewImageToolCall(event) => {
                let item = item_builders::image_view(event);
                self.push_started(item.clone(), "", &mut out);
                self.push_completed(item, "", &mut out);
            }
            EventMsg::ExecApprovalRequest(event) => out.push(self.exec_approval(event)),
            EventMsg::ApplyPatchApprovalRequest(event) => out.push(self.patch_approval(event)),
            EventMsg::TokenCount(event) => {
                if let Some(notification) = self.token_usage(event) {
                    out.push(notify(notification));
                }
            }
            EventMsg::TurnDiff(event) => {
                out.push(notify(ServerNotification::TurnDiffUpdated(
                    TurnDiffUpdatedNotification {
                        thread_id: self.thread_id.clone(),
                        turn_id: self.turn_id().to_owned(),
                        diff: event.unified_diff.clone(),
                    },
                )));
            }
            other => {
                if let Some(notification) =
                    item_event_to_server_notification(other, &self.thread_id, self.turn_id())
                {
                    out.push(notify(notification));
                }
            }
        }
        self.time_items(&mut out);
        out
    }

    /// Puts each announced item's times beside its fields, as Codex's server sends an item:
    /// a started item its start, a completed one the start it announced (unless its own
    /// record says) and its completion; remembers the turn's last agent message.
    fn time_items(&mut self, out: &mut [ServerMessage]) {
        for message in out {
            match message {
                ServerMessage::Notification(ServerNotification::ItemStarted(started)) => {
                    started.item.started_at_ms = Some(started.started_at_ms);
                    started.item.completed_at_ms = None;
                    if let Some(turn) = self.turn.as_mut() {
                        turn.starts
                            .insert(started.item.id().to_owned(), started.started_at_ms);
                    }
                }
                ServerMessage::Notification(ServerNotification::ItemCompleted(completed)) => {
                    let item = &mut completed.item;
                    item.completed_at_ms = Some(completed.completed_at_ms);
                    if let Some(turn) = self.turn.as_mut() {
                        if item.started_at_ms.is_none() {
                            item.started_at_ms = turn.starts.get(item.id()).copied();
                        }
                        if matches!(item.item, ThreadItem::AgentMessage { .. }) {
                            turn.last_agent_message = Some(item.clone());
                        }
                    }
                }
                _ => {}
            }
        }
    }

    fn turn_id(&self) -> &str {
        self.current_turn_id().unwrap_or_default()
    }

    /// Records that `item_id` started in the running turn; false if it already had.
    fn first_start(&mut self, item_id: &str) -> bool {
        match self.turn.as_mut() {
            Some(turn) => turn.started_items.insert(item_id.to_owned()),
            None => true,
        }
    }

    /// Records that `item_id` completed in the running turn; false if it already had.
    fn first_completion(&mut self, item_id: &str) -> bool {
        match self.turn.as_mut() {
            Some(turn) => {
                turn.started_items.insert(item_id.to_owned());
                turn.completed_items.insert(item_id.to_owned())
            }
            None => true,
        }
    }

    fn push_started(&mut self, item: ThreadItem, turn_id: &str, out: &mut Vec<ServerMessage>) {
        if !self.first_start(item.id()) {
            return;
        }
        out.push(notify(ServerNotification::ItemStarted(
            ItemStartedNotification {
                item: item.into(),
                thread_id: self.thread_id.clone(),
                turn_id: turn_id_or(turn_id, self.turn_id()),
                started_at_ms: (self.clock)(),
            },
        )));
    }

    fn push_completed(&mut self, item: ThreadItem, turn_id: &str, out: &mut Vec<ServerMessage>) {
        if !self.first_completion(item.id()) {
            return;
        }
        out.push(notify(ServerNotification::ItemCompleted(
            ItemCompletedNotification {
                item: item.into(),
                thread_id: self.thread_id.clone(),
                turn_id: turn_id_or(turn_id, self.turn_id()),
                completed_at_ms: (self.clock)(),
                content_token_count: None,
            },
        )));
    }

    /// `turn/completed`: the turn with its summary (its last agent message, as Codex's server
    /// sends it), its root turn as its end record says, else as its start said.
    fn turn_completed(
        &self,
        turn_id: String,
        summary: TurnSummary,
        root_turn_id: Option<String>,
        outcome: TurnOutcome,
    ) -> ServerMessage {
        notify(ServerNotification::TurnCompleted(
            TurnCompletedNotification {
                thread_id: self.thread_id.clone(),
                turn: Turn {
                    id: turn_id,
                    root_turn_id: root_turn_id.or(summary.root_turn_id),
                    items: summary.last_agent_message.into_iter().collect(),
                    items_view: TurnItemsView::Summary,
                    status: outcome.status,
                    error: outcome.error,
                    started_at: outcome.started_at.or(summary.started_at),
                    completed_at: outcome.completed_at,
                    duration_ms: outcome.duration_ms,
                },
            },
        ))
    }

    fn error_notification(&self, error: TurnError, will_retry: bool) -> ServerMessage {
        notify(ServerNotification::Error(ErrorNotification {
            error,
            will_retry,
            thread_id: self.thread_id.clone(),
            turn_id: self.turn_id().to_owned(),
        }))
    }

    fn token_usage(&self, event: &TokenCountEvent) -> Option<ServerNotification> {
        let info = event.info.as_ref()?;
        Some(ServerNotification::ThreadTokenUsageUpdated(
            ThreadTokenUsageUpdatedNotification {
                thread_id: self.thread_id.clone(),
                turn_id: self.turn_id().to_owned(),
                token_usage: ThreadTokenUsage {
                    total: breakdown(&info.total_token_usage),
                    last: breakdown(&info.last_token_usage),
                    model_context_window: info.model_context_window,
                },
            },
        ))
    }
}

fn breakdown(usage: &codex_protocol::event::TokenUsage) -> TokenUsageBreakdown {
    TokenUsageBreakdown {
        total_tokens: usage.total_tokens,
        input_tokens: usage.input_tokens,
        cached_input_tokens: usage.cached_input_tokens,
        output_tokens: usage.output_tokens,
        reasoning_output_tokens: usage.reasoning_output_tokens,
    }
}

fn notify(notification: ServerNotification) -> ServerMessage {
    ServerMessage::Notification(notification)
}

fn turn_id_or(preferred: &str, fallback: &str) -> String {
    if preferred.is_empty() {
        fallback.to_owned()
    } else {
        preferred.to_owned()
    }
}

fn is_interaction_item(item: &TurnItem) -> bool {
    matches!(item, TurnItem::CommandExecution(command) if command.source == ExecCommandSource::UnifiedExecInteraction)
}

fn system_now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|elapsed| i64::try_from(elapsed.as_millis()).unwrap_or(i64::MAX))
        .unwrap_or_default()
}

mod approvals;
mod command_output;

#[cfg(test)]
#[path = "projector_tests.rs"]
mod tests;
