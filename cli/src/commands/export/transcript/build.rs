//! Building a [`Transcript`] from a loaded rollout, turn by turn as the turn index has them.

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

use super::image::Image;
use super::meta::{line_time, note_header};
use super::tool::{apply_exec_end, apply_output, call_entry};
use super::{Entry, EntryKind, ToolCall, Transcript, TranscriptTurn};

/// Builds the transcript of a loaded rollout.
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
        builder.at = line_time(contents, index);
        if builder.at.is_some() {
            builder.transcript.ended_at.clone_from(&builder.at);
        }
        while let Some(turn) = turns.get(next).filter(|turn| turn.start <= index) {
            next += 1;
            current = Some(turn);
            let started_at = line_time(contents, turn.start);
            // The person's message is timed by its own line, not the turn's first.
            let message_at = turn
                .message
                .or(turn.event)
                .and_then(|at| line_time(contents, at));
            let item_at = std::mem::replace(&mut builder.at, message_at.or(started_at.clone()));
            builder.open_turn(items, turn, started_at);
            builder.at = item_at;
        }
        note_header(&mut builder.transcript, item);
        let is_record =
            current.is_some_and(|turn| turn.message == Some(index) || turn.event == Some(index));
        match item {
            _ if is_record => {}
            RolloutItem::ResponseItem(response) => builder.response_item(index, response),
            RolloutItem::EventMsg(event) => builder.event(event),
            RolloutItem::Compacted(_) => {
                builder.push(EntryKind::Compaction);
            }
            _ => {}
        }
    }
    builder.transcript
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
    /// Where each call's entry is, by call id, for the events that name it.
    calls_by_id: HashMap<String, Slot>,
    /// The time of the item being read.
    at: Option<String>,
}

impl Builder {
    fn push(&mut self, kind: EntryKind) -> Slot {
        let entry = Entry {
            at: self.at.clone(),
            kind,
        };
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

    fn call_mut(&mut self, slot: Slot) -> Option<&mut ToolCall> {
        let entry = match slot {
            Slot::Preamble(entry) => self.transcript.preamble.get_mut(entry),
            Slot::Turn(turn, entry) => self
                .transcript
                .turns
                .get_mut(turn)
                .and_then(|turn| turn.entries.get_mut(entry)),
        };
        match entry.map(|entry| &mut entry.kind) {
            Some(EntryKind::ToolCall(call)) => Some(call),
            _ => None,
        }
    }

    /// Starts a turn with the person's message: its response item, else its record event.
    fn open_turn(&mut self, items: &[RolloutItem], turn: &UserTurn, started_at: Option<String>) {
        let number = if turn.rolled_back {
            self.transcript.rolled_back_turns += 1;
            None
        } else {
            Some(self.transcript.live_turns().count() + 1)
        };
        self.transcript.turns.push(TranscriptTurn {
            number,
            status: "unfinished",
            rolled_back: turn.rolled_back,
            started_at,
            entries: Vec::new(),
        });
        let from_item = turn.message.and_then(|index| match items.get(index) {
            Some(RolloutItem::ResponseItem(item)) => match parse_turn_item(item) {
                Some(TurnItem::UserMessage(message)) => Some(user_entry(&message.content)),
                _ => None,
            },
            _ => None,
        });
        let entry = from_item.or_else(|| {
            turn.event.and_then(|index| match items.get(index) {
                Some(RolloutItem::EventMsg(EventMsg::UserMessage(event))) => {
                    let images = event
                        .images
                        .iter()
                        .flatten()
                        .map(|url| Image::from_url(url))
                        .chain(event.local_images.iter().map(|path| Image::local(path)))
                        .collect();
                    Some(EntryKind::User {
                        text: event.message.clone(),
                        images,
                    })
                }
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
                self.push(EntryKind::Assistant { text, phase });
            }
            Some(TurnItem::Reasoning(reasoning)) if !reasoning.summary_text.is_empty() => {
                self.push(EntryKind::Reasoning {
                    summary: reasoning.summary_text,
                });
            }
            Some(TurnItem::WebSearch(search)) => {
                self.push(EntryKind::WebSearch {
                    query: search.query,
                });
            }
            Some(TurnItem::HookPrompt(_)) => {
                self.push(EntryKind::Note {
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
            let call = call_entry(item, link.call_id);
            let at = self.push(EntryKind::ToolCall(Box::new(call)));
            self.calls.insert(index, at);
            if let Some(id) = link.call_id {
                self.calls_by_id.insert(id.to_string(), at);
            }
            return;
        }
        let found = self
            .answers
            .get(&index)
            .and_then(|call| self.calls.get(call).copied());
        match found.and_then(|slot| self.call_mut(slot)) {
            Some(call) => apply_output(call, item),
            None => {
                // Before its call, a second output for one call, or its call is not shown.
                let mut call = ToolCall {
                    name: "(no call for this output)".to_string(),
                    call_id: link.call_id.map(str::to_string),
                    ..ToolCall::default()
                };
                apply_output(&mut call, item);
                self.push(EntryKind::ToolCall(Box::new(call)));
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
            EventMsg::ExecCommandEnd(end) => {
                let slot = self.calls_by_id.get(&end.call_id).copied();
                if let Some(call) = slot.and_then(|slot| self.call_mut(slot)) {
                    apply_exec_end(call, end);
                }
            }
            EventMsg::ThreadRolledBack(rollback) if rollback.num_turns > 0 => {
                let text = format!(
                    "{} earlier turn(s) were rolled back here",
                    rollback.num_turns
                );
                self.push(EntryKind::Note { text });
            }
            _ => {}
        }
    }
}

/// A person's message as an entry: its text parts joined, its images kept.
fn user_entry(content: &[UserInput]) -> EntryKind {
    let images = content
        .iter()
        .filter_map(|part| match part {
            UserInput::Image { image_url, .. } => Some(Image::from_url(image_url)),
            UserInput::LocalImage { path, .. } => Some(Image::local(path)),
            _ => None,
        })
        .collect();
    let text = content
        .iter()
        .filter_map(|part| match part {
            UserInput::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect::<Vec<_>>()
        .join("\n");
    EntryKind::User { text, images }
}
