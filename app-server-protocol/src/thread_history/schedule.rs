//! Handing a thread's turns on as they become final, so a whole thread is never held.
//!
//! A closed turn can still change: a later record may name it (item events carry a turn id),
//! land in it for lack of an open turn (a late record), or a rollback may drop it. Which of
//! these happens is only known further down the file, so it takes two passes over the same
//! rollout items: a first, cheap one ([`ThreadHistoryBuilder::planner`], which builds no item
//! but the person's messages) learns, for each turn, the last item that changes it and
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

/// A second pass's view of the schedule: the schedule and what was handed on.
#[derive(Debug, Clone, Default)]
pub(super) struct Following {
    schedule: TurnSchedule,
    handed_on: usize,
    /// The highest `item-<n>` id among the turns handed on (a rollback renumbers from it).
    minted: Option<u64>,
}

impl ThreadHistoryBuilder {
    /// A first pass: the thread's turns without their items ([`Self::turns_only`]), noting
    /// which item last changes each ([`Self::finish_schedule`]).
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

    /// The first pass's schedule, and its turns (without their items).
    pub fn finish_schedule(mut self) -> (Vec<Turn>, TurnSchedule) {
        self.close_current();
        let mut last_change = vec![None; usize::try_from(self.turns_closed).unwrap_or(0)];
        for turn in &self.closed {
            if let Some(slot) = usize::try_from(turn.seq)
                .ok()
                .and_then(|seq| last_change.get_mut(seq))
            {
                *slot = Some(turn.last_touch);
            }
        }
        let turns = self
            .closed
            .into_iter()
            .map(PendingTurn::into_turn)
            .collect();
        (turns, TurnSchedule { last_change })
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
