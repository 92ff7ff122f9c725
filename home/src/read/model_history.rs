//! A session's model history, rebuilt once, as `history` and `prompt` show it: from the
//! file's end (codex-rollout's `tail`, which reads back only as far as the answer needs), or,
//! for a file that continues another thread's history (a fork by reference, a continuation
//! file), from the chain its base resolves to through the home.

use std::path::Path;

use codex_core::ContextManager;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine, TurnContextItem};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::resume_rollout_tail;
use codex_rollout::{CodexHome, HistoryBaseError, ResolvedBase, load_rollout_with_base};
use codex_rollout::{ReconstructOptions, ReconstructedHistory, reconstruct_history_with};

use super::{ReadError, ResumedWith, SessionInput, continues_another, home_of, stream_session};

/// Why a session's history could not be rebuilt.
#[derive(Debug, thiserror::Error)]
pub enum HistoryError {
    /// The session could not be read.
    #[error(transparent)]
    Read(#[from] ReadError),
    /// The history it continues could not be resolved.
    #[error(transparent)]
    Base(#[from] HistoryBaseError),
}

/// A session's rebuilt history and what a prompt needs besides it: the file's own session
/// meta, its newest turn context, the parents a fork by reference was resolved from, and what
/// the home's Codex resumes it with.
#[derive(Debug)]
pub struct SessionHistory {
    pub(super) session_meta: Option<SessionMetaLine>,
    rebuilt: ReconstructedHistory,
    newest_turn_context: Option<TurnContextItem>,
    bases: Vec<ResolvedBase>,
    resumed_with: ResumedWith,
    unreadable_lines: usize,
}

impl SessionHistory {
    /// Rebuilds the history of `input`, read from `path` (the input's file, or the copy it
    /// was spooled into). A file that continues another thread's history has its base
    /// resolved through `home` (default: the home `path` lies in, else `$CODEX_HOME`, else
    /// `~/.codex`); what the end of a file cannot answer (a file that is no session) is read
    /// forwards, so the error is the one every view gives.
    pub fn load(
        input: &dyn SessionInput,
        path: &Path,
        home: Option<&Path>,
    ) -> Result<Self, HistoryError> {
        let options = ReconstructOptions::default();
        let based = continues_another(path);
        let codex_home = home_of(path, home)?;
        if !based && let Ok(Some(tail)) = resume_rollout_tail(path, &options) {
            let session_meta = tail.session_meta;
            return Ok(Self {
                resumed_with: ResumedWith::of(&codex_home, session_meta.as_ref()),
                session_meta,
                newest_turn_context: tail.newest_turn_context,
                unreadable_lines: tail.unreadable_lines,
                rebuilt: tail.rebuilt,
                bases: Vec::new(),
            });
        }
        if !based {
            stream_session(input, |_| {})?;
        }
        let resolved = load_rollout_with_base(&codex_home, path)?;
        let bases = resolved.bases.to_vec();
        Ok(Self::of_items(
            resolved.items(),
            bases,
            &options,
            &codex_home,
        ))
    }

    fn of_items(
        items: &[RolloutItem],
        bases: Vec<ResolvedBase>,
        options: &ReconstructOptions,
        home: &CodexHome,
    ) -> Self {
        let session_meta = items.iter().find_map(RolloutItem::session_meta).cloned();
        Self {
            resumed_with: ResumedWith::of(home, session_meta.as_ref()),
            session_meta,
            newest_turn_context: items
                .iter()
                .rev()
                .find_map(RolloutItem::turn_context)
                .cloned(),
            rebuilt: reconstruct_history_with(items, options),
            bases,
            unreadable_lines: 0,
        }
    }

    /// What the home's Codex resumes the session with.
    pub(crate) fn resumed_with(&self) -> &ResumedWith {
        &self.resumed_with
    }

    /// The rebuilt history.
    pub fn rebuilt(&self) -> &ReconstructedHistory {
        &self.rebuilt
    }

    /// Takes the rebuilt history out (what a prompt is projected from), leaving it empty.
    pub(crate) fn take_history(&mut self) -> ContextManager {
        std::mem::take(&mut self.rebuilt.history)
    }

    /// The newest turn context recorded, whether or not a rollback removed its turn.
    pub(crate) fn newest_turn_context(&self) -> Option<&TurnContextItem> {
        self.newest_turn_context.as_ref()
    }

    /// The thread the file records, if it has a session meta.
    pub(crate) fn thread_id(&self) -> Option<ThreadId> {
        self.session_meta.as_ref().map(|meta| meta.meta.id)
    }

    /// The parents the history was resolved from, nearest first.
    pub fn bases(&self) -> &[ResolvedBase] {
        &self.bases
    }

    /// Lines of the part read from the end that could not be read (skipped, as the loader
    /// skips them); 0 when the history was read forwards (those readings tell the input).
    pub fn unreadable_lines(&self) -> usize {
        self.unreadable_lines
    }
}
