//! Loading a session file back into rollout items.
//!
//! Rules (see `docs/rollout.md`, "Loading"):
//! - every line is read on its own; a blank, malformed (not a JSON object, no envelope) or
//!   truncated line is skipped and reported as a [`LineProblem`] with its 1-based line
//!   number, never fatal;
//! - a line of a kind the model does not know is kept (as an unknown item) and reported; a
//!   line of a known kind whose payload does not fit the model is kept as an opaque line
//!   (no item; forks copy it) and reported;
//! - every good line is kept, with its original bytes ([`RolloutContents::raw_line`]) so a
//!   fork copies it byte for byte;
//! - the thread id is the id of the *first* `session_meta` line; later ones are history a fork
//!   copied in;
//! - the pre-envelope legacy format loads like any other;
//! - an empty file, or one without any `session_meta`, is an error that names the file:
//!   without a thread id nothing can be resumed;
//! - a compressed file (`.jsonl.zst`, zstd, one or several frames; recognised by its magic
//!   number, see [`crate::source`]) loads exactly as the plain one. A damaged compressed
//!   stream is an error ([`LoadError::Damaged`]) because an unknown part of the session is
//!   lost, but the error carries every complete line decoded before the damage.
//!
//! [`RolloutContents`] is the tolerant layer underneath, usable on any bytes (validators read
//! files that are not sessions at all).

mod contents;
mod entry;
pub(crate) mod lines;
mod problem;

use std::path::{Path, PathBuf};

use codex_protocol::rollout::InitialHistory;
use codex_protocol::rollout::ResumedHistory;
use codex_protocol::thread_id::ThreadId;
use tracing::debug;

use crate::source::{self, StreamDamage};

pub use contents::RolloutContents;
#[cfg(test)]
pub(crate) use entry::EntryContent;
pub(crate) use entry::LineEntry;
pub use problem::{LineProblem, ProblemKind};

/// Why a rollout could not be loaded as a session. Content problems of single lines are never
/// errors (they are [`LineProblem`]s); only these are.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The file could not be read.
    #[error("read rollout {}: {source}", .path.display())]
    Io {
        /// The file (or the name given to a reader).
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The file holds nothing but whitespace.
    #[error("rollout {} is empty: it has no session_meta line and no items", .path.display())]
    Empty {
        /// The file (or the name given to a reader).
        path: PathBuf,
    },
    /// No line is a `session_meta`, so the thread the file records is unknown.
    #[error(
        "rollout {} has no session_meta line, so its thread id is unknown \
         ({lines} line(s), {problems} problem line(s))",
        .path.display()
    )]
    MissingSessionMeta {
        /// The file (or the name given to a reader).
        path: PathBuf,
        /// Lines in the file.
        lines: usize,
        /// Lines reported as problems.
        problems: usize,
    },
    /// The file is compressed and its compressed stream is damaged (truncated or corrupt), so
    /// the end of the session is lost. `partial` holds every complete line decoded before the
    /// damage, with their problems; the last problem is the damage
    /// ([`ProblemKind::Damaged`]).
    #[error(
        "rollout {} is damaged: {damage} ({} complete line(s) before the damage were read)",
        .path.display(),
        .partial.line_count()
    )]
    Damaged {
        /// The file (or the name given to a reader).
        path: PathBuf,
        /// Where and why decoding stopped.
        #[source]
        damage: StreamDamage,
        /// The lines read before the damage.
        partial: Box<RolloutContents>,
    },
}

/// A session file, loaded: the thread it records, its items and the problems found.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LoadedRollout {
    /// The file the rollout was read from (or the name given to a reader).
    pub path: PathBuf,
    /// The thread the file records: the id of its first `session_meta`.
    pub thread_id: ThreadId,
    /// Every line read, with spans and original bytes: the items of every good line and the
    /// problems found, in file order.
    pub contents: RolloutContents,
}

impl LoadedRollout {
    /// The starting point of a resumed session: this thread and its items.
    pub(crate) fn into_initial_history(self) -> InitialHistory {
        let path = self.path;
        let conversation_id = self.thread_id;
        let history = self.contents.into_items();
        if history.is_empty() {
            return InitialHistory::New;
        }
        InitialHistory::Resumed(ResumedHistory {
            conversation_id,
            history,
            rollout_path: Some(path),
        })
    }

    /// Checks that tolerant `contents` make a session (not damaged, non-empty, with a session
    /// meta).
    pub fn from_contents(
        path: impl Into<PathBuf>,
        contents: RolloutContents,
    ) -> Result<Self, LoadError> {
        let path = path.into();
        if let Some(damage) = contents.damage().cloned() {
            return Err(LoadError::Damaged {
                path,
                damage,
                partial: Box::new(contents),
            });
        }
        if contents.is_blank() {
            return Err(LoadError::Empty { path });
        }
        let Some(thread_id) = contents.thread_id() else {
            return Err(LoadError::MissingSessionMeta {
                path,
                lines: contents.line_count(),
                problems: contents.problems().len(),
            });
        };
        if !contents.problems().is_empty() {
            debug!(
                path = %path.display(),
                problems = contents.problems().len(),
                "rollout loaded with problem lines"
            );
        }
        Ok(Self {
            path,
            thread_id,
            contents,
        })
    }
}

/// Loads the session file at `path` (plain or zstd): its items, its thread id and the
/// problems found.
pub fn load_rollout_items(path: impl AsRef<Path>) -> Result<LoadedRollout, LoadError> {
    let path = path.as_ref();
    let decoded = source::read_rollout_file(path).map_err(|source| LoadError::Io {
        path: path.to_path_buf(),
        source,
    })?;
    LoadedRollout::from_contents(path, RolloutContents::from_decoded(decoded))
}

/// Loads a session from bytes already in memory (plain or zstd).
pub fn load_rollout_bytes(
    bytes: Vec<u8>,
    name: impl Into<PathBuf>,
) -> Result<LoadedRollout, LoadError> {
    LoadedRollout::from_contents(name, RolloutContents::parse(bytes))
}

/// The starting point for resuming the session at `path` (upstream's entry point):
/// [`InitialHistory::Resumed`] with the file's thread id, items and path.
pub fn get_rollout_history(path: impl AsRef<Path>) -> Result<InitialHistory, LoadError> {
    load_rollout_items(path).map(LoadedRollout::into_initial_history)
}

#[cfg(test)]
#[path = "load_tests.rs"]
mod tests;
