//! The user-turn rule (see the parent's module docs) fed one item at a time, for readers that
//! never hold a whole file (the search index, which also stops and resumes in the middle of a
//! file): [`TurnTally::push`] says which user turn each item belongs to.
//!
//! The whole-file index chooses a file's records ([`TurnRecords::of_items`]) after seeing
//! every item; a tally must answer at once, so it counts under the best rule seen so far:
//! turn-starting response items until the first `user_message` event or completed
//! `UserMessage`, then that record only. Until a turn without a record ends, its turn-starting
//! items are held as one turn (they are the record's message and injected context when a
//! record follows). Real files record their first turn's record inside that turn, so both
//! give the same numbers (`tests/search_real.rs` checks it on every real file).
//!
//! Numbers count every turn in file order, rolled-back ones included: turns a later rollback
//! removes keep their numbers, so a number once given never changes as a file grows.

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{LineFormat, RolloutItem};
use serde::{Deserialize, Serialize};

use codex_core::is_user_turn_boundary;

use super::TurnRecords;

/// The state of the streaming turn rule: a few words, serializable so that an interrupted
/// reader can resume at the line where it stopped.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnTally {
    /// The record that counts, once one was seen (`None`: boundary items).
    records: Option<EventRecords>,
    /// Turns settled so far.
    count: u32,
    /// Turn-starting items of the current turn while no record is known: turns of their own
    /// if the turn ends without a record, the record's message and context if one comes.
    unclaimed: u32,
    /// A `task_started` was seen (boundary items count only inside turns).
    in_turns: bool,
    /// The file is in the pre-envelope format (every boundary item is a turn).
    legacy: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
enum EventRecords {
    UserMessageEvents,
    CompletedUserMessages,
}

impl EventRecords {
    fn of(item: &RolloutItem) -> Option<Self> {
        [Self::UserMessageEvents, Self::CompletedUserMessages]
            .into_iter()
            .find(|records| records.rule().is_record(item))
    }

    fn rule(self) -> TurnRecords {
        match self {
            Self::UserMessageEvents => TurnRecords::UserMessageEvents,
            Self::CompletedUserMessages => TurnRecords::CompletedUserMessages,
        }
    }
}

impl TurnTally {
    /// The number (1-based; 0 before the first turn) of the user turn `item`, the next item
    /// of the file (read from a line in `format`), belongs to. A pre-envelope line makes the
    /// file a pre-envelope one from there on.
    pub fn push(&mut self, item: &RolloutItem, format: LineFormat) -> u32 {
        self.legacy |= matches!(format, LineFormat::Legacy(_));
        if !self.legacy {
            let record = match self.records {
                Some(records) => records.rule().is_record(item).then_some(records),
                None => EventRecords::of(item),
            };
            if let Some(records) = record {
                // A record is a turn; turn-starting items before it in its turn were its
                // message and context.
                self.records = Some(records);
                self.unclaimed = 0;
                self.count += 1;
                return self.count;
            }
        }
        match item {
            RolloutItem::EventMsg(
                EventMsg::TurnStarted(_)
                | EventMsg::TurnComplete(_)
                | EventMsg::TurnAborted(_)
                | EventMsg::ThreadRolledBack(_),
            ) => {
                self.settle();
                if matches!(item, RolloutItem::EventMsg(EventMsg::TurnStarted(_))) {
                    self.in_turns = true;
                }
            }
            RolloutItem::ResponseItem(response) if is_user_turn_boundary(response) => {
                if self.legacy {
                    self.count += 1;
                    return self.count;
                }
                if self.records.is_none() && self.in_turns {
                    self.unclaimed += 1;
                }
                // The turn its record (or, without records, the turn's end) will make.
                return self.count + 1;
            }
            _ => {}
        }
        self.count + self.unclaimed.min(1)
    }

    /// The user turns of the items pushed so far (what the whole-file index counts, rolled-back
    /// turns included).
    pub fn turns(&self) -> u32 {
        self.count + self.unclaimed
    }

    /// A turn ended: without a record, each of its turn-starting items was a turn.
    fn settle(&mut self) {
        if self.records.is_none() {
            self.count += self.unclaimed;
        }
        self.unclaimed = 0;
    }
}
