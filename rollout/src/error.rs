//! The errors of this crate's writing and listing side.
//!
//! Every error names the path it concerns, because a session file problem is only actionable
//! when the person reading the log can find the file.

use std::path::PathBuf;

/// Why recording, persisting or listing a rollout failed.
#[derive(Debug, thiserror::Error)]
pub enum RolloutError {
    /// The filesystem refused an operation on `path` (create the folders, open, write, read).
    #[error("{action} {path}: {source}")]
    Io {
        /// What was being attempted, e.g. "create session directory".
        action: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// An item could not be turned into a JSON line. This is a bug in a type's `Serialize`
    /// (a map with non-string keys, a failing custom serializer), never a file problem.
    #[error("serialize rollout line ({line_type}): {source}")]
    Serialize {
        /// The line `type` that failed.
        line_type: String,
        /// serde_json's explanation.
        #[source]
        source: serde_json::Error,
    },
    /// The recorder's writer task has stopped (after `shutdown`, or because its runtime went
    /// away), so nothing more can be accepted.
    #[error("rollout writer for {path} is closed")]
    Closed {
        /// The rollout file of the closed recorder.
        path: PathBuf,
    },
    /// A recorder was created outside a tokio runtime, so its writer task cannot run.
    #[error("a rollout recorder needs a tokio runtime (create it inside one)")]
    NoRuntime,
    /// No home folder could be determined: neither an explicit one, nor `$CODEX_HOME`, nor
    /// `$HOME`.
    #[error("cannot resolve the Codex home: set CODEX_HOME or HOME")]
    NoHome,
    /// A listing cursor did not have the `<timestamp>|<uuid>` shape this crate hands out.
    #[error("invalid listing cursor {0:?}")]
    InvalidCursor(String),
}

impl RolloutError {
    /// Builds an [`RolloutError::Io`]; a helper so call sites stay one line.
    pub(crate) fn io(
        action: &'static str,
        path: impl Into<PathBuf>,
        source: std::io::Error,
    ) -> Self {
        Self::Io {
            action,
            path: path.into(),
            source,
        }
    }
}

/// Convenience alias for this crate's results.
pub type Result<T, E = RolloutError> = std::result::Result<T, E>;
