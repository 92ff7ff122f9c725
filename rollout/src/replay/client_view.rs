//! The client view of a file taken one line at a time: what [`super::client_view_items`]
//! gives for the whole file, handed on item by item, so a resume view can be built from a
//! stream in the memory of the view rather than of the file.
//!
//! Whether the view holds rebuilt item events depends on which records the file counts its
//! turns by ([`TurnRecords::of`]), which only the whole file knows: a pre-envelope line
//! anywhere makes it [`TurnRecords::BoundaryItems`]; a `user_message` event or completed
//! `UserMessage` anywhere makes it an event rule (items as recorded); neither makes it
//! [`TurnRecords::BoundaryItemsInTurns`]. A stream keeps the first [`DECIDING_ITEMS`] items
//! back until what it has seen settles the rule (the first pre-envelope line or turn record
//! settles it; real files show one within their first lines), then commits to the rule those
//! items call for and hands everything on. At the end it checks the commitment against the
//! rule the whole file calls for ([`UserTurnCounter`], the streaming form of
//! [`TurnRecords::of`]); a file that contradicts it (a record or pre-envelope line only after
//! the first [`DECIDING_ITEMS`] items) is reported ([`ViewRuleChanged`]) so the caller
//! builds the view again with the rule known, from the whole file.
//!
//! Rebuilt events name the thread of the file's first `session_meta`; a stream that meets a
//! rebuilt item before any meta names the nil thread there (no resume view reads it).

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{LineFormat, RolloutItem};
use codex_protocol::thread_id::ThreadId;

use super::{
    ItemPlace, raw_line_time_ms, rebuilds_items, rebuilt_item_events, started_of, track_turn,
};
use crate::turns::{TurnRecords, UserTurnCounter, is_boundary};

/// Items a stream keeps back, at most, before it commits to the rule its view is built by.
pub const DECIDING_ITEMS: usize = 512;

/// The rule a stream committed to differs from the one the whole file calls for: the view
/// must be built again with [`ClientView::for_rule`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error(
    "the client view was built as for {committed:?} but the whole file counts its turns by \
     {file:?}"
)]
pub struct ViewRuleChanged {
    /// What the stream committed to after its first items.
    pub committed: TurnRecords,
    /// What the whole file calls for.
    pub file: TurnRecords,
}

/// The client view of a file, fed one item at a time in file order (see the module docs).
#[derive(Debug, Clone)]
pub struct ClientView {
    rule: Rule,
    counter: UserTurnCounter,
    /// Items kept back until the rule is committed: (line, its time, the item).
    head: Vec<(usize, Option<i64>, RolloutItem)>,
    thread_id: Option<ThreadId>,
    running_turn: Option<String>,
    in_turns: bool,
}

#[derive(Debug, Clone, Copy)]
enum Rule {
    /// Known before the first item (the whole file was loaded).
    Known(TurnRecords),
    /// Chosen from the first items of a stream.
    Committed(TurnRecords),
    /// Not chosen yet.
    Undecided,
}

impl ClientView {
    /// The view of a file whose rule is known (a loaded file: [`TurnRecords::of`]) and
    /// whose thread is `thread_id`.
    pub fn for_rule(records: TurnRecords, thread_id: ThreadId) -> Self {
        Self {
            rule: Rule::Known(records),
            thread_id: Some(thread_id),
            ..Self::streaming()
        }
    }

    /// The view of a file read as a stream, whose rule is found as it goes.
    pub fn streaming() -> Self {
        Self {
            rule: Rule::Undecided,
            counter: UserTurnCounter::default(),
            head: Vec::new(),
            thread_id: None,
            running_turn: None,
            in_turns: false,
        }
    }

    /// Notes the format of a line that loaded (an item, a legacy marker, an opaque line):
    /// a pre-envelope line decides the rule.
    pub fn note_format(&mut self, format: LineFormat) {
        self.counter.note_format(format);
    }

    /// Takes the item of line `line` (1-based), whose bytes are `raw`, and hands `out` the
    /// view's items it settles, in order.
    pub fn push(
        &mut self,
        line: usize,
        raw: &[u8],
        item: &RolloutItem,
        out: &mut impl FnMut(&RolloutItem),
    ) {
        self.push_at(line, raw_line_time_ms(raw), item, out);
    }

    /// [`ClientView::push`] for a caller that already has the line's time (its `timestamp`
    /// in milliseconds, `None` when it has none or it does not parse as RFC 3339): the raw
    /// line is not parsed a second time for it.
    pub fn push_at(
        &mut self,
        line: usize,
        line_ms: Option<i64>,
        item: &RolloutItem,
        out: &mut impl FnMut(&RolloutItem),
    ) {
        self.counter.push(item);
        match self.rule {
            Rule::Known(records) | Rule::Committed(records) => {
                self.emit(records, line, line_ms, item, out);
            }
            Rule::Undecided => {
                self.head.push((line, line_ms, item.clone()));
                let records = self.counter.records();
                if records != TurnRecords::BoundaryItemsInTurns || self.head.len() >= DECIDING_ITEMS
                {
                    self.commit(records, out);
                }
            }
        }
    }

    /// The user turns read so far that survive the rollbacks read so far, under the rule the
    /// items so far call for: the count [`crate::user_turns`] gives for the whole file once
    /// every item was pushed.
    pub fn user_turns(&self) -> usize {
        self.counter.count()
    }

    /// Hands on what is still kept back and checks the rule: the rule the view was built by,
    /// or [`ViewRuleChanged`] when the whole file calls for one that builds another view.
    pub fn finish(
        mut self,
        out: &mut impl FnMut(&RolloutItem),
    ) -> Result<TurnRecords, ViewRuleChanged> {
        let file = self.counter.records();
        match self.rule {
            Rule::Known(records) => Ok(records),
            Rule::Undecided => {
                self.commit(file, out);
                Ok(file)
            }
            Rule::Committed(committed) if same_view(committed, file) => Ok(file),
            Rule::Committed(committed) => Err(ViewRuleChanged { committed, file }),
        }
    }

    fn commit(&mut self, records: TurnRecords, out: &mut impl FnMut(&RolloutItem)) {
        self.rule = Rule::Committed(records);
        for (line, line_ms, item) in std::mem::take(&mut self.head) {
            self.emit(records, line, line_ms, &item, out);
        }
    }

    /// `item` and, when the rule rebuilds them, the item events rebuilt from it, right after.
    fn emit(
        &mut self,
        records: TurnRecords,
        line: usize,
        line_ms: Option<i64>,
        item: &RolloutItem,
        out: &mut impl FnMut(&RolloutItem),
    ) {
        out(item);
        if !rebuilds_items(records) {
            return;
        }
        match item {
            RolloutItem::SessionMeta(meta) => {
                self.thread_id.get_or_insert(meta.meta.id);
            }
            RolloutItem::EventMsg(msg) => {
                if let EventMsg::TurnStarted(_) = msg {
                    self.in_turns = true;
                }
                track_turn(&mut self.running_turn, msg);
                if let EventMsg::ItemCompleted(done) = msg {
                    out(&RolloutItem::EventMsg(started_of(done)));
                }
            }
            RolloutItem::ResponseItem(response) => {
                // A person's message only where it opens a turn under the rule: the turn
                // index's own decision.
                let turn_message = records.opens_turn(item, is_boundary(item), self.in_turns);
                let place = ItemPlace {
                    line,
                    line_ms,
                    thread_id: self.thread_id.unwrap_or_else(ThreadId::unrecorded),
                    running_turn: self.running_turn.as_deref(),
                };
                if let Some(pair) = rebuilt_item_events(response, place, turn_message) {
                    for msg in pair {
                        out(&RolloutItem::EventMsg(msg));
                    }
                }
            }
            _ => {}
        }
    }
}

/// Whether two rules build the same view: the two event rules give the items as recorded.
fn same_view(a: TurnRecords, b: TurnRecords) -> bool {
    a == b || (!rebuilds_items(a) && !rebuilds_items(b))
}

#[cfg(test)]
#[path = "client_view_tests.rs"]
mod tests;
