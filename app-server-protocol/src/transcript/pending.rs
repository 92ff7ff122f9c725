//! Tool calls a session file shows as started and not yet finished: what a follower can
//! show of a running command.
//!
//! Codex 0.169 writes no `item_started` and no `exec_command_begin` to the file: while a
//! command runs, the file holds only the model's `function_call` response item (the call id,
//! the tool's name and arguments); the `item_completed` event and the `function_call_output`
//! follow when the command ends (`cli/tests/it/real_codex_view_running.rs` shows it). So a
//! call with no output yet in the running turn is a running item: its cell is the cell of
//! the call's item as the complete transcript shows it (codex-protocol's
//! `recorded_call_item`: a command, a patch, an MCP or another tool call, in progress) and
//! goes in the live tail until the completed item takes its place. A transcript of the
//! complete mode already holds that item; this serves a transcript of Codex's items.

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::tool_call::recorded_call_item;

use super::cell::{Cell, cell_for_item};
use crate::v2::ThreadItem;

/// A call the file shows as made and not answered.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PendingCall {
    pub(crate) call_id: String,
    /// The turn that was running when the call was written.
    pub(crate) turn_id: Option<String>,
    /// The call's item, in progress (codex-protocol's `recorded_call_item`: the item the
    /// complete transcript shows for it).
    pub(crate) item: ThreadItem,
}

/// The calls made and not answered, in file order (feed every rollout item).
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct PendingCalls {
    calls: Vec<PendingCall>,
}

impl PendingCalls {
    pub(crate) fn handle(&mut self, item: &RolloutItem, turn_id: Option<&String>) {
        match item {
            RolloutItem::ResponseItem(response) => {
                if let Some(started) = recorded_call_item(response, "") {
                    let item = ThreadItem::from(started);
                    self.calls.push(PendingCall {
                        call_id: item.id().to_owned(),
                        turn_id: turn_id.cloned(),
                        item,
                    });
                } else if let Some(call_id) = answered(response) {
                    self.finish(call_id);
                }
            }
            RolloutItem::EventMsg(EventMsg::ItemCompleted(completed)) => {
                self.finish(completed.item.id());
            }
            RolloutItem::EventMsg(EventMsg::ExecCommandEnd(end)) => self.finish(&end.call_id),
            RolloutItem::EventMsg(EventMsg::TurnComplete(_) | EventMsg::TurnAborted(_)) => {
                self.calls.clear();
            }
            _ => {}
        }
    }

    fn finish(&mut self, call_id: &str) {
        self.calls.retain(|call| call.call_id != call_id);
    }

    /// The calls of turn `turn_id` still running.
    pub(crate) fn of_turn<'a>(&'a self, turn_id: &'a str) -> impl Iterator<Item = &'a PendingCall> {
        self.calls
            .iter()
            .filter(move |call| call.turn_id.as_deref() == Some(turn_id))
    }
}

/// The live cell of a running call: its item's cell.
pub(crate) fn running_cell(turn_id: &str, pending: &PendingCall) -> Cell {
    let mut cell = cell_for_item(turn_id, &pending.item);
    cell.live = true;
    cell
}

/// The call a response item answers, if it is an output.
fn answered(item: &ResponseItem) -> Option<&str> {
    match item {
        ResponseItem::FunctionCallOutput { call_id, .. } => call_id.as_deref(),
        ResponseItem::CustomToolCallOutput { call_id, .. } => Some(call_id),
        _ => None,
    }
}

#[cfg(test)]
#[path = "pending_tests.rs"]
mod tests;
