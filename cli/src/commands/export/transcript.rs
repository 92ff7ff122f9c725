//! The transcript model `export` renders: turns of entries, built from rollout items.
//!
//! What a reader of a conversation wants, from the file alone:
//! - one turn per user turn of codex-rollout's turn index (the same turns `inspect`, `fork`
//!   and every other command see), opening with the person's message: its response item when
//!   the file has it (core's `parse_turn_item` renders it), else the turn's record event;
//!   what comes before the first turn is the preamble; other user-role items are injected
//!   context and are left out;
//! - assistant messages, reasoning summaries and web searches as the model produced them;
//! - each tool call with its output next to it, paired by codex-protocol's `match_calls`
//!   whatever came in between (an output before its call, or a second one, stands alone);
//! - how each turn ended (`task_complete`, `turn_aborted`), compactions where they happened;
//! - rolled-back turns left out (the index marks them), with a note where they were.

use std::collections::HashMap;

use codex_core::event_mapping::parse_turn_item;
use codex_protocol::call_matching::match_calls;
use codex_protocol::event::EventMsg;
use codex_protocol::items::{AgentMessageContent, TurnItem};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::user_input::UserInput;
use codex_rollout::load::RolloutContents;
use codex_rollout::turns::{TurnRecords, UserTurn, all_user_turns_in_rollout};
use serde::Serialize;

use crate::commands::inspect::tool_name;

/// A whole transcript.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Transcript {
    pub thread_id: Option<String>,
    pub cli_version: Option<String>,
    pub cwd: Option<String>,
    pub started_at: Option<String>,
    /// What the file holds before its first user turn (injected context aside).
    pub preamble: Vec<Entry>,
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

/// Where an entry lives: the preamble or a turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    Preamble(usize),
    Turn(usize, usize),
}

#[derive(Default)]
struct Builder {
    transcript: Transcript,
    /// The call each output answers, by item index (codex-protocol's matching rule).
    answers: HashMap<usize, usize>,
    /// Where each call's entry is, by the call's item index.
    calls: HashMap<usize, Slot>,
}

impl Builder {
    fn start_turn(&mut self) {
        self.transcript.turns.push(TranscriptTurn {
            status: "unfinished",
            entries: Vec::new(),
        });
    }

    fn push(&mut self, entry: Entry) -> Slot {
        let turns = self.transcript.turns.len();
        match self.transcript.turns.last_mut() {
            Some(turn) => {
                turn.entries.push(entry);
                Slot::Turn(turns - 1, turn.entries.len() - 1)
            }
            None => {
                self.transcript.preamble.push(entry);
                Slot::Preamble(self.transcript.preamble.len() - 1)
            }
        }
    }

    fn entry_mut(&mut self, slot: Slot) -> Option<&mut Entry> {
        match slot {
            Slot::Preamble(entry) => self.transcript.preamble.get_mut(entry),
            Slot::Turn(turn, entry) => self
                .transcript
                .turns
                .get_mut(turn)
                .and_then(|turn| turn.entries.get_mut(entry)),
        }
    }

    /// The person's message that opens a turn: its response item, else its record event.
    fn open_turn(&mut self, items: &[RolloutItem], turn: &UserTurn) {
        self.start_turn();
        let from_item = turn.message.and_then(|index| match items.get(index) {
            Some(RolloutItem::ResponseItem(item)) => match parse_turn_item(item) {
                Some(TurnItem::UserMessage(message)) => Some(user_entry(&message.content)),
                _ => None,
            },
            _ => None,
        });
        let entry = from_item.or_else(|| {
            turn.event.and_then(|index| match items.get(index) {
                Some(RolloutItem::EventMsg(EventMsg::UserMessage(event))) => Some(Entry::User {
                    text: event.message.clone(),
                    images: event.images.as_ref().map_or(0, Vec::len) + event.local_images.len(),
                }),
                Some(RolloutItem::EventMsg(EventMsg::ItemCompleted(done))) => match &done.item {
                    TurnItem::UserMessage(message) => Some(user_entry(&message.content)),
                    _ => None,
                },
                _ => None,
            })
        });
        if let Some(entry) = entry {
            self.push(entry);
        }
    }

    fn response_item(&mut self, index: usize, item: &ResponseItem) {
        match parse_turn_item(item) {
            // The turn's own message opened it; any other is injected context.
            Some(TurnItem::UserMessage(_)) => {}
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
            _ => self.tool_item(index, item),
        }
    }

    fn tool_item(&mut self, index: usize, item: &ResponseItem) {
        let Some(link) = item.call_link() else {
            return;
        };
        if link.is_call() {
            let entry = Entry::ToolCall {
                name: tool_name(item).unwrap_or_else(|| item.item_type().to_string()),
                call_id: link.call_id.map(str::to_string),
                input: call_input(item),
                output: None,
            };
            let at = self.push(entry);
            self.calls.insert(index, at);
            return;
        }
        let text = output_text(item);
        let found = self
            .answers
            .get(&index)
            .and_then(|call| self.calls.get(call).copied());
        let slot = found.and_then(|slot| self.entry_mut(slot));
        match slot {
            Some(Entry::ToolCall { output, .. }) => *output = Some(text),
            _ => {
                // Before its call, a second output for one call, or its call is not shown.
                self.push(Entry::ToolCall {
                    name: "(no call for this output)".to_string(),
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
            EventMsg::ThreadRolledBack(rollback) if rollback.num_turns > 0 => {
                let text = format!("{} later turn(s) were rolled back here", rollback.num_turns);
                self.push(Entry::Note { text });
            }
            _ => {}
        }
    }
}

/// A person's message as an entry: its text parts joined, its images counted.
fn user_entry(content: &[UserInput]) -> Entry {
    let images = content.iter().filter(|part| part.is_image()).count();
    let text = content
        .iter()
        .filter_map(|part| match part {
            UserInput::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    Entry::User { text, images }
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

/// Builds the transcript of a loaded rollout, turn by turn as the turn index has them.
pub fn build(contents: &RolloutContents) -> Transcript {
    let items = contents.items();
    let turns = all_user_turns_in_rollout(items, TurnRecords::of(contents));
    let mut builder = Builder::default();
    let responses = items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| match item {
            RolloutItem::ResponseItem(response) => Some((index, response)),
            _ => None,
        });
    builder.answers = match_calls(responses.collect::<Vec<_>>())
        .pairs
        .into_iter()
        .map(|pair| (pair.output, pair.call))
        .collect();
    let mut next = 0;
    // The turn the current item belongs to; `None` before the first.
    let mut current: Option<&UserTurn> = None;
    for (index, item) in items.iter().enumerate() {
        while let Some(turn) = turns.get(next).filter(|turn| turn.start <= index) {
            next += 1;
            current = Some(turn);
            if turn.rolled_back {
                builder.transcript.rolled_back_turns += 1;
            } else {
                builder.open_turn(items, turn);
            }
        }
        if current.is_some_and(|turn| turn.rolled_back) {
            continue;
        }
        let is_record =
            current.is_some_and(|turn| turn.message == Some(index) || turn.event == Some(index));
        match item {
            RolloutItem::SessionMeta(meta) if builder.transcript.thread_id.is_none() => {
                builder.transcript.thread_id = Some(meta.meta.id.to_string());
                builder.transcript.cli_version = Some(meta.meta.cli_version.clone());
                builder.transcript.cwd = Some(meta.meta.cwd.display().to_string());
                builder.transcript.started_at = Some(meta.meta.timestamp.clone());
            }
            _ if is_record => {}
            RolloutItem::ResponseItem(response) => builder.response_item(index, response),
            RolloutItem::EventMsg(event) => builder.event(event),
            RolloutItem::Compacted(_) => {
                builder.push(Entry::Compaction);
            }
            _ => {}
        }
    }
    builder.transcript
}
