//! Phase B of reconstruction: replaying the surviving suffix of a rollout forward into a
//! [`ContextManager`], with core's own operations (`record_items`, `replace`,
//! `drop_last_n_user_turns`).
//!
//! Rollbacks are applied where they were recorded. A rollback normally drops turns recorded
//! since the last compaction, and core's `drop_last_n_user_turns` does exactly that. But a
//! rollback can also remove the turn a compaction happened in (and turns before it): the
//! compaction's replacement history has collapsed those turns, so dropping turns from it
//! cannot give back what was there before. The replay therefore keeps, for every compaction it
//! applies, the history just before it (an O(1) copy-on-write snapshot) and the number of turn
//! boundaries recorded since; a rollback that reaches past a compaction returns to that
//! snapshot and drops the remaining turns there.

use codex_core::build_legacy_compacted_history;
use codex_core::is_user_turn_boundary;
use codex_core::{ContextManager, TruncationPolicy, is_api_message};
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

/// What the replay produced.
#[derive(Debug, Default)]
pub(crate) struct Replay {
    pub(crate) history: ContextManager,
    /// A compaction without replacement history was rebuilt from its summary message.
    pub(crate) legacy_compaction: bool,
    pub(crate) rollbacks_applied: usize,
    /// Rollbacks that reached back past a compaction and restored the history before it.
    pub(crate) compactions_undone: usize,
}

/// The history as it was before one compaction was applied.
#[derive(Debug)]
struct Checkpoint {
    history: ContextManager,
    turns_since_base: usize,
}

/// The replay fed one item at a time (a stream's items as they are read).
#[derive(Debug)]
pub(crate) struct Replayer {
    replay: Replay,
    policy: TruncationPolicy,
    /// Turn boundaries recorded since the history was last replaced.
    turns_since_base: usize,
    checkpoints: Vec<Checkpoint>,
}

/// A rollout item the replay can consume: an owned item is moved into history, a borrowed
/// one is cloned, and only where history keeps it.
pub(crate) trait ReplayItem {
    /// The item, to look at.
    fn item(&self) -> &RolloutItem;
    /// The response item, when this is one.
    fn into_response(self) -> Option<ResponseItem>;
    /// The replacement history of a compaction, when this is one that has it.
    fn into_replacement(self) -> Option<Vec<ResponseItem>>;
}

impl ReplayItem for RolloutItem {
    fn item(&self) -> &RolloutItem {
        self
    }

    fn into_response(self) -> Option<ResponseItem> {
        match self {
            RolloutItem::ResponseItem(response) => Some(response),
            _ => None,
        }
    }

    fn into_replacement(self) -> Option<Vec<ResponseItem>> {
        match self {
            RolloutItem::Compacted(compacted) => compacted.replacement_history,
            _ => None,
        }
    }
}

impl ReplayItem for &RolloutItem {
    fn item(&self) -> &RolloutItem {
        self
    }

    fn into_response(self) -> Option<ResponseItem> {
        match self {
            RolloutItem::ResponseItem(response) => Some(response.clone()),
            _ => None,
        }
    }

    fn into_replacement(self) -> Option<Vec<ResponseItem>> {
        match self {
            RolloutItem::Compacted(compacted) => compacted.replacement_history.clone(),
            _ => None,
        }
    }
}

/// What replay does with one item, decided before the item is consumed.
enum Action {
    Record { boundary: bool },
    RecordInterAgent,
    Compact,
    LegacyCompact,
    RollBack(usize),
    Skip,
}

fn action(item: &RolloutItem) -> Action {
    match item {
        RolloutItem::ResponseItem(response) if is_api_message(response) => Action::Record {
            boundary: is_user_turn_boundary(response),
        },
        RolloutItem::Compacted(compacted) if compacted.replacement_history.is_some() => {
            Action::Compact
        }
        RolloutItem::Compacted(_) => Action::LegacyCompact,
        RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
            Action::RollBack(usize::try_from(rollback.num_turns).unwrap_or(usize::MAX))
        }
        // An older writer's plain inter-agent line: the recipient's model saw it as the agent
        // message it converts to (newer writers record that message as a response item).
        RolloutItem::InterAgentCommunication(_) => Action::RecordInterAgent,
        RolloutItem::ResponseItem(_)
        | RolloutItem::SessionMeta(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::EventMsg(_)
        | RolloutItem::InterAgentCommunicationMetadata(_)
        | RolloutItem::TokenUsageRecord(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::DynamicToolsUpdated(_)
        | RolloutItem::RetainedContext(_)
        | RolloutItem::SecurityRiskScore(_)
        | RolloutItem::RealtimeItem(_)
        | RolloutItem::Unknown(_) => Action::Skip,
    }
}

/// Replays `suffix` on top of `base` (a replacement history, or nothing).
pub(crate) fn replay<I>(
    base: Option<Vec<ResponseItem>>,
    suffix: I,
    policy: TruncationPolicy,
) -> Replay
where
    I: IntoIterator,
    I::Item: ReplayItem,
{
    let mut replayer = Replayer::new(base, policy);
    for item in suffix {
        replayer.apply(item);
    }
    replayer.finish()
}

impl Replayer {
    /// A replay on top of `base` (a replacement history, or nothing).
    pub(crate) fn new(base: Option<Vec<ResponseItem>>, policy: TruncationPolicy) -> Self {
        let mut replayer = Replayer {
            replay: Replay::default(),
            policy,
            turns_since_base: 0,
            checkpoints: Vec::new(),
        };
        if let Some(base) = base {
            replayer.replay.history.replace(base);
        }
        replayer
    }

    /// What was replayed.
    pub(crate) fn finish(self) -> Replay {
        self.replay
    }

    /// Replays the next item.
    pub(crate) fn apply(&mut self, item: impl ReplayItem) {
        match action(item.item()) {
            Action::Record { boundary } => {
                if boundary {
                    self.turns_since_base += 1;
                }
                if let Some(response) = item.into_response() {
                    self.replay
                        .history
                        .record_owned_items(std::iter::once(response), self.policy);
                }
            }
            Action::Compact => {
                if let Some(replacement) = item.into_replacement() {
                    self.compact(replacement);
                }
            }
            Action::LegacyCompact => {
                if let RolloutItem::Compacted(compacted) = item.item() {
                    self.replay.legacy_compaction = true;
                    let replacement = build_legacy_compacted_history(
                        self.replay.history.raw_items(),
                        &compacted.message,
                    );
                    self.compact(replacement);
                }
            }
            Action::RecordInterAgent => {
                if let RolloutItem::InterAgentCommunication(message) = item.item() {
                    let response = message.to_model_input_item();
                    self.replay
                        .history
                        .record_owned_items(std::iter::once(response), self.policy);
                }
            }
            Action::RollBack(num_turns) => self.roll_back(num_turns),
            Action::Skip => {}
        }
    }

    /// Applies a replacement history, remembering the history before it.
    fn compact(&mut self, replacement: Vec<ResponseItem>) {
        self.checkpoints.push(Checkpoint {
            history: self.replay.history.clone(),
            turns_since_base: self.turns_since_base,
        });
        self.replay.history.replace(replacement);
        self.turns_since_base = 0;
    }

    fn roll_back(&mut self, num_turns: usize) {
        if num_turns == 0 {
            return;
        }
        self.replay.rollbacks_applied += 1;
        let recorded = self.turns_since_base
            + self
                .checkpoints
                .iter()
                .map(|checkpoint| checkpoint.turns_since_base)
                .sum::<usize>();
        let mut num_turns = num_turns.min(recorded);
        if num_turns == 0 {
            return;
        }
        while num_turns > self.turns_since_base {
            let Some(checkpoint) = self.checkpoints.pop() else {
                break;
            };
            num_turns -= self.turns_since_base;
            self.replay.history = checkpoint.history;
            self.turns_since_base = checkpoint.turns_since_base;
            self.replay.compactions_undone += 1;
        }
        let drop = u32::try_from(num_turns).unwrap_or(u32::MAX);
        self.replay.history.drop_last_n_user_turns(drop);
        self.turns_since_base = self.turns_since_base.saturating_sub(num_turns);
    }
}
