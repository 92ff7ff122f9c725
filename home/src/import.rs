//! Bringing sessions from elsewhere into a home so that Codex sees them: [`plan_import`] says
//! what would happen to each session file of the sources (session files, folders of them, Codex
//! homes, or `.tar` / `.tar.zst` archives of any of these), [`apply_import`] does it.
//!
//! A session file copied into a home is not enough for Codex 0.169 (facts:
//! `reference/codex-state.md`): a paginated thread's history, as Codex shows it, lives in its
//! `thread_history_1.sqlite`, which only loading the thread for writing fills, so a copied
//! paginated thread opens empty, and lists that read only Codex's state database do not list a
//! copied thread at all. So an import copies each file where Codex expects it, under its own
//! name (`sessions/YYYY/MM/DD/` from the name's time, or `archived_sessions/` for an archived
//! one), then has Codex's own app-server register and project each thread: `thread/resume`
//! with `excludeTurns` then `thread/unsubscribe` for a paginated thread (no model request;
//! the file's bytes and time unchanged), parents before the forks that continue them;
//! `thread/read` for a legacy one (Codex reads those from the file, and registers the thread
//! on reading); `thread/name/set` for a name the source home's `session_index.jsonl` gives
//! and the destination lacks. A thread continued in other files needs each of them projected,
//! which Codex's registration does only for the newest (`pieces`).
//!
//! Nothing already in the home is changed: a file is copied into a temporary file beside its
//! place, checked against its source, given the source's modification time and linked into
//! place (which fails rather than replace a file). A session whose thread the home already has
//! is left alone (or, when asked, imported as a new copy with a new thread id, through
//! `fork`); a fork whose parent thread is in neither the sources nor the home is held, as
//! Codex could not show it. Killed at any moment, an import leaves at most a temporary file
//! (removed by the next run) and files that are complete copies; a rerun finds those already
//! there and finishes the registration.

mod apply;
mod codex_server;
mod pieces;
mod settings_appended;
mod sources;

use std::collections::BTreeMap;
use std::path::PathBuf;

use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use serde::Serialize;

pub use apply::{ImportReport, ImportedThread, apply_import};
pub(crate) use apply::{Registration, register_threads, sort_pieces};
pub use codex_server::CodexServerError;

/// What is to be done with the session files of an import's sources.
#[derive(Debug, Clone, Serialize)]
pub struct ImportPlan {
    /// The home the sessions go into.
    pub home: PathBuf,
    /// Each session file found, in the order found.
    pub files: Vec<PlannedFile>,
    /// The folders archives were unpacked into, kept while the plan lives.
    #[serde(skip)]
    _unpacked: std::sync::Arc<Vec<tempfile::TempDir>>,
}

/// One session file of an import's sources and what is to be done with it.
#[derive(Debug, Clone, Serialize)]
pub struct PlannedFile {
    /// The file in its source.
    pub source: PathBuf,
    /// Its thread.
    pub thread_id: ThreadId,
    /// Where it goes in the home.
    pub target: PathBuf,
    /// Whether its thread's history is paginated (projected by Codex into its state).
    pub paginated: bool,
    /// The thread whose history it continues (a fork by reference's parent, or its own
    /// thread for a continuation piece), if any.
    pub parent: Option<ThreadId>,
    /// The thread's name in its source home, if any.
    pub name: Option<String>,
    /// What is to be done (its fields beside the others on the wire).
    #[serde(flatten)]
    pub action: PlannedAction,
}

/// What an import does with one session file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum PlannedAction {
    /// Copied to its target.
    Copy,
    /// Its target already holds the same bytes (an earlier import): only registered.
    AlreadyThere,
    /// Imported as a new thread (a copy with a new id), its own being in the home already.
    NewCopy {
        /// The home's file of the same thread.
        existing: PathBuf,
    },
    /// Left alone: the home already has its thread.
    InHome {
        /// The home's file of the same thread.
        existing: PathBuf,
    },
    /// Held: it continues a thread neither the sources nor the home hold.
    MissingParent {
        /// The thread it continues.
        parent: ThreadId,
    },
    /// Held: a running Codex is writing it in its home (its thread's writer lock is held);
    /// import it once that Codex is done.
    BeingWritten,
    /// Left alone: it could not be read as a session file.
    Unreadable {
        /// Why.
        reason: String,
    },
}

impl PlannedAction {
    /// Whether the file ends up in the home (copied, already there or a new copy).
    pub fn imports(&self) -> bool {
        matches!(self, Self::Copy | Self::AlreadyThere | Self::NewCopy { .. })
    }
}

/// How an import treats a session whose thread the home already has.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ImportOptions {
    /// Import it as a new thread with a new id instead of leaving it.
    pub new_copy_of_known: bool,
}

/// Why an import could not be planned or applied.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// A source could not be read.
    #[error("{}: {source}", path.display())]
    Source {
        /// The source.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A source is not a session file, a folder or a home.
    #[error("{}: {why}", path.display())]
    NotASession {
        /// The source.
        path: PathBuf,
        /// Why not.
        why: &'static str,
    },
    /// The home could not be read or written.
    #[error("{}: {source}", path.display())]
    Home {
        /// What could not be read or written.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// A file changed while it was copied, or its copy is not its bytes.
    #[error("{}: {why}; nothing was put in its place, import it again", path.display())]
    Copy {
        /// The source file.
        path: PathBuf,
        /// What went wrong.
        why: String,
    },
    /// A new copy could not be written.
    #[error("{}: cannot write a new copy: {message}", path.display())]
    NewCopy {
        /// The source file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// Codex's server refused or failed.
    #[error(transparent)]
    Codex(#[from] CodexServerError),
    /// A file Codex was asked to register changed under it.
    #[error(
        "{}: Codex changed the file while registering it ({what}); the source is untouched",
        path.display()
    )]
    ChangedByCodex {
        /// The file in the home.
        path: PathBuf,
        /// What changed.
        what: &'static str,
    },
    /// A thread continued in other files could not have its row pointed at each of them.
    #[error("thread {thread_id}: its earlier files could not be projected: {source}")]
    Pieces {
        /// The thread.
        thread_id: String,
        /// Why.
        #[source]
        source: crate::codex_state::StateWriteError,
    },
}

/// What an import of `sources` into `home` would do with each session file they hold.
pub fn plan_import(
    sources: &[PathBuf],
    home: &CodexHome,
    options: ImportOptions,
) -> Result<ImportPlan, ImportError> {
    let sources::Found {
        files: found,
        unpacked,
    } = sources::session_files(sources)?;
    let mut files = Vec::with_capacity(found.len());
    let mut importing: BTreeMap<ThreadId, Vec<PathBuf>> = BTreeMap::new();
    for file in &found {
        if let Some(thread_id) = file.thread_id {
            importing
                .entry(thread_id)
                .or_default()
                .push(sources::target_of(home, file));
        }
    }
    for file in found {
        let planned = sources::plan_file(home, file, &importing, options)?;
        files.push(planned);
    }
    Ok(ImportPlan {
        home: home.root.clone(),
        files,
        _unpacked: std::sync::Arc::new(unpacked),
    })
}

/// The plain file a compressed session file decodes to (beside it, without `.zst`), for a
/// compressed one: where Codex writes a compressed thread back when it resumes it.
fn plain_sibling(path: &std::path::Path) -> Option<PathBuf> {
    let (plain, _) = crate::compress::compression_pair(path)?;
    (plain != path).then_some(plain)
}

/// The file Codex holds now for the session file `path`: its plain copy when `path` is a
/// compressed file Codex wrote back plain (gone, its plain copy there), else `path`.
fn as_codex_holds_it(path: &std::path::Path) -> PathBuf {
    match plain_sibling(path) {
        Some(plain) if !path.exists() && plain.exists() => plain,
        _ => path.to_path_buf(),
    }
}

#[cfg(test)]
#[path = "import_tests.rs"]
mod tests;
