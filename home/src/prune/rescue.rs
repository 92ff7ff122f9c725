//! Rescuing a thread of a home: its writer lock asked first (a thread a running Codex is
//! writing has no settled end to start from), then `codex-rollout`'s rescue writes the new
//! session into the home's sessions, where Codex finds it (`thread/list` adds a row for a
//! file it has none for; `codex resume` finds it by id).

use std::path::Path;

use chrono::{DateTime, Utc};
use codex_rollout::CodexHome;
use codex_rollout::{RescueError, Rescued, rescue_rollout};

use crate::writer_lock::thread_writer_lock;

/// Why a thread was not rescued.
#[derive(Debug, thiserror::Error)]
pub enum RescueThreadError {
    /// A running Codex holds the thread.
    #[error("a running Codex is writing {0}; rescue it once that Codex has stopped")]
    OpenInCodex(String),
    /// The rescue itself failed.
    #[error(transparent)]
    Rescue(#[from] RescueError),
}

/// Writes the rescue of `original` (a rollout of `home`) as a new thread of `home`.
pub fn rescue_thread(
    home: &CodexHome,
    original: &Path,
    now: DateTime<Utc>,
) -> Result<Rescued, RescueThreadError> {
    if let Ok(Some(thread)) = codex_rollout::thread_id_of_file(original)
        && thread_writer_lock(home, thread).forbids_rewrite()
    {
        return Err(RescueThreadError::OpenInCodex(thread.to_string()));
    }
    Ok(rescue_rollout(original, home, now)?)
}
