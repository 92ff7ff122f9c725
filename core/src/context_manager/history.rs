//! [`ContextManager`]: the items the model will see again, oldest first, plus the state that
//! says how far other components may trust what they read from it.

use std::ops::Deref;
use std::sync::Arc;

use codex_protocol::event::TokenUsage;
use codex_protocol::event::TokenUsageInfo;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::TurnContextItem;

use super::cursor::TranscriptCursor;
use super::modality::InputModality;
use super::modality::MediaFilter;
use super::normalize;
use super::record;
use super::rollback;
use super::token_estimate;
use super::token_usage;
use super::trim;
use super::truncate::TruncationPolicy;
use super::world_state::WorldStateSnapshot;

/// The model's memory of one thread.
///
/// Five kinds of state, each with its own lifetime:
///
/// | state | append | rewrite (`replace`, rollback, trim) |
/// |---|---|---|
/// | items, oldest first | pushed at the end | swapped for a new vector |
/// | `history_version` | unchanged | +1 (saturating) |
/// | token usage info | updated separately | kept |
/// | reference context item | updated separately | kept (rollback may clear it) |
/// | world-state baseline | updated separately | cleared |
///
/// `clone()` is O(1): snapshots share the item vector until one of them mutates it
/// (copy-on-write through [`Arc::make_mut`]), so read-only consumers (prompt building,
/// reviewers, exports) take a consistent snapshot without holding the session lock or copying.
/// A rollback of a shared snapshot copies nothing either: it shortens the snapshot's view, and
/// the first later write copies just the kept prefix.
#[derive(Debug, Clone, Default)]
pub struct ContextManager {
    /// Oldest first. Shared between snapshots until one side writes.
    shared: Arc<Vec<ResponseItem>>,
    /// `Some(n)`: this snapshot holds only the first `n` shared items. A rollback of a shared
    /// snapshot shortens the view instead of copying the kept prefix; the copy, if any, waits
    /// for the next write ([`ContextManager::items_mut`]). `None`: the whole vector.
    view_len: Option<usize>,
    /// Rewrite generation: bumped whenever indices into `items` stop meaning what they meant.
    history_version: u64,
    token_info: Option<TokenUsageInfo>,
    reference_context_item: Option<TurnContextItem>,
    world_state_baseline: Option<WorldStateSnapshot>,
}

impl ContextManager {
    /// An empty history: version 0, no usage, no baselines.
    pub fn new() -> Self {
        Self::default()
    }

    // ----- append -------------------------------------------------------------------------

    /// Appends `items` (oldest first), keeping only what the model API takes back
    /// ([`record::is_api_message`]) and cutting tool outputs to `policy × 1.2`.
    ///
    /// Never bumps the version: the old items keep their indices, so a consumer may read just
    /// the new tail.
    pub fn record_items<I>(&mut self, items: I, policy: TruncationPolicy)
    where
        I: IntoIterator,
        I::Item: Deref<Target = ResponseItem>,
    {
        for item in items {
            let item = item.deref();
            if !record::is_api_message(item) {
                continue;
            }
            let stored = record::process_item(item, policy);
            self.items_mut().push(stored);
        }
    }

    /// [`ContextManager::record_items`] for owned items: moves them in instead of cloning.
    pub fn record_owned_items<I>(&mut self, items: I, policy: TruncationPolicy)
    where
        I: IntoIterator<Item = ResponseItem>,
    {
        for mut item in items {
            if !record::is_api_message(&item) {
                continue;
            }
            record::truncate_in_place(&mut item, policy);
            self.items_mut().push(item);
        }
    }

    // ----- views --------------------------------------------------------------------------

    /// The stored items, as recorded: incomplete tool pairs and all media included. For
    /// consumers that must see the truth (counting turns, traces, transcripts).
    pub fn raw_items(&self) -> &[ResponseItem] {
        self.items()
    }

    /// Consumes the snapshot and returns its items unchanged; no copy when this snapshot was
    /// the only owner.
    pub fn into_raw_items(self) -> Vec<ResponseItem> {
        match Arc::try_unwrap(self.shared) {
            Ok(mut items) => {
                items.truncate(self.view_len.unwrap_or(usize::MAX));
                items
            }
            Err(shared) => shared[..self.view_len.unwrap_or(shared.len())].to_vec(),
        }
    }

    /// Consumes the snapshot and returns the items to send to the model: every call answered,
    /// no orphan output, unsupported media replaced.
    ///
    /// The stored history is never changed; a shared snapshot is projected by cloning each
    /// kept item once, an exclusive one by moving its items.
    pub fn for_prompt(self, input_modalities: &[InputModality]) -> Vec<ResponseItem> {
        let media = MediaFilter::for_modalities(input_modalities);
        match Arc::try_unwrap(self.shared) {
            Ok(mut items) => {
                items.truncate(self.view_len.unwrap_or(usize::MAX));
                normalize::normalize_owned(items, media)
            }
            Err(shared) => {
                let len = self.view_len.unwrap_or(shared.len());
                normalize::normalize_shared(&shared[..len], media)
            }
        }
    }

    /// Number of stored items.
    pub fn len(&self) -> usize {
        self.items().len()
    }

    /// True when nothing is stored.
    pub fn is_empty(&self) -> bool {
        self.items().is_empty()
    }

    /// True when both snapshots share one item vector (nothing was copied between them).
    pub fn shares_items_with(&self, other: &ContextManager) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    // ----- rewrites -----------------------------------------------------------------------

    /// Replaces every item (compaction result, resumed history, explicit replacement).
    ///
    /// Bumps the version (saturating) and clears the world-state baseline; token usage and
    /// the reference context item are left to the caller.
    pub fn replace(&mut self, items: Vec<ResponseItem>) {
        self.shared = Arc::new(items);
        self.view_len = None;
        self.mark_rewritten();
    }

    /// Removes the oldest item and the item that pairs with it (a call's output, an output's
    /// call); returns how many items went. Used by compaction when a request overflows.
    ///
    /// Bumps the version: the remaining items moved, so a cursor into the old history no
    /// longer points at the same items. (Upstream leaves the version alone here; it only ever
    /// trims a throw-away snapshot, but a cursor must never say "delta" across a trim.)
    pub fn remove_first_item(&mut self) -> usize {
        if self.items().is_empty() {
            return 0;
        }
        let removed = trim::remove_first_with_partner(self.items_mut());
        self.mark_rewritten();
        removed
    }

    /// Removes the `count` oldest items with their partners in one pass; the same result as
    /// `count` calls of [`ContextManager::remove_first_item`]. Returns how many items went.
    pub fn trim_oldest(&mut self, count: usize) -> usize {
        if count == 0 || self.items().is_empty() {
            return 0;
        }
        let before = self.items().len();
        if self.is_exclusive() {
            trim::trim_oldest(self.items_mut(), count);
        } else {
            self.shared = Arc::new(trim::trim_oldest_shared(self.items(), count));
            self.view_len = None;
        }
        self.mark_rewritten();
        before - self.items().len()
    }

    /// Drops the last `num_turns` user turns (any `u32`; more than exist keeps the session
    /// prefix before the first turn).
    ///
    /// Context updates directly above the first dropped turn go with it, never crossing the
    /// first real turn; crossing a mixed developer bundle clears the reference context item so
    /// the next turn re-injects full context. `0` does nothing. With no turn at all the items
    /// stay but the version is still bumped (a rollback is always a rewrite).
    pub fn drop_last_n_user_turns(&mut self, num_turns: u32) {
        if num_turns == 0 {
            return;
        }
        let Some(cut) = rollback::plan_rollback(self.items(), num_turns) else {
            self.mark_rewritten();
            return;
        };
        if cut.clears_reference_context {
            self.reference_context_item = None;
        }
        let strip_turn_id = cut.first_turn_id.as_deref().filter(|turn_id| {
            rollback::has_first_turn_model_switch(&self.items()[..cut.keep], turn_id)
        });
        // An exclusive vector is cut in place; a shared one only shortens this snapshot's
        // view, so rolling back a snapshot costs the boundary scan, not a copy of the prefix.
        match Arc::get_mut(&mut self.shared) {
            Some(items) => {
                items.truncate(cut.keep);
                self.view_len = None;
            }
            None => self.view_len = Some(cut.keep),
        }
        if let Some(turn_id) = strip_turn_id {
            rollback::strip_first_turn_model_switch(self.items_mut(), turn_id);
        }
        self.mark_rewritten();
    }

    /// The rewrite generation. Starts at 0, bumped by every rewrite (replace, rollback, trim),
    /// never by an append. Consumers compare it to know whether their indices are still valid.
    pub fn history_version(&self) -> u64 {
        self.history_version
    }

    /// Where a consumer reading this history now would stop: `(history_version, item count)`.
    /// Compare a saved cursor with [`TranscriptCursor::read_since`].
    pub fn transcript_cursor(&self) -> TranscriptCursor {
        TranscriptCursor {
            history_version: self.history_version,
            entry_count: self.items().len(),
        }
    }

    /// This snapshot's items (the visible prefix of the shared vector).
    fn items(&self) -> &[ResponseItem] {
        match self.view_len {
            Some(len) => &self.shared[..len],
            None => &self.shared,
        }
    }

    /// True when no other snapshot shares the vector, so writes need no copy.
    fn is_exclusive(&self) -> bool {
        Arc::strong_count(&self.shared) == 1 && Arc::weak_count(&self.shared) == 0
    }

    /// The items for writing. A shared vector is copied first (copy-on-write), and only the
    /// visible prefix is copied; an exclusive one drops its hidden tail in place.
    fn items_mut(&mut self) -> &mut Vec<ResponseItem> {
        if let Some(len) = self.view_len.take() {
            match Arc::get_mut(&mut self.shared) {
                Some(items) => items.truncate(len),
                None => self.shared = Arc::new(self.shared[..len].to_vec()),
            }
        }
        Arc::make_mut(&mut self.shared)
    }

    /// Makes this history's version greater than `previous`, the version of the history it
    /// replaces, so no cursor taken on that lineage reads this one as a delta (a replacement
    /// built from a fresh `ContextManager` would otherwise start again at a low version).
    pub(crate) fn succeed_version(&mut self, previous: u64) {
        self.history_version = self.history_version.max(previous.saturating_add(1));
    }

    fn mark_rewritten(&mut self) {
        self.history_version = self.history_version.saturating_add(1);
        self.world_state_baseline = None;
    }

    // ----- baselines ----------------------------------------------------------------------

    /// Sets the turn settings the next turn's context is diffed against (`None` forces a full
    /// re-injection of context).
    pub fn set_reference_context_item(&mut self, item: Option<TurnContextItem>) {
        self.reference_context_item = item;
    }

    /// The turn settings the next turn's context is diffed against.
    pub fn reference_context_item(&self) -> Option<TurnContextItem> {
        self.reference_context_item.clone()
    }

    /// Sets the world state last made visible to the model.
    pub fn set_world_state_baseline(&mut self, snapshot: Option<WorldStateSnapshot>) {
        self.world_state_baseline = snapshot;
    }

    /// The world state last made visible to the model; `None` after any rewrite.
    pub fn world_state_baseline(&self) -> Option<&WorldStateSnapshot> {
        self.world_state_baseline.as_ref()
    }

    // ----- token usage --------------------------------------------------------------------

    /// Folds the usage the provider reported for one response into the running totals.
    pub fn update_token_info(&mut self, usage: &TokenUsage, model_context_window: Option<i64>) {
        self.token_info = token_usage::new_or_append_token_info(
            self.token_info,
            Some(usage),
            model_context_window,
        );
    }

    /// Last reported usage and running totals, if any response was counted.
    pub fn token_info(&self) -> Option<TokenUsageInfo> {
        self.token_info
    }

    /// Replaces the usage info (restored from a session file, for instance).
    pub fn set_token_info(&mut self, info: Option<TokenUsageInfo>) {
        self.token_info = info;
    }

    /// Records that the context window is full (the provider refused a request for size).
    pub fn set_token_usage_full(&mut self, context_window: i64) {
        match &mut self.token_info {
            Some(info) => token_usage::fill_to_context_window(info, context_window),
            None => self.token_info = Some(token_usage::full_context_window(context_window)),
        }
    }

    /// Estimated tokens of the next prompt: the base instructions plus every stored item.
    pub fn estimate_token_count(&self, base_instructions: &str) -> i64 {
        token_estimate::estimate_text_token_count(base_instructions).saturating_add(
            token_estimate::estimate_items_token_count(self.items().iter()),
        )
    }

    /// Estimated tokens of the items recorded after the model's last own item: what the last
    /// usage report cannot include yet.
    pub fn estimated_tokens_after_last_model_generated_item(&self) -> i64 {
        let start = self
            .items()
            .iter()
            .rposition(token_estimate::is_model_generated_item)
            .map_or(self.items().len(), |index| index + 1);
        token_estimate::estimate_items_token_count(&self.items()[start..])
    }

    /// Best current estimate of the context in use: the last reported total, plus what was
    /// recorded since, plus (when the provider does not count it) encrypted reasoning from
    /// before the last user turn.
    pub fn get_total_token_usage(&self, server_reasoning_included: bool) -> i64 {
        let reported = self
            .token_info
            .map_or(0, |info| info.last_token_usage.total_tokens);
        let reasoning = if server_reasoning_included {
            0
        } else {
            self.non_last_reasoning_items_tokens()
        };
        reported
            .saturating_add(reasoning)
            .saturating_add(self.estimated_tokens_after_last_model_generated_item())
    }

    /// Encrypted reasoning strictly before the last user turn (0 without a turn).
    fn non_last_reasoning_items_tokens(&self) -> i64 {
        let Some(last_turn) = self
            .items()
            .iter()
            .rposition(crate::turn_boundary::is_user_turn_boundary)
        else {
            return 0;
        };
        token_estimate::estimate_items_token_count(self.items()[..last_turn].iter().filter(
            |item| {
                matches!(
                    item,
                    ResponseItem::Reasoning {
                        encrypted_content: Some(_),
                        ..
                    }
                )
            },
        ))
    }
}

#[cfg(test)]
#[path = "history_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "history_rollback_tests.rs"]
mod rollback_tests;

#[cfg(test)]
#[path = "history_token_tests.rs"]
mod token_tests;
