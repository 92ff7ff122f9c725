//! Commands: begin and end become the command item's started/completed notifications (once
//! each, whatever repeats), interactions with a running session become terminal
//! interactions, and output chunks become UTF-8 deltas without splitting a character.

use codex_protocol::event::{
    ExecCommandBeginEvent, ExecCommandEndEvent, ExecCommandOutputDeltaEvent,
};
use codex_protocol::items::ExecCommandSource;

use super::{EventProjector, ServerMessage, notify, turn_id_or};
use crate::common::ServerNotification;
use crate::projection::item_builders;
use crate::v2::{
    CommandExecutionOutputDeltaNotification, ItemCompletedNotification, ItemStartedNotification,
    TerminalInteractionNotification,
};

impl EventProjector {
    pub(super) fn exec_begin(
        &mut self,
        event: &ExecCommandBeginEvent,
        out: &mut Vec<ServerMessage>,
    ) {
        self.resolve_item(&event.call_id, out);
        if event.source == ExecCommandSource::UnifiedExecInteraction {
            // Input written into a running session: the session's own item is already shown;
            // a second command item would render a duplicate waiting state.
            if let (Some(process_id), Some(stdin)) = (&event.process_id, &event.interaction_input) {
                out.push(notify(ServerNotification::TerminalInteraction(
                    TerminalInteractionNotification {
                        thread_id: self.thread_id.clone(),
                        turn_id: turn_id_or(&event.turn_id, self.turn_id()),
                        item_id: event.call_id.clone(),
                        process_id: process_id.clone(),
                        stdin: stdin.clone(),
                    },
                )));
            }
            return;
        }
        if !self.first_start(&event.call_id) {
            return;
        }
        out.push(notify(ServerNotification::ItemStarted(
            ItemStartedNotification {
                item: item_builders::command_execution_started(event).into(),
                thread_id: self.thread_id.clone(),
                turn_id: turn_id_or(&event.turn_id, self.turn_id()),
                started_at_ms: event.started_at_ms,
            },
        )));
    }

    pub(super) fn exec_output(
        &mut self,
        event: &ExecCommandOutputDeltaEvent,
        out: &mut Vec<ServerMessage>,
    ) {
        let tail = self.output_tails.entry(event.call_id.clone()).or_default();
        let delta = decode_utf8_chunk(tail, &event.chunk);
        if delta.is_empty() {
            return;
        }
        out.push(notify(ServerNotification::CommandExecutionOutputDelta(
            CommandExecutionOutputDeltaNotification {
                thread_id: self.thread_id.clone(),
                turn_id: self.turn_id().to_owned(),
                item_id: event.call_id.clone(),
                delta,
            },
        )));
    }

    pub(super) fn exec_end(&mut self, event: &ExecCommandEndEvent, out: &mut Vec<ServerMessage>) {
        self.output_tails.remove(&event.call_id);
        self.resolve_item(&event.call_id, out);
        if event.source == ExecCommandSource::UnifiedExecInteraction
            || !self.first_completion(&event.call_id)
        {
            return;
        }
        out.push(notify(ServerNotification::ItemCompleted(
            ItemCompletedNotification {
                item: item_builders::command_execution_completed(event).into(),
                thread_id: self.thread_id.clone(),
                turn_id: turn_id_or(&event.turn_id, self.turn_id()),
                completed_at_ms: event.completed_at_ms,
                content_token_count: None,
            },
        )));
    }
}

/// Appends `chunk` to the undecoded `tail` and returns the text that is complete: invalid
/// bytes become U+FFFD, an incomplete trailing sequence waits in `tail` for the next chunk.
fn decode_utf8_chunk(tail: &mut Vec<u8>, chunk: &[u8]) -> String {
    tail.extend_from_slice(chunk);
    let mut out = String::new();
    let mut start = 0;
    while start < tail.len() {
        match std::str::from_utf8(&tail[start..]) {
            Ok(text) => {
                out.push_str(text);
                start = tail.len();
            }
            Err(error) => {
                let valid_end = start + error.valid_up_to();
                out.push_str(&String::from_utf8_lossy(&tail[start..valid_end]));
                match error.error_len() {
                    Some(len) => {
                        out.push(char::REPLACEMENT_CHARACTER);
                        start = valid_end + len;
                    }
                    None => {
                        start = valid_end;
                        break;
                    }
                }
            }
        }
    }
    tail.drain(..start);
    out
}
