//! Where a fork may cut a rollout: the positions of the user messages that survive the
//! rollbacks recorded in the file, and the cut before one of them.

use codex_core::event_mapping::parse_turn_item;
use codex_core::turn_boundary::is_user_turn_boundary;
use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

/// Indices of the items that are a person's message (`parse_turn_item` gives a
/// `UserMessage`), with rolled-back ones removed: a `thread_rolled_back {num_turns}` marker
/// forgets the last `num_turns` positions recorded before it (saturating).
///
/// Deliberately narrower than a turn boundary: injected context, hook prompts, assistant
/// messages and agent messages are not positions a person can fork from.
pub fn user_message_positions_in_rollout(items: &[RolloutItem]) -> Vec<usize> {
    let mut positions = Vec::new();
    for (index, item) in items.iter().enumerate() {
        match item {
            RolloutItem::ResponseItem(message @ ResponseItem::Message { .. })
                if matches!(parse_turn_item(message), Some(TurnItem::UserMessage(_))) =>
            {
                positions.push(index);
            }
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
                let num_turns = usize::try_from(rollback.num_turns).unwrap_or(usize::MAX);
                positions.truncate(positions.len().saturating_sub(num_turns));
            }
            _ => {}
        }
    }
    positions
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
    /// is there); see [`crate::turns`], which finds a turn's first item.
    BeforeItem(usize),
}

/// The number of leading items a fork at `point` keeps.
///
/// The cut is placed before the chosen user message (or item), and then moved up to the
/// `task_started` of that turn when only turn preamble (turn settings, context messages,
/// non-terminal events) lies between them, so the fork does not end with a turn that started
/// and never finished. The walk up never crosses a rollback, the end of a turn, another
/// turn's user message (item or event) or any other model item.
pub fn fork_cut(items: &[RolloutItem], point: ForkPoint) -> usize {
    if let ForkPoint::BeforeItem(index) = point {
        return if index >= items.len() {
            items.len()
        } else {
            turn_start(items, index, 0)
        };
    }
    let positions = user_message_positions_in_rollout(items);
    let chosen = match point {
        ForkPoint::KeepAll => None,
        ForkPoint::BeforeNthLastUserMessage(0) => None,
        ForkPoint::BeforeNthLastUserMessage(n) => {
            let from = positions.len().saturating_sub(n);
            positions.get(from).map(|&position| (from, position))
        }
        ForkPoint::BeforeNthUserMessage(n) => positions.get(n).map(|&position| (n, position)),
        ForkPoint::BeforeItem(_) => None,
    };
    let Some((rank, position)) = chosen else {
        return items.len();
    };
    let floor = rank
        .checked_sub(1)
        .and_then(|previous| positions.get(previous))
        .map_or(0, |&previous| previous + 1);
    turn_start(items, position, floor)
}

/// Walks up from the item at `position` (not above `floor`) over turn preamble; the index of
/// the turn's `task_started` when one is reached, else `position`.
fn turn_start(items: &[RolloutItem], position: usize, floor: usize) -> usize {
    let mut index = position;
    while index > floor {
        index -= 1;
        match &items[index] {
            RolloutItem::EventMsg(EventMsg::TurnStarted(_)) => return index,
            RolloutItem::EventMsg(
                EventMsg::TurnComplete(_)
                | EventMsg::TurnAborted(_)
                | EventMsg::ThreadRolledBack(_)
                | EventMsg::UserMessage(_),
            ) => break,
            RolloutItem::ResponseItem(item) if is_user_turn_boundary(item) => break,
            RolloutItem::EventMsg(_)
            | RolloutItem::TurnContext(_)
            | RolloutItem::WorldState(_)
            | RolloutItem::TokenUsageRecord(_)
            | RolloutItem::InterAgentCommunicationMetadata(_)
            | RolloutItem::RetainedContext(_)
            | RolloutItem::SecurityRiskScore(_)
            | RolloutItem::RealtimeItem(_)
            | RolloutItem::Unknown(_) => {}
            RolloutItem::ResponseItem(ResponseItem::Message { role, .. })
                if role != "assistant" => {}
            RolloutItem::ResponseItem(_)
            | RolloutItem::InterAgentCommunication(_)
            | RolloutItem::Compacted(_)
            | RolloutItem::SessionMeta(_) => {
                break;
            }
        }
    }
    position
}
