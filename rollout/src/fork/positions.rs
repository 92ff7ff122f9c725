//! Where a fork may cut a rollout: before one of the user turns that survive the rollbacks
//! recorded in the file, as the turn index ([`crate::turns`]) finds them.

use codex_protocol::rollout::RolloutItem;

use crate::turns::{TurnRecords, UserTurn, user_turns_in_rollout};

/// Indices of the records of the user turns that survive the file's rollbacks: each turn's
/// message item, or its event when the file lost the item. The turns are the turn index's
/// ([`user_turns`](crate::user_turns)); this is the upstream-named view of them.
pub fn user_message_positions_in_rollout(items: &[RolloutItem]) -> Vec<usize> {
    user_turns_in_rollout(items, TurnRecords::of_items(items))
        .iter()
        .map(UserTurn::record)
        .collect()
}

/// Which part of a rollout a fork keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ForkPoint {
    /// Everything.
    KeepAll,
    /// Everything before the `n`-th last surviving user message (1 = drop the last turn).
    /// `0` keeps everything; more than there are keeps only what precedes the first one.
    BeforeNthLastUserMessage(usize),
    /// Everything before the `n`-th surviving user message counted from the start, 0-based
    /// (upstream's `nth_user_message`). When there are not `n + 1` of them, everything.
    BeforeNthUserMessage(usize),
    /// Everything before the item at this index (past the end: everything). The cut for a
    /// turn whose user message item is missing from the file (only its `user_message` event
    /// is there); see [`user_turns`](crate::user_turns), which finds a turn's first item.
    BeforeItem(usize),
}

impl ForkPoint {
    /// The number of leading items of a file of `len` items that a fork at this point keeps,
    /// given the file's surviving user turns (the turn index): a cut is always at a turn's
    /// first item ([`UserTurn::start`], its `task_started` when one opens it), so a fork
    /// never ends inside a turn that started and never finished.
    pub(crate) fn cut(self, turns: &[UserTurn], len: usize) -> usize {
        let turn = match self {
            ForkPoint::KeepAll | ForkPoint::BeforeNthLastUserMessage(0) => None,
            ForkPoint::BeforeNthLastUserMessage(n) => turns.get(turns.len().saturating_sub(n)),
            ForkPoint::BeforeNthUserMessage(n) => turns.get(n),
            ForkPoint::BeforeItem(index) => return index.min(len),
        };
        turn.map_or(len, |turn| turn.start.min(len))
    }
}

#[cfg(test)]
/// The number of leading items of `items` (an enveloped file's) a fork at `point` keeps:
/// [`ForkPoint::cut`] over the turn index of `items`.
pub(crate) fn fork_cut(items: &[RolloutItem], point: ForkPoint) -> usize {
    let turns = user_turns_in_rollout(items, TurnRecords::of_items(items));
    point.cut(&turns, items.len())
}
