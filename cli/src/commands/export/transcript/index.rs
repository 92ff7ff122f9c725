//! What export learns from a first pass over a file, so that a second pass can build and
//! write the transcript one turn at a time: the turn index, the header's facts, and for each
//! part of the transcript (the preamble, each turn) the last item that changes it.
//!
//! Why the last item: a tool output (or an `exec_command_end`) fills in the entry of its call,
//! which may sit in an earlier turn. A part is complete, and can be written and dropped, once
//! the reader is past every item that changes it. The pairs come from codex-protocol's
//! [`StreamingCallMatcher`] (the forward form of `match_calls`, so the same pairs as the
//! builder's); an `exec_command_end` changes the latest call with its id, as the builder
//! looks it up. Knowing them ahead costs a few words per call; the parts themselves are held
//! only while something later still changes them, which on Codex's own files is the turn
//! being read.
//!
//! Items are numbered by their lines in both passes, so that each can pass over the lines it
//! does not need without parsing them: this one a reasoning item's, and a tool output's but
//! for its call id ([`IndexScan::reads`]),
//! the builder's pass the events and metadata it ignores (`super::build::TranscriptBuilder::
//! reads`); every line is read by one of them, which announces it if it is unreadable.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};

use codex_protocol::call_matching::{Pushed, StreamingCallMatcher};
use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::{
    LineTags, StreamedLine, StreamedTurnIndex, UserTurn, line_tags, may_start_turn, output_call_id,
};

use codex_home::UsageScan;

use super::build::{Classified, classify};
use super::meta::{line_time, note_header};
use super::{TokenTotals, Transcript};

/// What the first pass learned (see the module docs).
#[derive(Debug, Clone, Default)]
pub(crate) struct FileIndex {
    /// The header's facts; no entries.
    pub head: Transcript,
    /// Every user turn, rolled-back ones marked (codex-rollout's turn index), its items
    /// numbered by their lines.
    pub turns: Vec<UserTurn>,
    /// Per part (0 the preamble, `k` turn `k - 1`): the line of the last item that changes
    /// it (items, and the turns' positions, are numbered by their lines).
    pub holds: Vec<usize>,
}

/// The first pass, one item at a time.
#[derive(Debug)]
pub(crate) struct IndexScan {
    turns: StreamedTurnIndex,
    head: Transcript,
    matcher: StreamingCallMatcher,
    /// The latest call entry of each call id, by its line, keyed by a hash of the id
    /// ([`id_key`]): two words a call instead of the id's text.
    latest_call: HashMap<u64, usize>,
    /// (call's line, line of an item that changes its entry), for the pairs with a
    /// possible part start between them ([`IndexScan::link`]).
    links: Vec<(usize, usize)>,
    /// The latest item a part could start at (codex-rollout's [`may_start_turn`]).
    last_part_start: Option<usize>,
    /// The session's own responses, counted by `usage`'s rule (codex-home's `UsageScan`),
    /// merged per model and day (only the total is shown; merged, memory does not grow
    /// with the file).
    usage: UsageScan,
    /// A usage line was read (a `token_count` with usage, or a `token_usage_record`).
    usage_seen: bool,
}

impl Default for IndexScan {
    fn default() -> Self {
        Self {
            turns: StreamedTurnIndex::default(),
            head: Transcript::default(),
            matcher: StreamingCallMatcher::default(),
            latest_call: HashMap::new(),
            links: Vec::new(),
            last_part_start: None,
            usage: UsageScan::by_day(chrono_tz::UTC),
            usage_seen: false,
        }
    }
}

impl IndexScan {
    /// A scan that has seen nothing.
    pub(crate) fn new() -> Self {
        Self::default()
    }

    /// Whether the index pass reads the line `raw` in full, told from its bytes: every line
    /// but a reasoning item's, which changes nothing the index keeps (no turn starts there, it
    /// pairs with no call, it counts no tokens, the header ignores it; its time is read from
    /// its bytes), and a tool output's whose call id is where Codex writes it (codex-rollout's
    /// [`output_call_id`]), which is read for its call id alone ([`IndexScan::push_line`]).
    /// Either is read in full when the turn index asks for the line after a message.
    ///
    /// Why outputs by their ids: they are a third of a session's bytes, and all the index
    /// needs of one is which call it answers. The id is the one the item would have, if the
    /// line parses; the later pass parses every output, and when one does not parse the
    /// export is made again with [`IndexScan::reads_outputs`] ([`super::super::read`]).
    pub(crate) fn reads(raw: &[u8]) -> bool {
        // This test runs on every line, in both passes: the tags are read once (a tool
        // output's call id is read after them again).
        match line_tags(raw) {
            Some(tags) if tags.output_channel().is_some() => output_call_id(raw).is_none(),
            Some(tags) => !is_reasoning(tags),
            None => true,
        }
    }

    /// [`IndexScan::reads`] for an index that parses tool outputs: every line but a
    /// reasoning item's.
    pub(crate) fn reads_outputs(raw: &[u8]) -> bool {
        !line_tags(raw).is_some_and(is_reasoning)
    }

    /// Takes the next line of a stream, read or passed over ([`IndexScan::reads`]): its time,
    /// its format (for the turn index) and its item, or the call id of a tool output passed
    /// over. Items are numbered by their lines (a pass that passes over lines cannot count
    /// items), as the builder numbers them.
    pub(crate) fn push_line(&mut self, line: &mut StreamedLine<'_>) {
        if line.passed_over() && self.turns.reads_next_item() {
            line.read_in_full();
        }
        let at = line_time(line.raw);
        if let Some(format) = line.format() {
            self.turns.note_format(format);
        }
        if let Some(rollout_line) = line.line() {
            self.turns.push_at(line.number, &rollout_line.item);
            self.observe(line.number, &rollout_line.item, at.as_deref());
        } else if line.passed_over()
            && let Some((channel, call_id)) = output_call_id(line.raw)
        {
            // What `observe` does with the output item: it pairs, and nothing else reads it.
            let pushed = self.matcher.push_output_key(line.number, channel, call_id);
            if let Pushed::Answered(pair) = pushed {
                self.link(pair.call, line.number);
            }
        }
        if at.is_some() {
            self.head.ended_at = at;
        }
    }

    /// Takes the item of the line numbered `index`, timed `at`.
    fn observe(&mut self, index: usize, item: &RolloutItem, at: Option<&str>) {
        self.usage.push_item(index, at.unwrap_or_default(), item);
        note_header(&mut self.head, item);
        if may_start_turn(item) {
            self.last_part_start = Some(index);
        }
        match item {
            RolloutItem::ResponseItem(response) => {
                if let Pushed::Answered(pair) = self.matcher.push_owned(index, response) {
                    self.link(pair.call, index);
                }
                if matches!(classify(response), Classified::Tool)
                    && let Some(link) = response.call_link()
                    && link.is_call()
                    && let Some(id) = link.call_id
                {
                    self.latest_call.insert(id_key(id), index);
                }
            }
            RolloutItem::EventMsg(EventMsg::TokenCount(count)) if count.info.is_some() => {
                self.usage_seen = true;
            }
            RolloutItem::TokenUsageRecord(_) => self.usage_seen = true,
            RolloutItem::EventMsg(EventMsg::ExecCommandEnd(end)) => {
                if let Some(&call) = self.latest_call.get(&id_key(&end.call_id)) {
                    self.link(call, index);
                }
            }
            _ => {}
        }
    }

    /// Notes that item `changer` changes the entry of the call at `call`. Only a pair with a
    /// possible part start after the call can hold a part longer: a part is released once
    /// the next one is open, so a change read before the next part starts is always in
    /// time. The others (on Codex's own files, nearly every output, read in its call's turn)
    /// are not kept, so the index does not grow by a pair per call.
    fn link(&mut self, call: usize, changer: usize) {
        if self.last_part_start.is_some_and(|start| start > call) {
            self.links.push((call, changer));
        }
    }

    /// The index of everything pushed.
    pub(crate) fn finish(mut self) -> FileIndex {
        if self.usage_seen {
            let total = self.usage.finish().total();
            let signed = |count: u64| i64::try_from(count).unwrap_or(i64::MAX);
            self.head.tokens = Some(TokenTotals {
                input: signed(total.input_tokens),
                cached_input: signed(total.cached_input_tokens),
                output: signed(total.output_tokens),
                reasoning_output: signed(total.reasoning_output_tokens),
                total: signed(total.total_tokens),
            });
        }
        let (_, turns) = self.turns.finish();
        finish_with(self.head, turns, self.links)
    }
}

/// Whether `tags` are a reasoning item's line's.
fn is_reasoning(tags: LineTags<'_>) -> bool {
    tags == LineTags {
        line_type: b"response_item",
        payload_type: Some(b"reasoning"),
    }
}

/// The key of a call id in [`IndexScan::latest_call`]: a 64-bit hash, so memory is a few
/// words per call rather than its id's text. Two ids with one key would link an
/// `exec_command_end` to the later one's call and could release the earlier one's part
/// before its `exec_command_end` is read; the odds are about n²/2⁶⁵ for n calls.
fn id_key(id: &str) -> u64 {
    let mut hasher = DefaultHasher::new();
    id.hash(&mut hasher);
    hasher.finish()
}

fn finish_with(
    mut head: Transcript,
    turns: Vec<UserTurn>,
    links: Vec<(usize, usize)>,
) -> FileIndex {
    head.rolled_back_turns = turns.iter().filter(|turn| turn.rolled_back).count();
    let mut holds = vec![0; turns.len() + 1];
    for (part, turn) in turns.iter().enumerate() {
        let records = turn.message.into_iter().chain(turn.event);
        holds[part + 1] = records.fold(turn.start, usize::max);
    }
    for (call, changer) in links {
        // The part an item belongs to: the last turn that opened at or before it.
        let part = turns.partition_point(|turn| turn.start <= call);
        if let Some(hold) = holds.get_mut(part) {
            *hold = (*hold).max(changer);
        }
    }
    FileIndex { head, turns, holds }
}
