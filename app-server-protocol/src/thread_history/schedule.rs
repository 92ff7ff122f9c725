//! Handing a thread's turns on as they become final, so a whole thread is never held.
//!
//! A closed turn can still change: a later record may name it (item events carry a turn id),
//! land in it for lack of an open turn (a late record), or a rollback may drop it. Which of
//! these happens is only known further down the file, so it takes two passes over the same
//! rollout items: a first, cheap one ([`ThreadHistoryBuilder::planner`], which builds no item
//! but the person's messages, and keeps of each closed turn before the last two only its id
//! and place: a few words a turn) learns, for each turn, the last item that changes it and
//! whether it survives ([`TurnSchedule`]); a second one ([`ThreadHistoryBuilder::following`])
//! builds the items and hands each turn on ([`ThreadHistoryBuilder::take_final_turns`]) once
//! the items after it no longer change it. The turns handed on, followed by those
//! [`ThreadHistoryBuilder::finish`] returns, are the turns of one pass, item for item
//! (tested on every real fixture in `tests/scheduled_turns.rs`).
//!
//! Turns are matched across the passes by the order they are closed in: both passes take the
//! same turn decisions (the planner's turns are the thread's turns, as `inspect` counts
//! them). What the first pass marks is a superset of what changes a turn (every call and
//! output it counts, whether or not the complete mode shows it), so a turn may wait longer
//! than it needs to, never too little.

use super::ThreadHistoryBuilder;
use super::pending_turn::PendingTurn;
use crate::v2::Turn;

/// When each turn of a thread stops changing: what a first pass learns for the second.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TurnSchedule {
    /// By the order turns were closed in: the index of the last rollout item that changes
    /// the turn, or `None` for a turn a rollback drops.
    last_change: Vec<Option<u64>>,
}

impl TurnSchedule {
    /// The turns the thread shows.
    pub fn turns(&self) -> usize {
        self.last_change.iter().flatten().count()
    }
}

/// What a first pass keeps of a closed turn before the last two: what later records, rollbacks
/// and the schedule ask of it (its items are not kept by a first pass anyway).
#[derive(Debug, Clone)]
pub(super) struct Settled {
    id: Box<str>,
    seq: u64,
    last_touch: u64,
    /// The highest `item-<n>` id it showed.
    minted: Option<u64>,
}

impl Settled {
    fn of(turn: PendingTurn) -> Self {
        Self {
            minted: turn.highest_minted_item(),
            seq: turn.seq,
            last_touch: turn.last_touch,
            id: turn.turn.id.into_boxed_str(),
        }
    }
}

/// A second pass's view of the schedule: the schedule and what was handed on.
#[derive(Debug, Clone, Default)]
pub(super) struct Following {
    schedule: TurnSchedule,
    handed_on: usize,
    /// The highest `item-<n>` id among the turns handed on (a rollback renumbers from it).
    minted: Option<u64>,
}

impl ThreadHistoryBuilder {
    /// A first pass: the thread's turns as [`Self::turns_only`] counts them, noting which item
    /// last changes each ([`Self::finish_schedule`]); of a closed turn before the last two it
    /// keeps only its id and place, so its memory is a few words a turn (`inspect` counts
    /// turns with it; [`Self::finish`] of a first pass gives only the turns not settled).
    pub fn planner() -> Self {
        Self {
            planning: true,
            ..Self::turns_only()
        }
    }

    /// Whether this builder is a first pass ([`Self::planner`]).
    pub(super) fn plans(&self) -> bool {
        self.planning
    }

    /// The first pass's schedule ([`TurnSchedule::turns`] counts the thread's turns).
    pub fn finish_schedule(mut self) -> TurnSchedule {
        self.close_current();
        let mut last_change = vec![None; usize::try_from(self.turns_closed).unwrap_or(0)];
        let places = self
            .settled
            .iter()
            .map(|turn| (turn.seq, turn.last_touch))
            .chain(self.closed.iter().map(|turn| (turn.seq, turn.last_touch)));
        for (seq, last_touch) in places {
            if let Some(slot) = usize::try_from(seq)
                .ok()
                .and_then(|seq| last_change.get_mut(seq))
            {
                *slot = Some(last_touch);
            }
        }
        TurnSchedule { last_change }
    }

    /// Planning, settles the closed turns before the last two: only their ids and places
    /// are kept (the last closed turn takes late records; a rollback may make the one before
    /// it the last).
    pub(super) fn settle_early_turns(&mut self) {
        let Some(settle) = self.closed.len().checked_sub(2) else {
            return;
        };
        let settled: Vec<Settled> = self.closed.drain(..settle).map(Settled::of).collect();
        self.settled.extend(settled);
    }

    /// Drops the last `drop` settled turns (a rollback reaching past the closed ones); when no
    /// closed turn is left, the newest settled one becomes the last closed turn again.
    pub(super) fn drop_settled(&mut self, drop: usize) {
        let keep = self.settled.len().saturating_sub(drop);
        self.settled.truncate(keep);
        if self.closed.is_empty()
            && let Some(last) = self.settled.pop()
        {
            self.closed.push(PendingTurn::restored(
                last.id.into(),
                last.seq,
                last.last_touch,
                last.minted,
            ));
        }
    }

    /// The highest minted item ids of the settled turns.
    pub(super) fn minted_settled(&self) -> impl Iterator<Item = u64> + '_ {
        self.settled.iter().filter_map(|turn| turn.minted)
    }

    /// Marks the settled turn `turn_id` names as changed by the item being handled, when it
    /// names one (and neither the open turn nor a closed one): what a record into it does in
    /// a first pass.
    pub(super) fn touch_settled(&mut self, turn_id: Option<&str>) -> bool {
        let Some(id) = turn_id.filter(|id| !id.is_empty()) else {
            return false;
        };
        if self.settled.is_empty()
            || self.current.as_ref().is_some_and(|turn| turn.turn.id == id)
            || self.closed.iter().any(|turn| turn.turn.id == id)
        {
            return false;
        }
        let item_index = self.item_index;
        match self.settled.iter_mut().rev().find(|turn| &*turn.id == id) {
            Some(turn) => {
                turn.last_touch = item_index;
                true
            }
            None => false,
        }
    }

    /// A second pass over the items the first pass read, building the items of `mode`, that
    /// hands on each turn once `schedule` says nothing later changes it.
    pub fn following(self, schedule: TurnSchedule) -> Self {
        Self {
            schedule: Some(Following {
                schedule,
                ..Following::default()
            }),
            ..self
        }
    }

    /// The turns that became final since the last call, in order (none without a
    /// schedule). Each is as [`Self::finish`] would give it.
    pub fn take_final_turns(&mut self) -> Vec<Turn> {
        let Some(following) = &mut self.schedule else {
            return Vec::new();
        };
        let done = self
            .closed
            .iter()
            .take_while(|turn| {
                let seq = usize::try_from(turn.seq).unwrap_or(usize::MAX);
                let last = following.schedule.last_change.get(seq).copied().flatten();
                last.is_some_and(|last| last < self.item_index)
            })
            .count();
        if done == 0 {
            return Vec::new();
        }
        following.handed_on += done;
        self.closed
            .drain(..done)
            .map(|turn| {
                following.minted = following.minted.max(turn.highest_minted_item());
                turn.into_turn()
            })
            .collect()
    }

    /// How many turns were handed on ([`Self::take_final_turns`]).
    pub(super) fn turns_handed_on(&self) -> usize {
        self.schedule
            .as_ref()
            .map_or(0, |following| following.handed_on)
    }

    /// The highest minted item id among the turns handed on.
    pub(super) fn minted_handed_on(&self) -> Option<u64> {
        self.schedule
            .as_ref()
            .and_then(|following| following.minted)
    }
}
