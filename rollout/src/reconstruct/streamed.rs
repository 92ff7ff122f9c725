//! Rebuilding a history in two forward passes over a file, holding the history and never the
//! file: what resume does when reading from the end cannot answer (no compaction survives,
//! or the one that does lies far back).
//!
//! Pass one ([`StreamedReconstruction::survey`]) sees every item and keeps only what the
//! reverse scan needs of each ([`Survey`]): which compaction is the base, where replay starts,
//! the settings and window. Pass two ([`ReplayPlan::replay`]) hands over the items from the
//! base on, which are replayed as they come. The rule is the one the slice functions use
//! (`Survey` is how they decide too), so both passes together give exactly what
//! [`super::reconstruct_history_with`] gives for the same items.

use codex_protocol::rollout::{RolloutItem, TurnContextItem};

use super::replay::Replayer;
use super::{Earlier, Missing, Plan, ReconstructOptions, ReconstructedHistory, Survey};

/// Pass one of a two-pass rebuild (see the module docs).
#[derive(Debug)]
pub(crate) struct StreamedReconstruction {
    survey: Survey,
}

impl Default for StreamedReconstruction {
    fn default() -> Self {
        Self::new()
    }
}

impl StreamedReconstruction {
    /// An empty first pass.
    pub(crate) fn new() -> Self {
        Self {
            survey: Survey::new(),
        }
    }

    /// Takes the next item of the file, in order (every item: their indices are counted).
    pub(crate) fn survey(&mut self, item: &RolloutItem) {
        self.survey.push(item);
    }

    /// Ends pass one: what pass two must hand over.
    pub(crate) fn plan(self, options: &ReconstructOptions) -> ReplayPlan {
        let plan = self.survey.finish();
        let first_needed = plan.base().unwrap_or_default();
        let replayer = match plan.base() {
            Some(_) => None,
            None => Some(Replayer::new(None, options.truncation_policy)),
        };
        ReplayPlan {
            plan,
            policy: options.truncation_policy,
            first_needed,
            replayer,
            reference: None,
        }
    }
}

/// Pass two of a two-pass rebuild (see the module docs).
#[derive(Debug)]
pub(crate) struct ReplayPlan {
    plan: Plan,
    policy: codex_core::TruncationPolicy,
    first_needed: usize,
    /// Started at the base (or at once, without one).
    replayer: Option<Replayer>,
    reference: Option<TurnContextItem>,
}

impl ReplayPlan {
    /// Index of the first item pass two must hand over; the ones before it are not needed.
    pub(crate) fn first_needed(&self) -> usize {
        self.first_needed
    }

    /// Whether a compaction with a replacement history survives among the items surveyed
    /// (it is then the base replay starts from).
    pub(crate) fn has_base(&self) -> bool {
        self.plan.base().is_some()
    }

    /// What the items surveyed (the end of a file) lack for the whole file's answer, when
    /// their reverse scan knew everything the items before them could change (see
    /// [`Plan::missing`]); nothing missing means they answer alone.
    pub(crate) fn missing(&self) -> Option<Missing> {
        self.plan.missing()
    }

    /// Completes the plan of a suffix with what the items before it hold (see
    /// [`Plan::take_earlier`]).
    pub(crate) fn take_earlier(&mut self, earlier: Earlier) {
        self.plan.take_earlier(earlier);
    }

    /// The newest turn context of the file, whether or not a rollback removed its turn (the
    /// settings a prompt falls back to).
    pub(crate) fn newest_turn_context(&self) -> Option<&TurnContextItem> {
        self.plan.newest_turn_context()
    }

    /// Takes the item at `index` (from [`Self::first_needed`] on, in order, each once).
    pub(crate) fn replay(&mut self, index: usize, item: RolloutItem) {
        if index < self.first_needed {
            return;
        }
        if Some(index) == self.plan.base() {
            let base = match item {
                RolloutItem::Compacted(compacted) => compacted.replacement_history,
                _ => None,
            };
            self.replayer = Some(Replayer::new(base, self.policy));
            return;
        }
        if Some(index) == self.plan.reference()
            && let RolloutItem::TurnContext(context) = &item
        {
            self.reference = Some(context.as_ref().clone());
        }
        if let Some(replayer) = &mut self.replayer {
            replayer.apply(item);
        }
    }

    /// The rebuilt history.
    pub(crate) fn finish(self) -> ReconstructedHistory {
        let replayed = self
            .replayer
            .unwrap_or_else(|| Replayer::new(None, self.policy))
            .finish();
        self.plan.finish(self.reference, replayed)
    }
}
