//! Building a [`Transcript`] one item at a time, turn by turn as the turn index has them,
//! handing each part (the preamble, each turn) on once nothing later changes it
//! ([`FileIndex::holds`]). A file is read twice: once for its [`FileIndex`], then through this
//! builder; a loaded file (standard input, the sample) is the same builder fed from memory.

use std::collections::{HashMap, VecDeque};

use codex_app_server_protocol::v2::{TurnError, TurnStatus};
use codex_app_server_protocol::{TurnOutcome, turn_error_for_status};
use codex_core::parse_turn_item;
use codex_protocol::call_matching::{Pushed, StreamingCallMatcher};
use codex_protocol::event::EventMsg;
use codex_protocol::items::{AgentMessageContent, TurnItem};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::user_input::UserInput;
use codex_rollout::{UserTurn, line_tags};

use super::image::Image;
use super::index::FileIndex;
use super::meta::line_time;
use super::tool::{apply_exec_end, apply_output, call_entry};
use super::{Entry, EntryKind, ToolCall, TranscriptTurn};

/// Event types the build pass passes over unread: no entry, status or opening comes from
/// them (the builder acts on turn starts and ends, errors, rollbacks, `exec_command_end`,
/// `user_message` and `item_completed`). Only types known not to matter are listed.
const PASSED_OVER_EVENTS: &[&[u8]] = &[
    b"token_count",
    b"agent_message",
    b"agent_reasoning",
    b"agent_reasoning_raw_content",
    b"agent_reasoning_section_break",
    b"thread_settings_applied",
    b"exec_command_begin",
    b"exec_command_output_delta",
    b"patch_apply_begin",
    b"patch_apply_end",
    b"mcp_tool_call_begin",
    b"mcp_tool_call_end",
    b"web_search_begin",
    b"web_search_end",
    b"guardian_assessment",
    b"turn_diff",
    b"plan_update",
];

/// Line types the build pass passes over unread (the header and the index come from the
/// index pass).
const PASSED_OVER_LINES: &[&[u8]] = &[
    b"session_meta",
    b"turn_context",
    b"token_usage_record",
    b"world_state",
];

/// A finished part of a transcript, in the order parts are written.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Part {
    /// What comes before the first turn (always the first part, possibly empty).
    Preamble(Vec<Entry>),
    Turn(TranscriptTurn),
}

impl Part {
    /// The bytes of text (and of embedded images) the part holds: what memory it takes,
    /// within a small factor ([`Entry::text_bytes`]).
    pub(crate) fn text_bytes(&mut self) -> usize {
        let entries = match self {
            Part::Preamble(entries) => entries,
            Part::Turn(turn) => &mut turn.entries,
        };
        entries.iter_mut().map(Entry::text_bytes).sum()
    }
}

/// How the builder sees a response item (the first pass asks it too, to know the calls).
pub(crate) enum Classified {
    /// A user-role message: the turn's own opened it; any other is injected context.
    Skip,
    Entry(EntryKind),
    /// A tool call or output (or nothing shown).
    Tool,
}

/// What a response item shows, apart from tool calls and outputs.
pub(crate) fn classify(item: &ResponseItem) -> Classified {
    match parse_turn_item(item) {
        Some(TurnItem::UserMessage(_)) => Classified::Skip,
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
            Classified::Entry(EntryKind::Assistant { text, phase })
        }
        Some(TurnItem::Reasoning(reasoning)) if !reasoning.summary_text.is_empty() => {
            Classified::Entry(EntryKind::Reasoning {
                summary: reasoning.summary_text,
            })
        }
        Some(TurnItem::WebSearch(search)) => Classified::Entry(EntryKind::WebSearch {
            query: search.query,
        }),
        Some(TurnItem::HookPrompt(_)) => Classified::Entry(EntryKind::Note {
            text: "a hook added a prompt".to_string(),
        }),
        _ => Classified::Tool,
    }
}

/// Where an entry lives: its part (0 the preamble, `k` turn `k - 1`) and its place there
/// (after the person's message, which is placed when the part is finished).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Slot {
    part: usize,
    entry: usize,
}

/// A part being built.
#[derive(Debug)]
struct Open {
    /// `None` for the preamble.
    turn: Option<TranscriptTurn>,
    entries: Vec<Entry>,
    /// The person's message, for a turn.
    opening: Option<Opening>,
    /// A `task_started` opened the turn (see [`settle_open_status`]).
    explicit: bool,
    /// The last error seen in the turn that decides a `failed` status (app-server-protocol's
    /// rule, [`turn_error_for_status`]).
    last_error: Option<TurnError>,
}

/// The person's message of a turn, read from its record lines (which may follow the
/// turn's first line): its response item when that renders, else its record event.
#[derive(Debug, Default)]
struct Opening {
    message: Option<usize>,
    event: Option<usize>,
    from_item: Option<EntryKind>,
    from_event: Option<EntryKind>,
    /// The time of the message's own line, else of the turn's first.
    at: Option<String>,
}

/// The streaming builder (see the module docs).
#[derive(Debug)]
pub(crate) struct TranscriptBuilder<'a> {
    turns: &'a [UserTurn],
    holds: &'a [usize],
    /// The next turn to open.
    next: usize,
    /// The parts not handed on yet, the first being part `first`.
    open: VecDeque<Open>,
    first: usize,
    ready: Vec<Part>,
    live_turns: usize,
    matcher: StreamingCallMatcher,
    /// Where each call's entry is, by the call's item index, until its output comes.
    calls: HashMap<usize, Slot>,
    /// Where each call's entry is, by call id, for the events that name it.
    calls_by_id: HashMap<String, Slot>,
    /// The time of the item being read.
    at: Option<String>,
}

impl<'a> TranscriptBuilder<'a> {
    /// A builder for the file `index` was made from.
    pub(crate) fn new(index: &'a FileIndex) -> Self {
        let mut open = VecDeque::new();
        open.push_back(Open {
            turn: None,
            entries: Vec::new(),
            opening: None,
            explicit: false,
            last_error: None,
        });
        Self {
            turns: &index.turns,
            holds: &index.holds,
            next: 0,
            open,
            first: 0,
            ready: Vec::new(),
            live_turns: 0,
            matcher: StreamingCallMatcher::new(),
            calls: HashMap::new(),
            calls_by_id: HashMap::new(),
            at: None,
        }
    }

    /// The parts finished so far, in order.
    pub(crate) fn take_ready(&mut self) -> Vec<Part> {
        std::mem::take(&mut self.ready)
    }

    /// Whether the build pass reads the line `raw`, told from its tags: every line but those
    /// of the types listed in [`PASSED_OVER_EVENTS`] and [`PASSED_OVER_LINES`], which show
    /// nothing (the index pass read them). A line passed over still times and opens what
    /// starts at it ([`TranscriptBuilder::pass`]).
    pub(crate) fn reads(raw: &[u8]) -> bool {
        let Some(tags) = line_tags(raw) else {
            return true;
        };
        match (tags.line_type, tags.payload_type) {
            (b"event_msg", Some(event)) => !PASSED_OVER_EVENTS.contains(&event),
            (line_type, _) => !PASSED_OVER_LINES.contains(&line_type),
        }
    }

    /// Takes the item of the line numbered `index` (items are numbered by their lines, as the
    /// index numbers them), whose bytes are `raw`.
    pub(crate) fn push(&mut self, index: usize, item: &RolloutItem, raw: &[u8]) {
        self.advance(index, raw);
        self.note_opening(index, item);
        let is_record = self
            .next
            .checked_sub(1)
            .and_then(|current| self.turns.get(current))
            .is_some_and(|turn| turn.message == Some(index) || turn.event == Some(index));
        let pushed = match item {
            RolloutItem::ResponseItem(response) => self.matcher.push_owned(index, response),
            _ => Pushed::Nothing,
        };
        match item {
            _ if is_record => {}
            RolloutItem::ResponseItem(response) => self.response_item(index, response, pushed),
            RolloutItem::EventMsg(event) => self.event(event),
            RolloutItem::Compacted(_) => {
                self.push_entry(EntryKind::Compaction);
            }
            _ => {}
        }
    }

    /// Takes line `position`, which the build pass passed over ([`TranscriptBuilder::reads`]):
    /// what every line does before its item is looked at, its time and the turns that open
    /// at it, and nothing else (its item, if it is one, shows nothing).
    pub(crate) fn pass(&mut self, position: usize, raw: &[u8]) {
        self.advance(position, raw);
    }

    /// Moves on to line `position`: its time, the turns that open at it, and the parts no
    /// later line changes handed on.
    fn advance(&mut self, position: usize, raw: &[u8]) {
        self.at = line_time(raw);
        let turns = self.turns;
        while let Some(turn) = turns.get(self.next).filter(|turn| turn.start <= position) {
            self.next += 1;
            self.open_turn(turn);
        }
        self.release(position);
    }

    /// Hands on every part: the file has ended.
    pub(crate) fn finish(&mut self) {
        if let Some(open) = self.open.back_mut() {
            settle_open_status(open);
        }
        while !self.open.is_empty() {
            self.release_first();
        }
    }

    /// Hands on the finished parts (all but the last opened) that no item from `index` on
    /// changes.
    fn release(&mut self, index: usize) {
        while self.open.len() > 1 {
            match self.holds.get(self.first) {
                Some(&hold) if hold >= index => break,
                _ => self.release_first(),
            }
        }
    }

    fn release_first(&mut self) {
        let Some(open) = self.open.pop_front() else {
            return;
        };
        let part = self.first;
        self.first += 1;
        self.calls.retain(|_, slot| slot.part != part);
        self.calls_by_id.retain(|_, slot| slot.part != part);
        self.ready.push(finish_part(open));
    }

    fn push_entry(&mut self, kind: EntryKind) -> Slot {
        let entry = Entry {
            at: self.at.clone(),
            kind,
        };
        let part = self.first + self.open.len().saturating_sub(1);
        let entries = match self.open.back_mut() {
            Some(open) => &mut open.entries,
            None => return Slot { part, entry: 0 },
        };
        entries.push(entry);
        Slot {
            part,
            entry: entries.len() - 1,
        }
    }

    fn call_mut(&mut self, slot: Slot) -> Option<&mut ToolCall> {
        let open = self.open.get_mut(slot.part.checked_sub(self.first)?)?;
        match open
            .entries
            .get_mut(slot.entry)
            .map(|entry| &mut entry.kind)
        {
            Some(EntryKind::ToolCall(call)) => Some(call),
            _ => None,
        }
    }

    /// Starts a turn; its person's message is read from its record lines as they come.
    fn open_turn(&mut self, turn: &UserTurn) {
        let number = if turn.rolled_back {
            None
        } else {
            self.live_turns += 1;
            Some(self.live_turns)
        };
        if let Some(open) = self.open.back_mut() {
            settle_open_status(open);
        }
        self.open.push_back(Open {
            explicit: false,
            last_error: None,
            turn: Some(TranscriptTurn {
                number,
                status: "unfinished",
                rolled_back: turn.rolled_back,
                started_at: self.at.clone(),
                entries: Vec::new(),
            }),
            entries: Vec::new(),
            opening: Some(Opening {
                message: turn.message,
                event: turn.event,
                at: self.at.clone(),
                ..Opening::default()
            }),
        });
    }

    /// Reads the person's message of an open turn from `item`, when it is one of its records.
    fn note_opening(&mut self, index: usize, item: &RolloutItem) {
        let at = &self.at;
        for opening in self
            .open
            .iter_mut()
            .filter_map(|open| open.opening.as_mut())
        {
            // The message is timed by its own line, not the turn's first.
            if opening.message.or(opening.event) == Some(index) && at.is_some() {
                opening.at.clone_from(at);
            }
            if opening.message == Some(index) {
                opening.from_item = match item {
                    RolloutItem::ResponseItem(item) => match parse_turn_item(item) {
                        Some(TurnItem::UserMessage(message)) => Some(user_entry(&message.content)),
                        _ => None,
                    },
                    _ => None,
                };
            }
            if opening.event == Some(index) {
                opening.from_event = event_entry(item);
            }
        }
    }

    fn response_item(&mut self, index: usize, item: &ResponseItem, pushed: Pushed) {
        match classify(item) {
            Classified::Skip => {}
            Classified::Entry(kind) => {
                self.push_entry(kind);
            }
            Classified::Tool => self.tool_item(index, item, pushed),
        }
    }

    fn tool_item(&mut self, index: usize, item: &ResponseItem, pushed: Pushed) {
        let Some(link) = item.call_link() else {
            return;
        };
        if link.is_call() {
            let call = call_entry(item, link.call_id);
            let at = self.push_entry(EntryKind::ToolCall(Box::new(call)));
            self.calls.insert(index, at);
            if let Some(id) = link.call_id {
                self.calls_by_id.insert(id.to_string(), at);
            }
            return;
        }
        let found = match pushed {
            Pushed::Answered(pair) => self.calls.remove(&pair.call),
            _ => None,
        };
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
                self.push_entry(EntryKind::ToolCall(Box::new(call)));
            }
        }
    }

    /// The turn being read (the last opened), if one has opened.
    fn current_turn(&mut self) -> Option<&mut TranscriptTurn> {
        self.open.back_mut().and_then(|open| open.turn.as_mut())
    }

    fn event(&mut self, event: &EventMsg) {
        match event {
            EventMsg::TurnStarted(_) => {
                if let Some(open) = self.open.back_mut() {
                    open.explicit = true;
                }
            }
            EventMsg::Error(error) => {
                if let Some(open) = self.open.back_mut()
                    && let Some(error) = turn_error_for_status(error)
                {
                    open.last_error = Some(error);
                }
            }
            EventMsg::TurnComplete(complete) => {
                if let Some(open) = self.open.back_mut() {
                    let outcome = TurnOutcome::from_complete(complete, open.last_error.take());
                    if let Some(turn) = open.turn.as_mut() {
                        turn.status = status_word(outcome.status);
                    }
                }
            }
            EventMsg::TurnAborted(aborted) => {
                if let Some(turn) = self.current_turn() {
                    turn.status = status_word(TurnOutcome::from_aborted(aborted).status);
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
                self.push_entry(EntryKind::Note { text });
            }
            _ => {}
        }
    }
}

/// A part as it is handed on: a turn opens with the person's message.
/// The status of a turn the file leaves without an end event, by app-server-protocol's rule
/// (what `thread` and Codex show): a turn a `task_started` opened was cut short
/// (`interrupted`), one implied by a person's message (older files, which record no turn
/// events) `completed`.
fn settle_open_status(open: &mut Open) {
    let explicit = open.explicit;
    if let Some(turn) = open.turn.as_mut()
        && turn.status == "unfinished"
    {
        turn.status = status_word(if explicit {
            TurnStatus::Interrupted
        } else {
            TurnStatus::Completed
        });
    }
}

/// A turn status as the transcript spells it (the wire's words).
fn status_word(status: TurnStatus) -> &'static str {
    match status {
        TurnStatus::Completed => "completed",
        TurnStatus::Interrupted => "interrupted",
        TurnStatus::Failed => "failed",
        TurnStatus::InProgress => "unfinished",
    }
}

fn finish_part(open: Open) -> Part {
    let Open {
        turn,
        mut entries,
        opening,
        ..
    } = open;
    let Some(mut turn) = turn else {
        return Part::Preamble(entries);
    };
    if let Some(opening) = opening
        && let Some(kind) = opening.from_item.or(opening.from_event)
    {
        entries.insert(
            0,
            Entry {
                at: opening.at,
                kind,
            },
        );
    }
    turn.entries = entries;
    Part::Turn(turn)
}

/// The person's message a record event carries.
fn event_entry(item: &RolloutItem) -> Option<EntryKind> {
    match item {
        RolloutItem::EventMsg(EventMsg::UserMessage(event)) => {
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
        RolloutItem::EventMsg(EventMsg::ItemCompleted(done)) => match &done.item {
            TurnItem::UserMessage(message) => Some(user_entry(&message.content)),
            _ => None,
        },
        _ => None,
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

#[cfg(test)]
#[path = "build_tests.rs"]
mod tests;
