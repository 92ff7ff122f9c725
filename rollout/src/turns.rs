//! The user turns of a rollout: which turns a file holds after its rollbacks, where each
//! one starts, and which lines a forked or sub-agent child copied from its parent. Counting
//! (`inspect`), forking, export and the tests that compare every view all ask this module.
//!
//! The authority is what the file itself records for each message a person sent:
//! - a legacy file in the `{timestamp, type, payload}` envelope has one `user_message` event
//!   per turn (core emits exactly one per message, and every legacy writer persists it);
//! - a paginated file (0.151 and later) writes no `user_message` events but one
//!   `item_completed` with a `UserMessage` item per turn;
//! - a file in the pre-envelope legacy format has one user turn per response item core's
//!   [`is_user_turn_boundary`] says starts one; so has an enveloped file that holds neither
//!   record (filtered by hand), counting only items inside a turn (after a `task_started`).
//!
//! The first of these a file holds is used ([`TurnRecords::of`]); counting user messages
//! among the response items when events exist is wrong on real files in both directions
//! (redacted text hides which messages were injected context; edited files lack items).
//!
//! Which turns a `thread_rolled_back {num_turns}` marker removed is core's rebuild rule,
//! which works on turn segments rather than on these records (`segments.rs`, the one place
//! that decides it; reconstruction's reverse scan asks it too): the marker removes the last
//! `num_turns` segments that hold a turn someone started (a person or another agent), with
//! whatever lies between them. A turn of a person is removed with its segment; a turn of
//! another agent is never one of these user turns but uses up one of `num_turns`.
//!
//! A turn's first line is its user message item when the file has it (the recorder writes the
//! item, then its event), else its event; a fork cuts before that line
//! ([`ForkPoint::BeforeItem`](crate::ForkPoint::BeforeItem)), which codex-rollout then moves up to the turn's `task_started`.
//!
//! Copied parent prefix ([`ParentPrefix`]): a child's file starts with its own
//! `session_meta`, then may replay its parent's meta (another thread id) followed by the
//! parent's items up to the fork. Those lines are the parent's: they end at the child's own
//! first `task_started`, recognised by its turn id being minted after the child thread
//! (both are UUID v7, which sort by creation time). A repeated meta of the file's own thread
//! (a resume) changes nothing.

use codex_core::is_user_turn_boundary;

use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::rollout::{LineFormat, RolloutItem};

mod index;
mod packed;
pub(crate) use packed::PackedPositions;
mod passing;
mod prefix;
mod segments;
mod tally;

use crate::load::RolloutContents;
use index::TurnIndexer;
#[cfg(test)]
use prefix::ParentPrefix;
pub use prefix::{ParentPrefixScan, Provenance, parent_prefix};
pub(crate) use segments::{Segment, SegmentScan};
pub use tally::TurnTally;

/// Which records a file's user turns are counted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnRecords {
    /// `user_message` events (legacy envelope files).
    UserMessageEvents,
    /// `item_completed` events carrying a `UserMessage` (paginated files).
    CompletedUserMessages,
    /// Turn-starting response items (pre-envelope files, which have no events, and item
    /// lists without turn events).
    BoundaryItems,
    /// Turn-starting response items inside a turn (after a `task_started`): enveloped files
    /// that hold neither record, such as files filtered by hand. Items before any turn are
    /// the context a fork kept before its first turn, not turns.
    BoundaryItemsInTurns,
}

impl TurnRecords {
    /// The records that count for `contents` (see the module docs). An enveloped file with
    /// neither record counts boundary items inside turns only: items before any turn are the
    /// context a fork kept before its first turn.
    pub fn of(contents: &RolloutContents) -> Self {
        if contents.has_legacy_lines() {
            Self::BoundaryItems
        } else {
            Self::of_events(contents.items()).unwrap_or(Self::BoundaryItemsInTurns)
        }
    }

    /// The records that count for `items` when only the items are known (not the lines'
    /// format): the events when there are any; else boundary items, inside turns when there
    /// are turn events. Agrees with [`TurnRecords::of`] on every file but an enveloped one
    /// with no turn at all (a fork cut before its first turn), where this counts the kept
    /// context's boundary items, if any, and `of` counts none.
    pub(crate) fn of_items(items: &[RolloutItem]) -> Self {
        Self::of_events(items).unwrap_or_else(|| {
            let has_turns = items
                .iter()
                .any(|item| matches!(item, RolloutItem::EventMsg(EventMsg::TurnStarted(_))));
            if has_turns {
                Self::BoundaryItemsInTurns
            } else {
                Self::BoundaryItems
            }
        })
    }

    /// The event records `items` hold, if any.
    fn of_events(items: &[RolloutItem]) -> Option<Self> {
        [Self::UserMessageEvents, Self::CompletedUserMessages]
            .into_iter()
            .find(|records| items.iter().any(|item| records.is_record(item)))
    }

    /// Whether `item` opens a user turn under this rule: its record for the two event rules,
    /// a turn-starting response item (`boundary`, core's [`is_user_turn_boundary`]) for the
    /// others, inside a turn (`in_turns`: after a `task_started`) for
    /// [`TurnRecords::BoundaryItemsInTurns`]. Every form of the turn index asks this, and so
    /// does the replay's client view for the person's messages it rebuilds.
    pub(crate) fn opens_turn(self, item: &RolloutItem, boundary: bool, in_turns: bool) -> bool {
        match self {
            Self::BoundaryItems => boundary,
            Self::BoundaryItemsInTurns => boundary && in_turns,
            Self::UserMessageEvents | Self::CompletedUserMessages => self.is_record(item),
        }
    }

    /// True for the rules whose turns are counted from events (a message item before the
    /// event is paired with it).
    fn counts_events(self) -> bool {
        matches!(self, Self::UserMessageEvents | Self::CompletedUserMessages)
    }

    /// Whether `item` is the record of one user turn under this rule.
    fn is_record(self, item: &RolloutItem) -> bool {
        match (self, item) {
            (Self::UserMessageEvents, RolloutItem::EventMsg(EventMsg::UserMessage(_))) => true,
            (Self::CompletedUserMessages, RolloutItem::EventMsg(EventMsg::ItemCompleted(done))) => {
                matches!(done.item, TurnItem::UserMessage(_))
            }
            _ => false,
        }
    }
}

/// One user turn that survives the file's rollbacks, by item index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserTurn {
    /// The turn's record event (`user_message` or the completed `UserMessage`), when turns
    /// are counted from events.
    pub event: Option<usize>,
    /// The response item that carries the message, when the file has it.
    pub message: Option<usize>,
    /// The turn's first line: its `task_started` when one opens it (only turn preamble such
    /// as settings and injected context lies between), else its first record. A fork without
    /// this turn keeps only what precedes it.
    pub start: usize,
    /// A later `thread_rolled_back` removed the turn (only [`all_user_turns_in_rollout`]
    /// returns such turns).
    pub rolled_back: bool,
}

impl UserTurn {
    /// The turn's record: its message item, else its event.
    pub(crate) fn record(&self) -> usize {
        self.message.or(self.event).unwrap_or(self.start)
    }

    fn first_record(&self) -> usize {
        match (self.message, self.event) {
            (Some(message), Some(event)) => message.min(event),
            (Some(index), None) | (None, Some(index)) => index,
            (None, None) => 0,
        }
    }
}

/// The user turns of `items` counted from `records`, rolled-back turns removed.
pub(crate) fn user_turns_in_rollout(items: &[RolloutItem], records: TurnRecords) -> Vec<UserTurn> {
    let mut turns = all_user_turns_in_rollout(items, records);
    turns.retain(|turn| !turn.rolled_back);
    turns
}

/// Every user turn of `items` counted from `records`, in file order, the ones a later
/// rollback removed included and marked ([`UserTurn::rolled_back`]): what a transcript that
/// shows rolled-back turns walks.
pub fn all_user_turns_in_rollout(items: &[RolloutItem], records: TurnRecords) -> Vec<UserTurn> {
    let mut indexer = TurnIndexer::of(records);
    for item in items {
        indexer.push(item);
    }
    indexer.finish(records)
}

/// Whether a turn of the index could start at `item` ([`UserTurn::start`]): every start is a
/// `task_started`, a person's message record (`user_message`, a completed item) or a
/// turn-starting response item (the index's invariant its tests check).
#[cfg(test)]
pub(crate) fn may_start_turn(item: &RolloutItem) -> bool {
    match item {
        RolloutItem::EventMsg(
            EventMsg::TurnStarted(_) | EventMsg::UserMessage(_) | EventMsg::ItemCompleted(_),
        ) => true,
        RolloutItem::ResponseItem(response) => is_user_turn_boundary(response),
        _ => false,
    }
}

/// True for a response item core says starts a user turn.
pub(crate) fn is_boundary(item: &RolloutItem) -> bool {
    matches!(item, RolloutItem::ResponseItem(response) if is_user_turn_boundary(response))
}

/// The number of user turns of a file read one line at a time (a stream): what
/// [`user_turns`] counts for the whole file, keeping a few words per recent turn segment
/// and a byte per older one instead of the items. Every rule of [`TurnRecords`] is counted
/// side by side, with rollbacks applied by the one segment rule, and the rule the whole file
/// calls for is chosen at the end.
#[derive(Debug, Clone)]
pub(crate) struct UserTurnCounter {
    indexer: TurnIndexer,
}

impl Default for UserTurnCounter {
    /// A counter that has seen nothing.
    fn default() -> Self {
        Self {
            indexer: TurnIndexer::every_rule(false),
        }
    }
}

/// The rules [`UserTurnCounter`] counts, the event rules first in the order
/// [`TurnRecords::of_items`] prefers them.
const COUNTED_RULES: [TurnRecords; 4] = [
    TurnRecords::UserMessageEvents,
    TurnRecords::CompletedUserMessages,
    TurnRecords::BoundaryItems,
    TurnRecords::BoundaryItemsInTurns,
];

impl UserTurnCounter {
    /// Notes the format of a line that loaded (an item, a legacy marker or an opaque line):
    /// a file with pre-envelope lines counts turn-starting items ([`TurnRecords::of`]).
    pub(crate) fn note_format(&mut self, format: LineFormat) {
        self.indexer.note_format(format);
    }

    /// Takes the next item of the file.
    pub(crate) fn push(&mut self, item: &RolloutItem) {
        self.indexer.push(item);
    }

    /// The rule the file's turns are counted by.
    pub(crate) fn records(&self) -> TurnRecords {
        self.indexer.records()
    }

    /// The user turns that survive the file's rollbacks, under the rule the file calls for
    /// ([`TurnRecords::of`]).
    pub(crate) fn count(&self) -> usize {
        self.indexer.surviving_count(self.records())
    }
}

/// The turn index of a file read one line at a time: every user turn, rolled-back ones
/// marked, as [`all_user_turns_in_rollout`] gives for the whole file under
/// [`TurnRecords::of`], keeping the turns (a few bytes each, `turns/packed.rs`) instead of
/// the items. A reader that streams a file twice (first the index, then the items it renders
/// turn by turn) builds this on its first pass.
#[derive(Debug, Clone)]
pub struct StreamedTurnIndex {
    indexer: TurnIndexer,
}

impl Default for StreamedTurnIndex {
    /// An index that has seen nothing.
    fn default() -> Self {
        Self {
            indexer: TurnIndexer::every_rule(true),
        }
    }
}

impl StreamedTurnIndex {
    /// Notes the format of a line that loaded (an item, a legacy marker or an opaque line):
    /// a file with pre-envelope lines counts turn-starting items ([`TurnRecords::of`]).
    pub fn note_format(&mut self, format: LineFormat) {
        self.indexer.note_format(format);
    }

    /// Takes the next item of the file.
    pub fn push(&mut self, item: &RolloutItem) {
        self.indexer.push(item);
    }

    /// Takes the item at `position` in a numbering of the reader's choice that increases
    /// along the file and may leave gaps: a reader that passes over lines numbers items by
    /// their lines (it cannot know whether a line it did not read is an item). The turns
    /// then carry these positions.
    pub fn push_at(&mut self, position: usize, item: &RolloutItem) {
        self.indexer.push_at(position, item);
    }

    /// Whether a reader may pass over the line `raw` unread, told from its type tags: unless
    /// [`StreamedTurnIndex::reads_next_item`], such a line changes nothing whatever it
    /// holds (`turns/passing.rs`).
    pub fn may_pass_over(raw: &[u8]) -> bool {
        passing::may_pass_over(raw)
    }

    /// Whether the next item changes the index whatever its type: then a reader reads the
    /// next line whole even when [`StreamedTurnIndex::may_pass_over`] says it may not.
    pub fn reads_next_item(&self) -> bool {
        self.indexer.reads_next_item()
    }

    /// The rule the file's turns are counted by so far, and every turn under it read so far in
    /// file order, none marked rolled back: what a replay asks, read from the index in place.
    pub(crate) fn every_turn(&self) -> (TurnRecords, impl Iterator<Item = UserTurn> + '_) {
        let records = self.indexer.records();
        (records, self.indexer.every_turn(records))
    }

    /// The rule the file's turns are counted by, and every turn under it in file order.
    pub fn finish(self) -> (TurnRecords, Vec<UserTurn>) {
        let records = self.indexer.records();
        (records, self.indexer.finish(records))
    }
}

/// The user turns of a loaded file (see the module docs).
pub fn user_turns(contents: &RolloutContents) -> Vec<UserTurn> {
    user_turns_in_rollout(contents.items(), TurnRecords::of(contents))
}

/// More turns were asked to be dropped than the file has.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the file has {turns} user turn(s); cannot drop {requested}")]
pub struct TooFewTurns {
    /// The file's user turns.
    pub turns: usize,
    /// How many were asked to be dropped.
    pub requested: usize,
}

/// Its line builders (`line`, `user_item`, `task_started`, ...) serve the crate's other tests.
#[cfg(test)]
#[path = "turns_tests.rs"]
pub(crate) mod tests;
