//! What counts as a user turn, for `inspect` and `fork`.
//!
//! The authority is the `user_message` event: core emits exactly one for each message a person
//! sends, and it is persisted by every writer since 2025. Counting user messages among the
//! response items instead is wrong on real files in both directions: files whose text was
//! redacted hide which user messages were injected context (they look typed), and files from
//! which lines were removed may lack the response item altogether. So:
//! - a file in the `{timestamp, type, payload}` envelope format has one user turn per
//!   `user_message` event, minus the turns a later `thread_rolled_back {num_turns}` removed
//!   (a fork that keeps no event has no turn, even if injected context looks typed);
//! - a file in the pre-envelope legacy format, which never had events, falls back to
//!   codex-rollout's `user_message_positions_in_rollout` (messages `parse_turn_item` shows as
//!   the person's, rollback-aware).
//!
//! A fork cuts the rollout before a user message item, so dropping the last `n` turns is
//! translated to "before the user message item recorded just before the `n`-th last surviving
//! event" (the recorder writes the item, then its event).

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::fork::{ForkPoint, user_message_positions_in_rollout};
use codex_rollout::load::RolloutContents;

/// Indices of the `user_message` events that survive the recorded rollbacks; `None` for a
/// legacy file, which records no events.
pub fn surviving_user_message_events(contents: &RolloutContents) -> Option<Vec<usize>> {
    if contents.has_legacy_lines() {
        return None;
    }
    let mut events = Vec::new();
    for (index, item) in contents.items().iter().enumerate() {
        match item {
            RolloutItem::EventMsg(EventMsg::UserMessage(_)) => events.push(index),
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
                let num_turns = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                events.truncate(events.len().saturating_sub(num_turns));
            }
            _ => {}
        }
    }
    Some(events)
}

/// The number of user turns of a rollout (see the module docs).
pub fn user_turn_count(contents: &RolloutContents) -> usize {
    match surviving_user_message_events(contents) {
        Some(events) => events.len(),
        None => user_message_positions_in_rollout(contents.items()).len(),
    }
}

/// Why a fork point could not be found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ForkPointError {
    /// More turns asked for than the file has.
    TooFewTurns { turns: usize },
    /// The turn's user message item is not in the file (lines were removed), so there is no
    /// item to cut before.
    NoMessageItem,
}

/// The fork point that drops the last `drop` user turns (0 keeps everything).
pub fn fork_point_dropping(
    contents: &RolloutContents,
    drop: usize,
) -> Result<ForkPoint, ForkPointError> {
    let turns = user_turn_count(contents);
    if drop > turns {
        return Err(ForkPointError::TooFewTurns { turns });
    }
    if drop == 0 {
        return Ok(ForkPoint::KeepAll);
    }
    let Some(events) = surviving_user_message_events(contents) else {
        return Ok(ForkPoint::BeforeNthLastUserMessage(drop));
    };
    let event = events[events.len() - drop];
    let floor = match events.len().checked_sub(drop + 1) {
        Some(previous) => events[previous],
        None => 0,
    };
    let positions = user_message_positions_in_rollout(contents.items());
    positions
        .iter()
        .rposition(|&position| position < event && position >= floor)
        .map(ForkPoint::BeforeNthUserMessage)
        .ok_or(ForkPointError::NoMessageItem)
}

#[cfg(test)]
#[path = "user_turns_tests.rs"]
mod tests;
