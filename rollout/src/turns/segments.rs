//! What a `thread_rolled_back` marker removes: the one rule that the turn index, the
//! streaming turn count and reconstruction's reverse scan all ask.
//!
//! Core rolls a thread back by rebuilding it from its file, and that rebuild decides which
//! recorded turns the marker removed. It works in *segments*: what lies between two
//! `task_started` events (all of a file before its first one is one segment). A marker with
//! `num_turns = n` discards the segment it is in and, newest first, older segments until it
//! has discarded `n` that *count* ([`counts_as_turn`]: they hold a message from a person, a
//! turn-starting response item or a message from another agent). A segment that does not
//! count is discarded on the way without using up `n`; once `n` is used up, older segments
//! stay. A `task_started` whose turn id differs from the turn id its segment recorded later
//! (the newest `task_complete`, `turn_aborted` or `turn_context` with an id) does not end the
//! segment before it: both are one segment.
//!
//! Core reads the file backwards; [`SegmentScan`] reads it forwards (files are streamed) and
//! gives the same segments: a segment is judged when it closes (at the next `task_started`,
//! or at the end), a segment with a marker is discarded at once together with the older ones
//! the marker reaches, and surviving segments wait on a stack for later markers. The one
//! order that differs: a segment that merges (ids differ, above) into an older one that a
//! marker had already discarded is discarded with it, and its own turn does not use up that
//! older marker's count (core, reading backwards, would count the merged segment once);
//! writers never produce this.
//!
//! A file without turn starts (the pre-envelope format, bare item lists) has one turn per
//! turn-starting item instead, as core's own history rollback counts them and upstream's
//! fork rule does: there, each counting item that starts a new turn (not the event that
//! follows its own message item) begins a segment. Core's rebuild would read such a file as
//! one segment; no writer that records rollbacks omits turn starts.
//!
//! Each segment also carries the user turns of each counting rule that opened in it
//! ([`SegmentScan::note_turn`]), so a caller learns which of its turns were discarded.
//!
//! A counting reader (the streamed turn count of `inspect`) keeps its newest
//! [`RECENT_SEGMENTS`] surviving segments whole and of each older one a byte (whether it
//! counts, its turns per rule; nothing for one that does neither), so a 10 GiB file costs it
//! some hundreds of KB. The streamed turn index keeps the same, and knows the first turn of
//! each rule of each older segment (where the one below it ended, or kept beside it when a
//! rollback left a gap), so that a rollback reaching it still marks exactly its turns
//! ([`SegmentScan::keeping_discarded_turns`]); the whole-file index keeps every segment. An older segment
//! has no turn id left, so a merge (ids differ, above) stops there; that needs a turn start
//! whose id differs from its turn's ids more than [`RECENT_SEGMENTS`] turns deep.

use std::hash::{DefaultHasher, Hash, Hasher};
use std::ops::Range;

use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::RolloutItem;

use codex_core::is_user_turn_boundary;

/// How many counting rules a segment tracks turns for (one per [`super::TurnRecords`] rule).
pub(crate) const RULES: usize = 4;

/// Surviving segments a counting reader keeps whole (see the module docs).
pub(crate) const RECENT_SEGMENTS: usize = 64;

/// What counting needs of an older surviving segment: whether it counts and its turns per
/// rule, nothing else.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Summary {
    counts: bool,
    turns: [usize; RULES],
}

impl Summary {
    fn of(segment: &Segment) -> Self {
        Self {
            counts: segment.counts,
            turns: segment.turns.map(|span| span.count),
        }
    }

    /// A segment that neither counts nor opened a turn: discarding it changes nothing, so an
    /// older one need not be kept at all.
    fn is_inert(&self) -> bool {
        !self.counts && self.turns.iter().all(|turns| *turns == 0)
    }

    /// One byte for the usual segment (bit 0: it counts; bit 1 + r: one turn of rule r),
    /// `None` when a rule opened more than one turn in it.
    fn code(&self) -> Option<u8> {
        let mut code = u8::from(self.counts);
        for (rule, turns) in self.turns.iter().enumerate() {
            match turns {
                0 => {}
                1 => code |= 1 << (rule + 1),
                _ => return None,
            }
        }
        Some(code)
    }

    fn from_code(code: u8) -> Self {
        let mut turns = [0; RULES];
        for (rule, turns) in turns.iter_mut().enumerate() {
            *turns = usize::from(code & (1 << (rule + 1)) != 0);
        }
        Self {
            counts: code & 1 != 0,
            turns,
        }
    }
}

/// The older surviving segments of a counting reader, oldest first: a byte each
/// ([`Summary::code`]), the few that do not fit in a byte kept whole beside them. A rollback
/// can reach back any number of turns, so each one that may still count is kept; at a byte
/// a segment (a turn of some 40 KB of file in real homes) that is 0.003 % of the file.
///
/// A reader that marks the discarded turns ([`SegmentScan::keeping_discarded_turns`]) also
/// needs the first turn of each rule of each segment. A segment's turns follow the turns of
/// the segment below it unless a rollback discarded turns in between, so a byte still holds
/// the usual one: its firsts are where the segment below ended. One that does not follow is
/// kept whole with its firsts.
#[derive(Debug, Clone, Default)]
struct OlderSegments {
    codes: Vec<u8>,
    wide: Vec<WideSegment>,
    /// Where the turns of each rule of the newest older segment end (its firsts plus its
    /// turns), for a reader that keeps firsts.
    end: [usize; RULES],
}

/// An older segment that a byte cannot hold.
#[derive(Debug, Clone, Copy)]
struct WideSegment {
    summary: Summary,
    /// Its first turn of each rule, when they are kept.
    firsts: Option<[usize; RULES]>,
    /// [`OlderSegments::end`] before it was pushed.
    end_below: [usize; RULES],
}

impl OlderSegments {
    /// The code of a segment kept in `wide` (no code of [`Summary::code`] has bit 7 set).
    const WIDE: u8 = u8::MAX;
    const _FITS: () = assert!(RULES + 1 < 8, "a code holds a bit per rule and one more");

    fn push(&mut self, summary: Summary, firsts: Option<[usize; RULES]>) {
        if summary.is_inert() {
            return;
        }
        let end_below = self.end;
        if let Some(firsts) = firsts {
            for ((end, first), turns) in self.end.iter_mut().zip(firsts).zip(summary.turns) {
                *end = first + turns;
            }
        }
        match summary.code() {
            Some(code) if firsts.is_none_or(|firsts| firsts == end_below) => self.codes.push(code),
            _ => {
                self.codes.push(Self::WIDE);
                self.wide.push(WideSegment {
                    summary,
                    firsts,
                    end_below,
                });
            }
        }
    }

    /// The newest older segment, and the first turn of each rule in it when they are kept
    /// (`keeping_firsts`).
    fn pop(&mut self, keeping_firsts: bool) -> Option<(Summary, Option<[usize; RULES]>)> {
        match self.codes.pop()? {
            Self::WIDE => {
                let wide = self.wide.pop()?;
                self.end = wide.end_below;
                Some((wide.summary, wide.firsts))
            }
            code => {
                let summary = Summary::from_code(code);
                if !keeping_firsts {
                    return Some((summary, None));
                }
                // A byte's segment follows the one below it: it began where that one ended.
                for (end, turns) in self.end.iter_mut().zip(summary.turns) {
                    *end = end.saturating_sub(turns);
                }
                Some((summary, Some(self.end)))
            }
        }
    }
}

/// Whether `item` makes the segment it is in count as a turn for a rollback: a person's
/// message (its `user_message` event, or in paginated files its completed `UserMessage`
/// item), a response item core says starts a turn ([`is_user_turn_boundary`], messages from
/// other agents included) or a message from another agent (`inter_agent_communication`).
pub(crate) fn counts_as_turn(item: &RolloutItem) -> bool {
    match item {
        RolloutItem::ResponseItem(response) => is_user_turn_boundary(response),
        RolloutItem::EventMsg(EventMsg::UserMessage(_)) => true,
        RolloutItem::EventMsg(EventMsg::ItemCompleted(done)) => {
            matches!(done.item, TurnItem::UserMessage(_))
        }
        RolloutItem::InterAgentCommunication(_) => true,
        _ => false,
    }
}

/// The turns of one counting rule that opened in a segment: a run of that rule's turn list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct TurnSpan {
    /// Index in the rule's turn list of the first turn of the segment.
    pub(crate) first: usize,
    /// How many turns of the rule opened in the segment.
    pub(crate) count: usize,
}

impl TurnSpan {
    /// The turn list indices of the span.
    pub(crate) fn indices(self) -> Range<usize> {
        self.first..self.first + self.count
    }

    fn join(self, newer: Self) -> Self {
        if self.count == 0 {
            return newer;
        }
        Self {
            first: self.first,
            count: self.count + newer.count,
        }
    }
}

/// One segment of a file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Segment {
    /// The item indices it covers.
    pub(crate) items: Range<usize>,
    /// It holds a turn a rollback counts ([`counts_as_turn`]).
    pub(crate) counts: bool,
    /// A `task_started` opened it (false for the part of a file before its first one).
    pub(crate) opened_by_turn_start: bool,
    /// A rollback marker discarded it.
    pub(crate) discarded: bool,
    /// The segment before it was discarded (closed before this one opened).
    after_discarded: bool,
    /// The turns of each rule that opened in it.
    pub(crate) turns: [TurnSpan; RULES],
    /// Hash of the turn id of the `task_started` that opened it.
    opener: Option<u64>,
    /// Hash of the newest turn id recorded in it.
    newest: Option<u64>,
    /// The sum of the `num_turns` of the markers in it.
    markers: usize,
}

impl Segment {
    fn starting_at(index: usize, turns: [usize; RULES]) -> Self {
        Self {
            items: index..index,
            turns: turns.map(|first| TurnSpan { first, count: 0 }),
            ..Self::default()
        }
    }

    /// Whether a `task_started` of another turn opened this segment (it then belongs to the
    /// segment before it).
    fn ids_differ(&self) -> bool {
        matches!((self.opener, self.newest), (Some(opener), Some(newest)) if opener != newest)
    }

    /// `self` (older) and `newer` as one segment, with `newer`'s turn id.
    fn merged(self, newer: Self) -> Self {
        let mut turns = self.turns;
        for (turns, newer) in turns.iter_mut().zip(newer.turns) {
            *turns = turns.join(newer);
        }
        Self {
            items: self.items.start..newer.items.end,
            counts: self.counts || newer.counts,
            opened_by_turn_start: self.opened_by_turn_start,
            discarded: self.discarded,
            after_discarded: self.after_discarded,
            turns,
            opener: self.opener,
            newest: newer.newest,
            markers: self.markers + newer.markers,
        }
    }
}

/// The forward segment reader (see the module docs).
#[derive(Debug, Clone)]
pub(crate) struct SegmentScan {
    open: Segment,
    /// Closed segments no marker discarded, oldest first (the newest ones only, when
    /// counting).
    surviving: Vec<Segment>,
    /// Counting: the older surviving segments that matter to a rollback.
    older: OlderSegments,
    /// Closed segments a marker discarded, when the caller asked to keep them.
    discarded: Option<Vec<Segment>>,
    /// The turns of each rule of each discarded segment, for a reader that keeps only those
    /// ([`SegmentScan::keeping_discarded_turns`]).
    discarded_spans: Option<Vec<[TurnSpan; RULES]>>,
    /// How many turns of each rule opened so far.
    turns: [usize; RULES],
    /// How many turns of each rule were discarded.
    discarded_turns: [usize; RULES],
    /// Turns markers asked to remove beyond the first item read.
    unmatched: usize,
    /// A `task_started` was read: segments end at turn starts only.
    seen_turn_start: bool,
    /// The item read last was a counting response item (a record event right after it is
    /// the same turn).
    after_counting_item: bool,
}

impl SegmentScan {
    /// A reader that keeps only what counting needs: the surviving segments.
    pub(crate) fn counting() -> Self {
        Self {
            open: Segment::starting_at(0, [0; RULES]),
            surviving: Vec::new(),
            older: OlderSegments::default(),
            discarded: None,
            discarded_spans: None,
            turns: [0; RULES],
            discarded_turns: [0; RULES],
            unmatched: 0,
            seen_turn_start: false,
            after_counting_item: false,
        }
    }

    /// A reader that keeps what counting needs and which turns were discarded
    /// ([`SegmentScan::discarded_turns`]): older surviving segments folded as when counting,
    /// with the first turn of each rule (see [`OlderSegments`]: a byte for the usual one), so a
    /// streamed turn index costs a few bytes per older turn segment.
    pub(crate) fn keeping_discarded_turns() -> Self {
        Self {
            discarded_spans: Some(Vec::new()),
            ..Self::counting()
        }
    }

    /// A reader that also keeps the discarded segments ([`SegmentScan::finish`]).
    pub(crate) fn keeping_all() -> Self {
        Self {
            discarded: Some(Vec::new()),
            ..Self::counting()
        }
    }

    /// Takes the item at `index` (indices increase by one from 0).
    pub(crate) fn push(&mut self, index: usize, item: &RolloutItem) {
        let counts = counts_as_turn(item);
        if counts && !self.seen_turn_start && self.open.counts && !self.pairs_with_previous(item) {
            let after_discarded = self.close();
            self.open = Segment {
                after_discarded,
                ..Segment::starting_at(index, self.turns)
            };
        }
        self.after_counting_item = counts && matches!(item, RolloutItem::ResponseItem(_));
        match item {
            RolloutItem::EventMsg(EventMsg::TurnStarted(started)) => {
                self.seen_turn_start = true;
                let after_discarded = self.close();
                self.open = Segment {
                    opened_by_turn_start: true,
                    opener: non_empty_hash(&started.turn_id),
                    after_discarded,
                    ..Segment::starting_at(index, self.turns)
                };
            }
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
                let num_turns = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                self.open.markers = self.open.markers.saturating_add(num_turns);
            }
            RolloutItem::EventMsg(EventMsg::TurnComplete(complete)) => {
                self.note_turn_id(&complete.turn_id);
            }
            RolloutItem::EventMsg(EventMsg::TurnAborted(aborted)) => {
                if let Some(turn_id) = &aborted.turn_id {
                    self.note_turn_id(turn_id);
                }
            }
            RolloutItem::TurnContext(context) => {
                if let Some(turn_id) = &context.turn_id {
                    self.note_turn_id(turn_id);
                }
            }
            _ => {}
        }
        self.open.counts |= counts;
        self.open.items.end = index + 1;
    }

    /// A turn of the rule at `rule` (a position in [`super::COUNTED_RULES`]) opened at the
    /// item just pushed.
    pub(crate) fn note_turn(&mut self, rule: usize) {
        if let (Some(span), Some(total)) = (self.open.turns.get_mut(rule), self.turns.get_mut(rule))
        {
            span.count += 1;
            *total += 1;
        }
    }

    /// The turns of the rule at `rule` that no marker has removed so far, the open segment's
    /// markers applied.
    pub(crate) fn surviving_turns(&self, rule: usize) -> usize {
        let mut finished = self.clone();
        finished.close();
        let total = finished.turns.get(rule).copied().unwrap_or_default();
        let discarded = finished
            .discarded_turns
            .get(rule)
            .copied()
            .unwrap_or_default();
        total.saturating_sub(discarded)
    }

    /// Every segment in file order, discarded ones marked (kept only by
    /// [`SegmentScan::keeping_all`]), and how many turns markers asked to remove beyond the
    /// first item read (a suffix of a file: the rollback reaches before it).
    pub(crate) fn finish(mut self) -> (Vec<Segment>, usize) {
        self.close();
        let mut segments = self.discarded.take().unwrap_or_default();
        segments.append(&mut self.surviving);
        segments.sort_by_key(|segment| segment.items.start);
        (segments, self.unmatched)
    }

    /// The turns of each rule that markers discarded, segment by segment (a reader that
    /// keeps all segments, or keeps the discarded turns).
    pub(crate) fn discarded_turns(mut self) -> Vec<[TurnSpan; RULES]> {
        self.close();
        match (self.discarded_spans.take(), self.discarded.take()) {
            (Some(spans), _) => spans,
            (None, Some(segments)) => segments.iter().map(|segment| segment.turns).collect(),
            (None, None) => Vec::new(),
        }
    }

    /// Whether the item read last was a counting response item, which the next item's
    /// record event would pair with.
    pub(crate) fn after_counting_item(&self) -> bool {
        self.after_counting_item
    }

    /// Whether `item` is the record event of the message item read just before it.
    fn pairs_with_previous(&self, item: &RolloutItem) -> bool {
        self.after_counting_item && matches!(item, RolloutItem::EventMsg(_))
    }

    fn note_turn_id(&mut self, turn_id: &str) {
        if let Some(hash) = non_empty_hash(turn_id) {
            self.open.newest = Some(hash);
        }
    }

    /// Closes the open segment and judges it; true when it was discarded.
    fn close(&mut self) -> bool {
        let mut segment = std::mem::take(&mut self.open);
        let mut joins_discarded = false;
        while segment.ids_differ() {
            if segment.after_discarded {
                // The older segment it belongs to is gone: so is this one.
                joins_discarded = true;
                break;
            }
            let Some(older) = self.surviving.pop() else {
                break;
            };
            segment = older.merged(segment);
        }
        if segment.markers == 0 && !joins_discarded {
            self.keep(segment);
            return false;
        }
        // A marker discards its own segment first: one of its turns if the segment counts.
        let mut pending = segment.markers.saturating_sub(usize::from(segment.counts));
        self.discard(segment);
        while pending > 0 {
            let Some(older) = self.pop_surviving() else {
                self.unmatched = self.unmatched.saturating_add(pending);
                break;
            };
            pending -= usize::from(older.counts);
            self.discard(older);
        }
        true
    }

    /// Puts a surviving segment on the stack; a counting reader folds the oldest whole one
    /// into its older segments beyond [`RECENT_SEGMENTS`].
    fn keep(&mut self, segment: Segment) {
        self.surviving.push(segment);
        if self.discarded.is_some() || self.surviving.len() <= RECENT_SEGMENTS {
            return;
        }
        let oldest = self.surviving.remove(0);
        let firsts = self
            .discarded_spans
            .is_some()
            .then(|| oldest.turns.map(|span| span.first));
        self.older.push(Summary::of(&oldest), firsts);
    }

    /// The newest surviving segment, taken off the stack.
    fn pop_surviving(&mut self) -> Option<Segment> {
        if let Some(segment) = self.surviving.pop() {
            return Some(segment);
        }
        let (summary, firsts) = self.older.pop(self.discarded_spans.is_some())?;
        let firsts = firsts.unwrap_or([0; RULES]);
        let mut turns = [TurnSpan::default(); RULES];
        for ((span, count), first) in turns.iter_mut().zip(summary.turns).zip(firsts) {
            *span = TurnSpan { first, count };
        }
        Some(Segment {
            counts: summary.counts,
            turns,
            ..Segment::default()
        })
    }

    fn discard(&mut self, mut segment: Segment) {
        segment.discarded = true;
        for (discarded, span) in self.discarded_turns.iter_mut().zip(segment.turns) {
            *discarded += span.count;
        }
        if let Some(spans) = &mut self.discarded_spans {
            spans.push(segment.turns);
        }
        if let Some(kept) = &mut self.discarded {
            kept.push(segment);
        }
    }
}

/// Turn ids are compared, never shown: a hash keeps the surviving segments a few words each.
/// An empty id is no id.
fn non_empty_hash(turn_id: &str) -> Option<u64> {
    (!turn_id.is_empty()).then(|| {
        let mut hasher = DefaultHasher::new();
        turn_id.hash(&mut hasher);
        hasher.finish()
    })
}

#[cfg(test)]
#[path = "segments_tests.rs"]
mod tests;
