//! The complete mode's calls: an item for every call a file records that Codex's own records
//! show no item of (seed 003's client view leaves them to the model's memory; a person
//! reading the session still needs them).
//!
//! Each recorded call (a function, custom tool or local shell call) becomes codex-protocol's
//! item for it ([`recorded_call_item`]: a command, a patch, an MCP call or a dynamic tool
//! call), its id the call id, placed in the turn the call was made in; its output and its
//! `exec_command_end` event complete it; a legacy end event with no call stands for the
//! command. When Codex's own records give an item of the same id, Codex's item is the one
//! shown, where Codex shows it, and the recorded one leaves: so the Codex mode's items are
//! always the complete mode's, in the same order, with the same ids, and a recorded item's id
//! (a call id) never names a second item.

use std::collections::HashMap;

use codex_protocol::event::ExecCommandEndEvent;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::tool_call::{
    completed_by_exec_end, completed_by_output, exec_end_item, recorded_call_item,
};

use super::ThreadHistoryBuilder;
use super::pending_turn::PendingTurn;
use crate::v2::ThreadItem;

/// What a builder in complete mode keeps of the calls it showed.
#[derive(Debug, Clone, Default)]
pub(crate) struct RecordedCalls {
    /// The working directory a command without its own runs in: the last turn context's,
    /// else the session meta's.
    pub(crate) cwd: String,
    /// The recorded items of the open turn's calls, by call id, as last completed: an output
    /// or end event that comes later completes them further. One kept after its output item
    /// holds no command output (a later end event brings its own), so a thread's outputs are
    /// held once, in its turns.
    shown: HashMap<String, TurnItem>,
}

/// What to do with a turn's items for one record.
pub(crate) enum Change {
    /// Add this item (unless the turn already shows one of its id).
    Add(ThreadItem),
    /// Replace the recorded item of this id.
    Replace(ThreadItem),
}

impl RecordedCalls {
    /// The item of a call item, or the completion of a recorded call by its output.
    pub(crate) fn response(&mut self, item: &ResponseItem) -> Option<Change> {
        if let Some(started) = recorded_call_item(item, &self.cwd) {
            let shown = ThreadItem::from(started.clone());
            self.shown.insert(shown.id().to_owned(), started);
            return Some(Change::Add(shown));
        }
        let call_id = match item {
            ResponseItem::FunctionCallOutput { call_id, .. } => call_id.as_deref()?,
            ResponseItem::CustomToolCallOutput { call_id, .. } => call_id.as_str(),
            _ => return None,
        };
        let started = self.shown.remove(call_id)?;
        let mut completed = completed_by_output(started, item);
        self.shown
            .insert(call_id.to_owned(), without_output(&mut completed));
        Some(Change::Replace(ThreadItem::from(completed)))
    }

    /// The completion of a recorded command by its end event, or the command the event
    /// stands for when no call of its id was shown.
    pub(crate) fn exec_end(&mut self, end: &ExecCommandEndEvent) -> Change {
        match self.shown.remove(&end.call_id) {
            Some(started) => {
                let completed = completed_by_exec_end(started, end);
                // Kept whole until the output comes: the event's output wins over the one
                // the output item reports.
                self.shown.insert(end.call_id.clone(), completed.clone());
                Change::Replace(ThreadItem::from(completed))
            }
            None => Change::Add(ThreadItem::from(exec_end_item(end))),
        }
    }

    /// Codex's records gave an item of `id`: its recorded item leaves.
    pub(crate) fn forget(&mut self, id: &str) {
        self.shown.remove(id);
    }

    /// A turn opens: the calls of the turns before are complete as far as they will be (a
    /// core writes a call's output and end event before its turn ends), so memory stays that
    /// of one turn's calls.
    pub(crate) fn turn_opened(&mut self) {
        self.shown.clear();
    }
}

/// A copy of `item` without a command's output: what a later record completes, not what it
/// shows (a command's output is most of what a call holds; other items are copied whole).
/// The output is taken out for the copy and put back, so it is never copied.
fn without_output(item: &mut TurnItem) -> TurnItem {
    let TurnItem::CommandExecution(command) = item else {
        return item.clone();
    };
    let output = command.aggregated_output.take();
    let kept = TurnItem::CommandExecution(command.clone());
    command.aggregated_output = output;
    kept
}

impl ThreadHistoryBuilder {
    /// A response item: model memory Codex shows nothing of; in complete mode, a call's item
    /// or its completion by its output.
    pub(super) fn handle_response(&mut self, response: &ResponseItem) {
        if self.plans() && is_call_or_output(response) {
            self.recorded_target(response.turn_id());
            return;
        }
        let Some(change) = self
            .recorded
            .as_mut()
            .and_then(|recorded| recorded.response(response))
        else {
            return;
        };
        self.apply_recorded(response.turn_id(), change);
    }

    /// Applies a complete-mode change to the turn named (else the open or last closed turn);
    /// a change with no turn to go to is dropped (a recorded call never opens a turn).
    fn apply_recorded(&mut self, turn_id: Option<&str>, change: Change) {
        let Some(turn) = self.recorded_target(turn_id) else {
            tracing::debug!("a recorded call before any turn is not shown");
            return;
        };
        match change {
            Change::Add(item) => turn.add_recorded(item),
            Change::Replace(item) => turn.replace_recorded(item),
        }
    }

    /// The turn a complete-mode change goes to: the turn named, else the open or last closed
    /// turn; `None` before any turn. Marked as changed by the item being handled.
    fn recorded_target(&mut self, turn_id: Option<&str>) -> Option<&mut PendingTurn> {
        if self.touch_settled(turn_id) {
            return None;
        }
        let named = turn_id.filter(|id| !id.is_empty());
        let open_matches = match (&self.current, named) {
            (Some(turn), Some(id)) => turn.turn.id == id,
            (Some(_), None) => true,
            (None, _) => false,
        };
        let turn = if open_matches {
            self.current.as_mut()
        } else {
            let closed =
                named.and_then(|id| self.closed.iter().rposition(|turn| turn.turn.id == id));
            match closed {
                Some(index) => self.closed.get_mut(index),
                None => self.current.as_mut().or(self.closed.last_mut()),
            }
        };
        let turn = turn?;
        turn.last_touch = self.item_index;
        Some(turn)
    }

    /// A legacy `exec_command_end`: in complete mode, the completion of a recorded command,
    /// or the command the event stands for when Codex shows none of its id.
    pub(super) fn handle_exec_end(&mut self, end: &ExecCommandEndEvent) {
        if self.plans() {
            self.recorded_target(Some(&end.turn_id));
            return;
        }
        let Some(recorded) = self.recorded.as_mut() else {
            return;
        };
        // A command Codex shows an item of stays Codex's: its turn adds no second one.
        let change = recorded.exec_end(end);
        self.apply_recorded(Some(&end.turn_id), change);
    }
}

/// Whether `item` is a call or a call's output: what the complete mode may show or complete.
fn is_call_or_output(item: &ResponseItem) -> bool {
    matches!(
        item,
        ResponseItem::FunctionCall { .. }
            | ResponseItem::CustomToolCall { .. }
            | ResponseItem::LocalShellCall { .. }
            | ResponseItem::FunctionCallOutput { .. }
            | ResponseItem::CustomToolCallOutput { .. }
    )
}
