//! What the index stores of a file, read back before an update decides what to do with it:
//! its row ([`Stored`], [`Mark`]) and the state its reader carries ([`ReaderState`]).

use std::path::{Path, PathBuf};

use codex_rollout::{ParentPrefixScan, TurnTally};
use serde::{Deserialize, Serialize};

/// What the reader of a file carries from one line to the next, stored with the file's row.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct ReaderState {
    pub(crate) tally: TurnTally,
    #[serde(default)]
    pub(crate) prefix: ParentPrefixScan,
    pub(crate) cwd: Option<String>,
    pub(crate) model: Option<String>,
    pub(crate) seen_meta: bool,
    /// The thread the file holds: its first session meta's id (the file name's only when it
    /// has none), the one answer every command gives.
    #[serde(default)]
    pub(crate) thread_id: Option<String>,
}

/// What a file's row says, compared before storing a batch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Mark {
    pub(crate) id: i64,
    pub(crate) size: i64,
    pub(crate) mtime_ns: i64,
    pub(crate) head_hash: i64,
    pub(crate) read_bytes: i64,
    pub(crate) read_lines: i64,
}

/// A file's row as the update found it.
#[derive(Debug, Clone)]
pub(crate) struct Stored {
    pub(crate) mark: Mark,
    pub(crate) head_len: i64,
    pub(crate) complete: bool,
    pub(crate) state: String,
}

/// How a path is stored: as the walk gave it.
pub(super) fn path_key(path: &Path) -> String {
    PathBuf::from(path).display().to_string()
}
