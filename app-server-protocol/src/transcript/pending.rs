//! Tool calls a session file shows as started and not yet finished: what a follower can
//! show of a running command.
//!
//! Codex 0.169 writes no `item_started` and no `exec_command_begin` to the file: while a
//! command runs, the file holds only the model's `function_call` response item (the call id,
//! the tool's name and arguments); the `item_completed` event and the `function_call_output`
//! follow when the command ends (`cli/tests/real_codex_view_running.rs` shows it). So a
//! call with no output yet in the running turn is a running item: its cell is built from
//! the call (a command cell for the shell tools, a tool cell for others) and goes in the live
//! tail until the completed item takes its place.

use codex_protocol::event::EventMsg;
use codex_protocol::models::{LocalShellAction, ResponseItem};
use codex_protocol::rollout::RolloutItem;
use serde_json::Value;

use super::cell::{Cell, CellBody};

/// Characters of a tool call's arguments a running tool cell shows.
const ARGUMENTS_SHOWN: usize = 500;

/// A call the file shows as made and not answered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PendingCall {
    pub(crate) call_id: String,
    /// The turn that was running when the call was written.
    pub(crate) turn_id: Option<String>,
    /// What the call runs.
    pub(crate) call: Call,
}

/// The two shapes a running call is shown in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Call {
    /// A shell command and where it runs.
    Command { command: String, cwd: String },
    /// Any other tool, by name, with its arguments.
    Tool { name: String, arguments: String },
}

/// The calls made and not answered, in file order (feed every rollout item).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct PendingCalls {
    calls: Vec<PendingCall>,
}

impl PendingCalls {
    pub(crate) fn handle(&mut self, item: &RolloutItem, turn_id: Option<&String>) {
        match item {
            RolloutItem::ResponseItem(response) => {
                if let Some((call_id, call)) = started(response) {
                    self.calls.push(PendingCall {
                        call_id,
                        turn_id: turn_id.cloned(),
                        call,
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

/// The live cell of a running call.
pub(crate) fn running_cell(turn_id: &str, pending: &PendingCall) -> Cell {
    let body = match &pending.call {
        Call::Command { command, cwd } => CellBody::Command {
            command: command.clone(),
            cwd: cwd.clone(),
            status: "running",
            exit_code: None,
            duration_ms: None,
            output: String::new(),
        },
        Call::Tool { name, arguments } => CellBody::Tool {
            kind: "tool",
            title: name.clone(),
            status: "running",
            detail: arguments.chars().take(ARGUMENTS_SHOWN).collect(),
        },
    };
    Cell {
        item_id: pending.call_id.clone(),
        turn_id: turn_id.to_owned(),
        body,
        live: true,
    }
}

/// The call a response item makes, if it is one.
fn started(item: &ResponseItem) -> Option<(String, Call)> {
    match item {
        ResponseItem::FunctionCall {
            name,
            arguments,
            call_id,
            ..
        } => Some((call_id.clone(), function_call(name, arguments))),
        ResponseItem::CustomToolCall {
            name,
            input,
            call_id,
            ..
        } => Some((
            call_id.clone(),
            Call::Tool {
                name: name.clone(),
                arguments: input.clone(),
            },
        )),
        ResponseItem::LocalShellCall {
            call_id: Some(call_id),
            action: LocalShellAction::Exec(exec),
            ..
        } => Some((
            call_id.clone(),
            Call::Command {
                command: exec.command.join(" "),
                cwd: exec.working_directory.clone().unwrap_or_default(),
            },
        )),
        _ => None,
    }
}

/// The call a response item answers, if it is an output.
fn answered(item: &ResponseItem) -> Option<&str> {
    match item {
        ResponseItem::FunctionCallOutput { call_id, .. } => call_id.as_deref(),
        ResponseItem::CustomToolCallOutput { call_id, .. } => Some(call_id),
        _ => None,
    }
}

/// A function call as a command when it is one of Codex's shell tools (`exec_command`
/// with `cmd`, `shell_command` with a `command` string, `shell` with a `command` array).
fn function_call(name: &str, arguments: &str) -> Call {
    let parsed: Option<Value> = serde_json::from_str(arguments).ok();
    let command = parsed.as_ref().and_then(|args| match name {
        "exec_command" => args["cmd"].as_str().map(str::to_owned),
        "shell_command" => args["command"].as_str().map(str::to_owned),
        "shell" => args["command"].as_array().map(|parts| {
            parts
                .iter()
                .filter_map(Value::as_str)
                .collect::<Vec<_>>()
                .join(" ")
        }),
        _ => None,
    });
    match command {
        Some(command) => Call::Command {
            command,
            cwd: parsed
                .as_ref()
                .and_then(|args| args["workdir"].as_str())
                .unwrap_or_default()
                .to_owned(),
        },
        None => Call::Tool {
            name: name.to_owned(),
            arguments: arguments.to_owned(),
        },
    }
}

#[cfg(test)]
#[path = "pending_tests.rs"]
mod tests;
