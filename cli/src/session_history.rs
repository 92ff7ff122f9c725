//! A session's model history, rebuilt once for `history` and `prompt`: from the file's end
//! (codex-rollout's `tail`), or, for a file that continues another thread's history, from its
//! resolved chain (see `commands/history.rs` for the rules).

use std::path::PathBuf;

use codex_home::{ResumedWith, continues_another, home_of, stream_session};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine, TurnContextItem};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::resume_rollout_tail;
use codex_rollout::{CodexHome, HistoryBaseError, ResolvedBase, load_rollout_with_base};
use codex_rollout::{ReconstructOptions, ReconstructedHistory, reconstruct_history_with};

use crate::error::Failure;
use crate::input::Source;
use crate::output::warn;
use crate::progress::Progress;
use crate::streamed::SourceInput;

/// A session's rebuilt history and what a prompt needs besides it: the file's own session
/// meta, its newest turn context, and for a fork by reference the parents it was resolved
/// from.
#[derive(Debug)]
pub(crate) struct SessionHistory {
    name: String,
    session_meta: Option<SessionMetaLine>,
    rebuilt: ReconstructedHistory,
    newest_turn_context: Option<TurnContextItem>,
    bases: Vec<ResolvedBase>,
    /// What the home's Codex resumes the session with.
    resumed_with: ResumedWith,
}

impl SessionHistory {
    /// Rebuilds the history of `source`; when it continues another thread's history (a fork
    /// by reference, a continuation file), resolves its base through `home` (default: the
    /// home the file lies in, else `$CODEX_HOME`, else `~/.codex`).
    pub(crate) fn load(source: &Source, home: Option<PathBuf>) -> Result<Self, Failure> {
        let options = ReconstructOptions::default();
        let name = source.name();
        let path = source
            .path()
            .ok_or_else(|| Failure::Usage(format!("{name} must be read as a file")))?;
        let based = continues_another(path);
        let codex_home = home_of(path, home.as_deref())?;
        if !based && let Ok(Some(tail)) = resume_rollout_tail(path, &options) {
            if tail.unreadable_lines() > 0 {
                warn(&format!(
                    "{name}: {} unreadable line(s) ignored in the part read; `codex-thread \
                     validate` lists them",
                    tail.unreadable_lines()
                ));
            }
            let session_meta = tail.session_meta().cloned();
            return Ok(Self {
                name,
                resumed_with: ResumedWith::of(&codex_home, session_meta.as_ref()),
                session_meta,
                newest_turn_context: tail.newest_turn_context().cloned(),
                rebuilt: tail.into_rebuilt(),
                bases: Vec::new(),
            });
        }
        // What the tail does not answer is a file that continues another thread's history
        // (a fork by reference, a continuation file), or one that cannot be read as a
        // session: the streaming checks say why, with every command's messages.
        if !based {
            let hidden = Progress::hidden();
            stream_session(&SourceInput::new(source, &hidden), |_| {})?;
        }
        let resolved = load_rollout_with_base(&codex_home, path).map_err(base_failure)?;
        let bases = resolved.bases().to_vec();
        Ok(Self::of_items(
            name,
            resolved.items(),
            bases,
            &options,
            &codex_home,
        ))
    }

    fn of_items(
        name: String,
        items: &[RolloutItem],
        bases: Vec<ResolvedBase>,
        options: &ReconstructOptions,
        home: &CodexHome,
    ) -> Self {
        let session_meta = items.iter().find_map(RolloutItem::session_meta).cloned();
        Self {
            name,
            resumed_with: ResumedWith::of(home, session_meta.as_ref()),
            session_meta,
            newest_turn_context: items
                .iter()
                .rev()
                .find_map(RolloutItem::turn_context)
                .cloned(),
            rebuilt: reconstruct_history_with(items, options),
            bases,
        }
    }

    /// What the home's Codex resumes the session with (codex-home's answer).
    pub(crate) fn resumed_with(&self) -> &ResumedWith {
        &self.resumed_with
    }

    /// The input's name.
    pub(crate) fn name(&self) -> &str {
        &self.name
    }

    /// The rebuilt history.
    pub(crate) fn rebuilt(&self) -> &ReconstructedHistory {
        &self.rebuilt
    }

    /// Takes the rebuilt history out (what a prompt is projected from), leaving it empty.
    pub(crate) fn take_history(&mut self) -> codex_core::ContextManager {
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

    /// The file's own (first) session meta.
    pub(crate) fn session_meta(&self) -> Option<&SessionMetaLine> {
        self.session_meta.as_ref()
    }

    /// The parents the history was resolved from, nearest first.
    pub(crate) fn bases(&self) -> &[ResolvedBase] {
        &self.bases
    }
}

/// The failure of a base that cannot be resolved: a parent that cannot be found or read is
/// unreadable input (exit 2), one that does not fit the base is wrong content (exit 1).
fn base_failure(err: HistoryBaseError) -> Failure {
    match err {
        HistoryBaseError::MissingParent { .. } => Failure::Unreadable(format!(
            "{err}; pass --home DIR to search another Codex home"
        )),
        HistoryBaseError::Lookup { .. } | HistoryBaseError::Unreadable { .. } => {
            Failure::Unreadable(err.to_string())
        }
        other => Failure::Content(other.to_string()),
    }
}
