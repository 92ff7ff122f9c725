//! `codex-thread history [FILE] [--home DIR]`: the model history a resumed session would hold,
//! as JSON Lines of ResponseItems.
//!
//! The history is codex-rollout's reconstruction (`reconstruct_history_from_rollout`): the
//! newest surviving compaction's replacement history as the base, then the items after it
//! replayed through core's `ContextManager`, rollbacks applied where they were recorded. It is
//! the raw history (what history keeps), not the prompt projection (`prompt` shows that).
//!
//! A plain or compressed file is read from its end (codex-rollout's `tail`): only the live
//! suffix reconstruction needs is parsed, and the session meta at its head; anything else
//! (standard input, the sample, a file the tail cannot answer) is loaded whole.
//!
//! A fork by reference (a first session meta with a `history_base`) holds only the end of its
//! history: codex-rollout's `history_base` finds its parent by thread id under the Codex home
//! (`--home`, else `$CODEX_HOME`, else `~/.codex`), plain or compressed, and puts the parent's
//! prefix first. A parent that cannot be found or read stops the command (exit 2), one that
//! does not have the prefix the base names too (exit 1); the history is never silently shorter.

use std::path::PathBuf;

use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use codex_rollout::history_base::{
    HistoryBaseError, ResolvedBase, ResolvedRollout, history_base_of, resolve_history_base,
};
use codex_rollout::reconstruct::{ReconstructedHistory, reconstruct_history_from_rollout};
use codex_rollout::tail::{RolloutTail, load_rollout_tail};

use crate::error::{CommandResult, Failure, Status};
use crate::input::{Session, Source, load_session};
use crate::output::{Output, note, warn};

/// A session's history items: the file's own, or, for a fork by reference, its session meta,
/// its parent's resolved prefix and then its own lines.
#[derive(Debug)]
pub struct SessionHistory {
    name: String,
    items: HistoryItems,
}

#[derive(Debug)]
enum HistoryItems {
    Own(Session),
    Resolved(ResolvedRollout),
    /// The live suffix of a file, read from its end (codex-rollout's `tail`).
    Tail(RolloutTail),
}

impl SessionHistory {
    /// Loads `source`; when it is a fork by reference, resolves its base through `home`
    /// (default: `$CODEX_HOME`, else `~/.codex`).
    pub fn load(source: &Source, home: Option<PathBuf>) -> Result<Self, Failure> {
        if let Source::File(path) = source
            && let Ok(Some(tail)) = load_rollout_tail(path)
        {
            let name = source.name();
            if tail.unreadable_lines() > 0 {
                warn(&format!(
                    "{name}: {} unreadable line(s) ignored in the part read; `codex-thread \
                     validate` lists them",
                    tail.unreadable_lines()
                ));
            }
            return Ok(Self {
                name,
                items: HistoryItems::Tail(tail),
            });
        }
        // Anything the tail cannot answer (standard input, the sample, a fork by reference,
        // a file without a meta at its head, a damaged stream) is loaded whole, with the
        // loader's own errors.
        let session = load_session(source)?;
        let name = session.name().to_string();
        if history_base_of(session.items()).is_none() {
            return Ok(Self {
                name,
                items: HistoryItems::Own(session),
            });
        }
        let home = CodexHome::resolve(home).map_err(|err| {
            Failure::Usage(format!(
                "{name} is a fork by reference, and the Codex home its parent is in cannot be \
                 found ({err}); pass --home DIR"
            ))
        })?;
        let resolved = resolve_history_base(&home, session.into_loaded()?).map_err(base_failure)?;
        Ok(Self {
            name,
            items: HistoryItems::Resolved(resolved),
        })
    }

    /// The input's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every item of the history, parents' prefixes included.
    pub fn items(&self) -> &[RolloutItem] {
        match &self.items {
            HistoryItems::Own(session) => session.items(),
            HistoryItems::Resolved(resolved) => resolved.items(),
            HistoryItems::Tail(tail) => tail.items(),
        }
    }

    /// The thread the file records, if it has a session meta.
    pub fn thread_id(&self) -> Option<ThreadId> {
        match &self.items {
            HistoryItems::Own(session) => session.thread_id(),
            HistoryItems::Resolved(resolved) => Some(resolved.thread_id()),
            HistoryItems::Tail(tail) => Some(tail.thread_id()),
        }
    }

    /// The file's own (first) session meta.
    pub fn session_meta(&self) -> Option<&SessionMetaLine> {
        if let HistoryItems::Tail(tail) = &self.items {
            return Some(tail.session_meta());
        }
        self.items().iter().find_map(|item| match item {
            RolloutItem::SessionMeta(meta) => Some(meta.as_ref()),
            _ => None,
        })
    }

    /// The parents the history was resolved from, nearest first.
    pub fn bases(&self) -> &[ResolvedBase] {
        match &self.items {
            HistoryItems::Own(_) | HistoryItems::Tail(_) => &[],
            HistoryItems::Resolved(resolved) => resolved.bases(),
        }
    }
}

/// The failure of a base that cannot be resolved: a parent that cannot be found or read is
/// unreadable input (exit 2), one that does not fit the base is wrong content (exit 1).
pub fn base_failure(err: HistoryBaseError) -> Failure {
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

/// Rebuilds the model history of `history`.
pub fn reconstruct(history: &SessionHistory) -> ReconstructedHistory {
    reconstruct_history_from_rollout(history.items())
}

/// Runs `history`: JSON Lines in both modes, with a one-line summary on standard error in
/// human mode.
pub fn run(source: &Source, home: Option<PathBuf>, out: &mut Output) -> CommandResult {
    let history = SessionHistory::load(source, home)?;
    let rebuilt = reconstruct(&history);
    for item in rebuilt.history.raw_items() {
        out.json_line(item)?;
    }
    if !out.is_json() {
        let base = match rebuilt.stats.base_compaction {
            Some(_) => ", starting from the last compaction's replacement history",
            None => "",
        };
        let parents = match history.bases() {
            [] => String::new(),
            bases => format!(
                "; continues thread {}",
                bases
                    .iter()
                    .map(|base| base.thread_id.to_string())
                    .collect::<Vec<_>>()
                    .join(" <- ")
            ),
        };
        note(&format!(
            "{}: {} history item(s){base}; {} rollback(s) applied{parents}",
            history.name(),
            rebuilt.history.len(),
            rebuilt.stats.rollbacks_applied,
        ));
    }
    Ok(Status::Ok)
}
