//! Rebuilding a thread's model history from its rollout (resume, fork, rollback).
//!
//! Two phases (see `docs/rollout.md`, "Reconstruction and fork"):
//! 1. the reverse scan (`scan.rs`): from the newest item back, find the newest compaction
//!    that survives the recorded rollbacks (its replacement history is the base), the
//!    previous turn settings and the reference context item, stopping as soon as all three
//!    are known;
//! 2. the replay (`replay.rs`): replay the items after the base forward into a
//!    [`ContextManager`] with core's own operations, applying rollbacks where they were
//!    recorded.
//!
//! The functions here take items. A session file that is a fork by reference holds only
//! the end of its history; [`reconstruct_rollout_file`] (or
//! [`crate::history_base::load_rollout_with_base`] first) puts its parent's prefix in front.
//!
//! Turn decisions are core's (`is_user_turn_boundary`, `parse_turn_item`,
//! `drop_last_n_user_turns`); nothing here re-decides what a turn is.

mod replay;
mod scan;
mod streamed;

pub(crate) use streamed::{ReplayPlan, StreamedReconstruction};

use std::borrow::Cow;
use std::path::Path;

use codex_core::{ContextManager, TruncationPolicy};
use codex_protocol::event::{EventMsg, TokenUsageInfo};
use codex_protocol::rollout::{CompactedItem, RolloutItem, SessionMetaLine, TurnContextItem};
use uuid::Uuid;

use crate::history_base::{HistoryBaseError, load_rollout_with_base};
use crate::layout::CodexHome;

/// The settings of the previous user turn that a resumed session compares against (a model
/// change is announced to the model).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PreviousTurnSettings {
    /// The model the turn ran with.
    pub model: String,
    /// Hash of the compiled context, when the writer recorded one.
    pub comp_hash: Option<String>,
    /// Whether a realtime conversation was active.
    pub realtime_active: Option<bool>,
}

impl PreviousTurnSettings {
    fn from_context(context: &TurnContextItem) -> Self {
        Self {
            model: context.model.clone(),
            comp_hash: context.comp_hash.clone(),
            realtime_active: context.realtime_active,
        }
    }
}

/// The context window a thread is in: numbered from 0, advanced by each compaction.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ContextWindow {
    /// 0 for the first window.
    pub window_number: u64,
    /// Id of the thread's first window (a UUID v7), when known.
    pub first_window_id: Option<String>,
    /// Id of the window before this one, when known.
    pub previous_window_id: Option<String>,
    /// Id of this window, when known.
    pub window_id: Option<String>,
}

impl ContextWindow {
    /// The window a compaction opened, when it recorded a number. Ids are kept only when they
    /// are UUID v7 (legacy files stored other things there).
    fn from_compacted(compacted: &CompactedItem) -> Option<Self> {
        let (number, id) = compacted.window();
        Some(Self {
            window_number: number?,
            first_window_id: uuid_v7(compacted.first_window_id.as_deref()),
            previous_window_id: uuid_v7(compacted.previous_window_id.as_deref()),
            window_id: uuid_v7(id),
        })
    }
}

fn uuid_v7(id: Option<&str>) -> Option<String> {
    let id = id?;
    Uuid::parse_str(id)
        .ok()
        .filter(|uuid| uuid.get_version_num() == 7)
        .map(|_| id.to_string())
}

/// How to rebuild: the current model's tool-output budget (history re-truncates outputs with
/// it; the rollout keeps them whole).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReconstructOptions {
    /// Budget for tool outputs recorded into the rebuilt history.
    pub truncation_policy: TruncationPolicy,
}

impl Default for ReconstructOptions {
    /// The default model budget of core's `ModelSettings` (10 000 tokens).
    fn default() -> Self {
        Self {
            truncation_policy: TruncationPolicy::Tokens(10_000),
        }
    }
}

/// How the history was rebuilt; for diagnostics, tests and benchmarks.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReconstructionStats {
    /// Index of the `compacted` item whose replacement history is the base, if any.
    pub base_compaction: Option<usize>,
    /// Index of the first replayed item.
    pub replayed_from: usize,
    /// Index of the oldest item the reverse scan looked at.
    pub scanned_down_to: usize,
    /// Rollback markers applied during replay.
    pub rollbacks_applied: usize,
    /// Compactions undone because a rollback removed the turn they happened in.
    pub compactions_undone: usize,
    /// A summary-only (legacy) compaction was rebuilt from its message.
    pub legacy_compaction: bool,
}

/// A thread rebuilt from its rollout.
#[derive(Debug, Clone)]
pub struct ReconstructedHistory {
    /// The model history, with the reference context item and token usage set.
    pub history: ContextManager,
    /// Settings of the newest surviving user turn.
    pub previous_turn_settings: Option<PreviousTurnSettings>,
    /// The turn settings the next turn's context is diffed against; `None` means the next
    /// turn re-injects the full context (no turn yet, or a compaction since).
    pub reference_context_item: Option<TurnContextItem>,
    /// The context window the thread is in.
    pub window: ContextWindow,
    /// The last token usage the rollout recorded.
    pub token_info: Option<TokenUsageInfo>,
    /// How the history was rebuilt.
    pub stats: ReconstructionStats,
}

/// Rebuilds the model history of `items` with the default options.
pub fn reconstruct_history_from_rollout(items: &[RolloutItem]) -> ReconstructedHistory {
    reconstruct_history_with(items, &ReconstructOptions::default())
}

/// Rebuilds the model history of `items`: reverse scan, then forward replay of the surviving
/// suffix (see the module docs). Borrowed items that history keeps are cloned; owned ones (a
/// loaded rollout that is not needed any more: `loaded.contents.into_items()`) are moved into
/// it.
pub fn reconstruct_history_with<'a>(
    items: impl Into<Cow<'a, [RolloutItem]>>,
    options: &ReconstructOptions,
) -> ReconstructedHistory {
    match items.into() {
        Cow::Borrowed(items) => reconstruct_borrowed(items, options),
        Cow::Owned(items) => reconstruct_owned(items, options),
    }
}

fn reconstruct_borrowed(
    items: &[RolloutItem],
    options: &ReconstructOptions,
) -> ReconstructedHistory {
    let plan = Survey::of(items);
    let base = plan.base().and_then(|index| match items.get(index) {
        Some(RolloutItem::Compacted(compacted)) => compacted.replacement_history.clone(),
        _ => None,
    });
    let reference = plan
        .reference()
        .and_then(|index| turn_context_at(items, index));
    let suffix = items.get(plan.replayed_from()..).unwrap_or_default();
    let replayed = replay::replay(base, suffix, options.truncation_policy);
    plan.finish(reference, replayed)
}

fn reconstruct_owned(
    mut items: Vec<RolloutItem>,
    options: &ReconstructOptions,
) -> ReconstructedHistory {
    let plan = Survey::of(&items);
    let base = plan.base().and_then(|index| match items.get_mut(index) {
        Some(RolloutItem::Compacted(compacted)) => compacted.replacement_history.take(),
        _ => None,
    });
    let reference = plan
        .reference()
        .and_then(|index| turn_context_at(&items, index));
    let suffix = items.into_iter().skip(plan.replayed_from());
    let replayed = replay::replay(base, suffix, options.truncation_policy);
    plan.finish(reference, replayed)
}

/// Rebuilds the model history of the session file at `path` (plain or zstd). A fork by
/// reference is resolved through `home` first, so its history starts with its parent's
/// prefix; a missing or unfit parent is an error, never a shorter history.
pub fn reconstruct_rollout_file(
    home: &CodexHome,
    path: impl AsRef<Path>,
    options: &ReconstructOptions,
) -> Result<ReconstructedHistory, HistoryBaseError> {
    let resolved = load_rollout_with_base(home, path)?;
    Ok(reconstruct_history_with(resolved.into_items(), options))
}

/// Whether rebuilding from `suffix` (the last items of a file) alone gives what rebuilding
/// from the whole file gives: the reverse scan, run on the suffix, stops because it knows
/// the base compaction, the previous turn's settings and the reference, not because the
/// suffix ran out (so on the whole file it visits the same items and stops at the same one),
/// it found the context window (so the whole-file fallback, which counts every compaction, is
/// not asked), and the newest token usage is in it. Resume from the end asks the same of the
/// part it surveyed ([`ReplayPlan::missing`]: nothing missing is this and a turn context).
pub(crate) fn suffix_suffices(suffix: &[RolloutItem]) -> bool {
    Survey::of(suffix).rebuilds_alone()
}

fn turn_context_at(items: &[RolloutItem], index: usize) -> Option<TurnContextItem> {
    match items.get(index) {
        Some(RolloutItem::TurnContext(context)) => Some(context.as_ref().clone()),
        _ => None,
    }
}

/// Everything reconstruction reads of the items besides the replay, gathered in one forward
/// pass that keeps no item: the reverse scan's marks, the newest token usage and turn
/// context, and what the initial window needs. A slice is surveyed the same way a stream is
/// ([`crate::reconstruct::streamed`]), so both rebuild by one rule.
#[derive(Debug)]
pub(crate) struct Survey {
    scanner: scan::Scanner,
    token_info: Option<TokenUsageInfo>,
    newest_turn_context: Option<TurnContextItem>,
    windows: Windows,
}

impl Survey {
    pub(crate) fn new() -> Self {
        Self {
            scanner: scan::Scanner::new(),
            token_info: None,
            newest_turn_context: None,
            windows: Windows::default(),
        }
    }

    fn of(items: &[RolloutItem]) -> Plan {
        let mut survey = Self::new();
        for item in items {
            survey.push(item);
        }
        survey.finish()
    }

    /// Takes the next item, in file order.
    pub(crate) fn push(&mut self, item: &RolloutItem) {
        self.scanner.push(item);
        match item {
            RolloutItem::EventMsg(EventMsg::TokenCount(count)) if count.info.is_some() => {
                self.token_info = count.info;
            }
            RolloutItem::TurnContext(context) => {
                self.newest_turn_context = Some(context.as_ref().clone());
            }
            RolloutItem::Compacted(compacted) => self.windows.count(compacted),
            RolloutItem::SessionMeta(meta) => self.windows.meet(meta),
            _ => {}
        }
    }

    pub(crate) fn finish(self) -> Plan {
        Plan {
            found: self.scanner.finish(),
            token_info: self.token_info,
            newest_turn_context: self.newest_turn_context,
            windows: self.windows,
        }
    }
}

/// What the initial window is made of: the `compacted` items counted, whether one of them
/// has no number, and the first session meta's window id (`Some(None)`: a meta without one).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct Windows {
    pub(crate) compactions: usize,
    pub(crate) unnumbered_compaction: bool,
    pub(crate) session_window: Option<Option<String>>,
}

impl Windows {
    /// Counts one `compacted` item.
    pub(crate) fn count(&mut self, compacted: &CompactedItem) {
        self.compactions += 1;
        self.unnumbered_compaction |= compacted.window().0.is_none();
    }

    /// Takes a session meta's window id, when it is the first meta met.
    pub(crate) fn meet(&mut self, meta: &SessionMetaLine) {
        if self.session_window.is_none() {
            self.session_window = Some(
                meta.meta
                    .context_window
                    .as_ref()
                    .map(|window| window.window_id.clone()),
            );
        }
    }

    /// What the items before a suffix (`self`) and the suffix (`later`) hold together.
    fn then(self, later: Windows) -> Windows {
        Windows {
            compactions: self.compactions + later.compactions,
            unnumbered_compaction: self.unnumbered_compaction || later.unnumbered_compaction,
            session_window: self.session_window.or(later.session_window),
        }
    }

    fn initial_window(&self) -> ContextWindow {
        initial_window(
            self.compactions,
            self.unnumbered_compaction,
            self.session_window.clone().flatten().as_deref(),
        )
    }
}

/// What the items before a suffix say that the suffix itself may lack (see
/// [`Plan::take_earlier`]): the newest token usage and turn context among them, and, when the
/// window is asked, what [`Windows`] counts of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct Earlier {
    pub(crate) token_info: Option<TokenUsageInfo>,
    pub(crate) newest_turn_context: Option<TurnContextItem>,
    /// `None` when the window was not asked (the prefix was not counted).
    pub(crate) windows: Option<Windows>,
}

/// What a suffix's plan still lacks when its reverse scan knew everything (see
/// [`Plan::missing`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Missing {
    pub(crate) token_info: bool,
    pub(crate) turn_context: bool,
    /// The scan found no window: the whole file's initial window is the answer, which counts
    /// every `compacted` item of the file.
    pub(crate) window: bool,
}

/// What the survey decided: where replay starts and everything it reports besides history.
#[derive(Debug)]
pub(crate) struct Plan {
    found: scan::ScanResult,
    token_info: Option<TokenUsageInfo>,
    newest_turn_context: Option<TurnContextItem>,
    windows: Windows,
}

impl Plan {
    /// Index of the compaction whose replacement history is the base.
    pub(crate) fn base(&self) -> Option<usize> {
        self.found.base
    }

    /// Index of the turn context the next turn is diffed against (always after the base).
    pub(crate) fn reference(&self) -> Option<usize> {
        match self.found.reference {
            scan::Reference::Latest(index) => Some(index),
            scan::Reference::NeverSet | scan::Reference::Cleared => None,
        }
    }

    /// Index of the first replayed item.
    pub(crate) fn replayed_from(&self) -> usize {
        self.found.base.map_or(0, |index| index + 1)
    }

    /// See [`suffix_suffices`].
    fn rebuilds_alone(&self) -> bool {
        self.found.knew_everything && self.found.window.is_some() && self.token_info.is_some()
    }

    /// What the items surveyed lack for the whole file's answer when their reverse scan
    /// stopped because it knew everything (the base, the previous turn's settings, the
    /// reference: those the items before cannot change); `None` when it did not, and only
    /// more of the file surveyed can answer.
    pub(crate) fn missing(&self) -> Option<Missing> {
        self.found.knew_everything.then(|| Missing {
            token_info: self.token_info.is_none(),
            turn_context: self.newest_turn_context.is_none(),
            window: self.found.window.is_none(),
        })
    }

    /// Completes a plan of a suffix with what the items before it hold: the newest token
    /// usage and turn context where the suffix had none, the window's counts added to the
    /// suffix's. After it the plan answers what the whole file's plan answers.
    pub(crate) fn take_earlier(&mut self, earlier: Earlier) {
        if self.token_info.is_none() {
            self.token_info = earlier.token_info;
        }
        if self.newest_turn_context.is_none() {
            self.newest_turn_context = earlier.newest_turn_context;
        }
        if let Some(windows) = earlier.windows {
            self.windows = windows.then(std::mem::take(&mut self.windows));
        }
    }

    /// The newest turn context of the items, whether or not a rollback removed its turn.
    pub(crate) fn newest_turn_context(&self) -> Option<&TurnContextItem> {
        self.newest_turn_context.as_ref()
    }

    pub(crate) fn finish(
        self,
        reference: Option<TurnContextItem>,
        replayed: replay::Replay,
    ) -> ReconstructedHistory {
        // A summary-only compaction dropped the context the reference describes.
        let reference_context_item = if replayed.legacy_compaction {
            None
        } else {
            reference
        };
        let replayed_from = self.replayed_from();
        let found = self.found;
        let mut history = replayed.history;
        history.set_reference_context_item(reference_context_item.clone());
        history.set_token_info(self.token_info);
        ReconstructedHistory {
            history,
            previous_turn_settings: found.previous_turn_settings,
            reference_context_item,
            window: found
                .window
                .unwrap_or_else(|| self.windows.initial_window()),
            token_info: self.token_info,
            stats: ReconstructionStats {
                base_compaction: found.base,
                replayed_from,
                scanned_down_to: found.scanned_down_to,
                rollbacks_applied: replayed.rollbacks_applied,
                compactions_undone: replayed.compactions_undone,
                legacy_compaction: replayed.legacy_compaction,
            },
        }
    }
}

/// The window when no surviving compaction names one: the session's initial window (number
/// 0, from the first session meta) unless a legacy compaction without number exists; then the
/// number of compactions, without ids.
fn initial_window(
    compactions: usize,
    unnumbered_compaction: bool,
    session_window: Option<&str>,
) -> ContextWindow {
    if unnumbered_compaction {
        return ContextWindow {
            window_number: u64::try_from(compactions).unwrap_or(u64::MAX),
            ..ContextWindow::default()
        };
    }
    let id = uuid_v7(session_window);
    ContextWindow {
        window_number: 0,
        first_window_id: id.clone(),
        previous_window_id: None,
        window_id: id,
    }
}

#[cfg(test)]
#[path = "reconstruct_tests.rs"]
mod tests;
