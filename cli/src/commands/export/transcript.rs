//! The transcript model `export` renders: turns of entries, built from rollout items.
//!
//! What a reader of a conversation wants, from the file alone:
//! - a turn starts at each message the person typed (core's `parse_turn_item` decides: injected
//!   context and interruption notes are not the person's words and are left out);
//! - assistant messages, reasoning summaries and web searches as the model produced them;
//! - each tool call with its output next to it, paired by call id whatever came in between;
//! - how each turn ended (`task_complete`, `turn_aborted`), compactions where they happened;
//! - rolled-back turns removed (`thread_rolled_back {num_turns}` drops the last turns), with a
//!   note where they were.

use std::collections::HashMap;

use codex_core::event_mapping::parse_turn_item;
use codex_protocol::call_pairing::OutputChannel;
use codex_protocol::event::EventMsg;
use codex_protocol::items::{AgentMessageContent, TurnItem};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::user_input::UserInput;
use serde::Serialize;

use crate::commands::inspect::tool_name;

/// A whole transcript.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Transcript {
    pub thread_id: Option<String>,
    pub cli_version: Option<String>,
    pub cwd: Option<String>,
    pub started_at: Option<String>,
    pub turns: Vec<TranscriptTurn>,
    /// Turns removed by rollbacks.
    pub rolled_back_turns: usize,
}

/// One turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct TranscriptTurn {
    /// How the turn ended: `completed`, `interrupted`, `failed`, or `unfinished` when the file
    /// says nothing (older files, a session that stopped mid-turn).
    pub status: &'static str,
    pub entries: Vec<Entry>,
}

/// One entry of a turn.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Entry {
    User {
        text: String,
        images: usize,
    },
    Assistant {
        text: String,
        phase: Option<String>,
    },
    Reasoning {
        summary: Vec<String>,
    },
    ToolCall {
        name: String,
        call_id: Option<String>,
        input: String,
        output: Option<String>,
    },
    WebSearch {
        query: String,
    },
    Compaction,
    Note {
        text: String,
    },
}

#[derive(Default)]
struct Builder {
    transcript: Transcript,
    /// Where each call's entry is: (turn index, entry index), by pairing key.
    calls: HashMap<(OutputChannel, String), (usize, usize)>,
}

impl Builder {
    fn turn(&mut self) -> &mut TranscriptTurn {
        if self.transcript.turns.is_empty() {
            self.start_turn();
        }
        let last = self.transcript.turns.len() - 1;
        &mut self.transcript.turns[last]
    }

    fn start_turn(&mut self) {
        self.transcript.turns.push(TranscriptTurn {
            status: "unfinished",
            entries: Vec::new(),
        });
    }

    fn push(&mut self, entry: Entry) -> (usize, usize) {
        let turn = self.turn();
        turn.entries.push(entry);
        let entry = turn.entries.len() - 1;
        (self.transcript.turns.len() - 1, entry)
    }

    fn response_item(&mut self, item: &ResponseItem) {
        match parse_turn_item(item) {
            Some(TurnItem::UserMessage(message)) => {
                self.start_turn();
                let images = message
                    .content
                    .iter()
                    .filter(|part| part.is_image())
                    .count();
                let text = message
                    .content
                    .iter()
                    .filter_map(|part| match part {
                        UserInput::Text { text, .. } => Some(text.as_str()),
                        _ => None,
                    })
                    .collect::<Vec<_>>()
                    .join("\n");
                self.push(Entry::User { text, images });
            }
            Some(TurnItem::AgentMessage(message)) => {
                let text = message
                    .content
                    .iter()
                    .map(|AgentMessageContent::Text { text }| text.as_str())
                    .collect::<String>();
                let phase = message
                    .phase
                    .as_ref()
                    .map(|phase| phase.as_str().to_string());
                self.push(Entry::Assistant { text, phase });
            }
            Some(TurnItem::Reasoning(reasoning)) if !reasoning.summary_text.is_empty() => {
                self.push(Entry::Reasoning {
                    summary: reasoning.summary_text,
                });
            }
            Some(TurnItem::WebSearch(search)) => {
                self.push(Entry::WebSearch {
                    query: search.query,
                });
            }
            Some(TurnItem::HookPrompt(_)) => {
                self.push(Entry::Note {
                    text: "a hook added a prompt".to_string(),
                });
            }
            _ => self.tool_item(item),
        }
    }

    fn tool_item(&mut self, item: &ResponseItem) {
        let Some(link) = item.call_link() else {
            return;
        };
        let key = link
            .pair_key()
            .map(|key| (key.channel, key.call_id.to_string()));
        if link.is_call() {
            let entry = Entry::ToolCall {
                name: tool_name(item).unwrap_or_else(|| item.item_type().to_string()),
                call_id: link.call_id.map(str::to_string),
                input: call_input(item),
                output: None,
            };
            let at = self.push(entry);
            if let Some(key) = key {
                self.calls.insert(key, at);
            }
            return;
        }
        let text = output_text(item);
        let found = key.and_then(|key| self.calls.get(&key).copied());
        let slot = found.and_then(|(turn, entry)| {
            self.transcript
                .turns
                .get_mut(turn)
                .and_then(|turn| turn.entries.get_mut(entry))
        });
        match slot {
            Some(Entry::ToolCall { output, .. }) => *output = Some(text),
            _ => {
                self.push(Entry::ToolCall {
                    name: "(call not in file)".to_string(),
                    call_id: link.call_id.map(str::to_string),
                    input: String::new(),
                    output: Some(text),
                });
            }
        }
    }

    fn event(&mut self, event: &EventMsg) {
        match event {
            EventMsg::TurnComplete(complete) => {
                if let Some(turn) = self.transcript.turns.last_mut() {
                    turn.status = if complete.error.is_some() {
                        "failed"
                    } else {
                        "completed"
                    };
                }
            }
            EventMsg::TurnAborted(_) => {
                if let Some(turn) = self.transcript.turns.last_mut() {
                    turn.status = "interrupted";
                }
            }
            EventMsg::ThreadRolledBack(rollback) => {
                let requested = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                let removed = requested.min(self.user_turns());
                for _ in 0..removed {
                    self.drop_last_user_turn();
                }
                self.transcript.rolled_back_turns += removed;
                if let Some(turn) = self.transcript.turns.last_mut() {
                    turn.entries.push(Entry::Note {
                        text: format!("{removed} later turn(s) were rolled back here"),
                    });
                }
            }
            _ => {}
        }
    }

    fn user_turns(&self) -> usize {
        self.transcript
            .turns
            .iter()
            .filter(|turn| has_user_message(turn))
            .count()
    }

    /// Removes the last turn that starts with a person's message (and anything after it).
    fn drop_last_user_turn(&mut self) {
        if let Some(index) = self.transcript.turns.iter().rposition(has_user_message) {
            self.transcript.turns.truncate(index);
            self.calls.retain(|_, (turn, _)| *turn < index);
        }
    }
}

fn has_user_message(turn: &TranscriptTurn) -> bool {
    matches!(turn.entries.first(), Some(Entry::User { .. }))
}

/// What a call was asked to do: its arguments (pretty-printed when they are JSON), its
/// freeform input, or a local shell action.
fn call_input(item: &ResponseItem) -> String {
    match item {
        ResponseItem::FunctionCall { arguments, .. } => {
            match serde_json::from_str::<serde_json::Value>(arguments) {
                Ok(value) => readable_json(&value).unwrap_or_else(|| arguments.clone()),
                Err(_) => arguments.clone(),
            }
        }
        ResponseItem::CustomToolCall { input, .. } => input.clone(),
        ResponseItem::LocalShellCall { action, .. } => serde_json::to_value(action)
            .ok()
            .and_then(|value| readable_json(&value))
            .unwrap_or_default(),
        other => serde_json::to_value(other)
            .ok()
            .and_then(|value| value.get("arguments").or(value.get("query")).cloned())
            .map(|value| value.to_string())
            .unwrap_or_default(),
    }
}

/// Short JSON on one line, longer JSON pretty-printed.
fn readable_json(value: &serde_json::Value) -> Option<String> {
    let compact = serde_json::to_string(value).ok()?;
    if compact.chars().count() <= COMPACT_JSON_WIDTH {
        return Some(compact);
    }
    serde_json::to_string_pretty(value).ok()
}

/// Widest call input kept on one line (fits an 80-column code block).
const COMPACT_JSON_WIDTH: usize = 76;

/// The text of an output item (`[N content item(s)]` when it carries no text).
fn output_text(item: &ResponseItem) -> String {
    match item {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => output
            .body
            .to_text()
            .unwrap_or_else(|| "[non-text output]".to_string()),
        ResponseItem::ToolSearchOutput { tools, .. } => format!("{} tool(s) found", tools.len()),
        _ => String::new(),
    }
}

/// Builds the transcript of a rollout's items.
pub fn build(items: &[RolloutItem]) -> Transcript {
    let mut builder = Builder::default();
    for item in items {
        match item {
            RolloutItem::SessionMeta(meta) if builder.transcript.thread_id.is_none() => {
                builder.transcript.thread_id = Some(meta.meta.id.to_string());
                builder.transcript.cli_version = Some(meta.meta.cli_version.clone());
                builder.transcript.cwd = Some(meta.meta.cwd.display().to_string());
                builder.transcript.started_at = Some(meta.meta.timestamp.clone());
            }
            RolloutItem::ResponseItem(response) => builder.response_item(response),
            RolloutItem::EventMsg(event) => builder.event(event),
            RolloutItem::Compacted(_) => {
                builder.push(Entry::Compaction);
            }
            _ => {}
        }
    }
    builder.transcript
}
