//! The user turns of a rollout: which turns a file holds after its rollbacks, and where each
//! one starts, for counting (`inspect`) and for forking without the last turns.
//!
//! The authority is the `user_message` event: core emits exactly one for each message a person
//! sends, and every writer since 2025 persists it. Counting user messages among the response
//! items instead is wrong on real files in both directions: files whose text was redacted hide
//! which user messages were injected context (they look typed), and files from which lines
//! were removed may lack the response item altogether. So:
//! - a file in the `{timestamp, type, payload}` envelope format has one user turn per
//!   `user_message` event;
//! - a file in the pre-envelope legacy format, which never had events, has one user turn per
//!   response item core's [`is_user_turn_boundary`] says starts one;
//!
//! and in both, a `thread_rolled_back {num_turns}` marker removes the last `num_turns` turns
//! recorded before it (saturating), as core's rollback does to history.
//!
//! A turn's first line is its user message item when the file has it (the recorder writes the
//! item, then its event), else its event; a fork cuts before that line
//! ([`ForkPoint::BeforeItem`]), which codex-rollout then moves up to the turn's `task_started`.

use codex_core::turn_boundary::is_user_turn_boundary;
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

use crate::fork::ForkPoint;
use crate::load::RolloutContents;

/// Which records a file's user turns are counted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TurnRecords {
    /// `user_message` events (envelope files).
    UserMessageEvents,
    /// Turn-starting response items (legacy files, which have no events).
    BoundaryItems,
}

impl TurnRecords {
    /// The records that count for `contents`: legacy files have no events.
    pub fn of(contents: &RolloutContents) -> Self {
        if contents.has_legacy_lines() {
            Self::BoundaryItems
        } else {
            Self::UserMessageEvents
        }
    }
}

/// One user turn that survives the file's rollbacks, by item index.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UserTurn {
    /// The turn's `user_message` event (always present when counting events).
    pub event: Option<usize>,
    /// The response item that carries the message, when the file has it.
    pub message: Option<usize>,
}

impl UserTurn {
    /// The turn's first recorded item: a fork without this turn keeps only what precedes it.
    pub fn first_item(&self) -> usize {
        match (self.message, self.event) {
            (Some(message), Some(event)) => message.min(event),
            (Some(index), None) | (None, Some(index)) => index,
            (None, None) => 0,
        }
    }
}

/// The user turns of `items` counted from `records`, rolled-back turns removed.
pub fn user_turns_in_rollout(items: &[RolloutItem], records: TurnRecords) -> Vec<UserTurn> {
    let mut turns: Vec<UserTurn> = Vec::new();
    // The latest turn-starting message item not yet claimed by an event.
    let mut pending_message = None;
    for (index, item) in items.iter().enumerate() {
        match item {
            RolloutItem::ResponseItem(response) if starts_turn(response) => match records {
                TurnRecords::BoundaryItems => turns.push(UserTurn {
                    event: None,
                    message: Some(index),
                }),
                TurnRecords::UserMessageEvents => pending_message = Some(index),
            },
            RolloutItem::EventMsg(EventMsg::UserMessage(_))
                if records == TurnRecords::UserMessageEvents =>
            {
                turns.push(UserTurn {
                    event: Some(index),
                    message: pending_message.take(),
                });
            }
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
                let num_turns = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                turns.truncate(turns.len().saturating_sub(num_turns));
                pending_message = None;
            }
            // The recorder writes a message item right before its event; anything the model
            // saw in between means the pending item belongs to no event.
            RolloutItem::EventMsg(EventMsg::TurnComplete(_) | EventMsg::TurnAborted(_))
            | RolloutItem::ResponseItem(_)
            | RolloutItem::Compacted(_) => {
                pending_message = None;
            }
            _ => {}
        }
    }
    turns
}

/// Whether a recorded response item starts a user turn (core decides; a box or a plain item
/// both coerce here).
fn starts_turn(item: &ResponseItem) -> bool {
    is_user_turn_boundary(item)
}

/// The user turns of a loaded file (see the module docs).
pub fn user_turns(contents: &RolloutContents) -> Vec<UserTurn> {
    user_turns_in_rollout(contents.items(), TurnRecords::of(contents))
}

/// The number of user turns of a loaded file: what `inspect` reports and `fork` drops from.
pub fn user_turn_count(contents: &RolloutContents) -> usize {
    user_turns(contents).len()
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

/// The fork point that drops the last `drop` user turns of `turns` (0 keeps everything):
/// before the first item of the `drop`-th last turn.
pub fn fork_point_dropping_turns(
    turns: &[UserTurn],
    drop: usize,
) -> Result<ForkPoint, TooFewTurns> {
    if drop == 0 {
        return Ok(ForkPoint::KeepAll);
    }
    let first_dropped = turns.len().checked_sub(drop).ok_or(TooFewTurns {
        turns: turns.len(),
        requested: drop,
    })?;
    Ok(turns.get(first_dropped).map_or(ForkPoint::KeepAll, |turn| {
        ForkPoint::BeforeItem(turn.first_item())
    }))
}

#[cfg(test)]
#[path = "turns_tests.rs"]
mod tests;
