//! Pruning a home by policy: which threads a policy picks ([`plan_prune`]), what would be
//! done to each and why some are held back, and doing it ([`apply_prune`]) in a way a kill
//! at any moment cannot lose a session and the real Codex stays consistent with the files.
//!
//! - [`policy`]: the selection rules (age, size, working directory, archived or live,
//!   source, the newest N per working directory kept) and the action;
//! - [`plan`]: one [`PlannedThread`] per thread of the home the policy picks, or the reason
//!   it is held (a running Codex holds its writer lock, it was written in the last minutes,
//!   it is already in the state the action would give);
//! - [`codex_cli`]: the real Codex's own `archive` and `delete`, invoked so that its state
//!   (`state_5.sqlite`, `thread_history_1.sqlite`) changes the way it changes it;
//! - [`delete`]: a thread's files renamed into the trash, then Codex asked to forget it, with
//!   the marker that lets the next run finish (or drop) a delete a kill interrupted;
//! - [`lock`]: one prune at a time per home, held until the Codex commands it started exit;
//! - [`trash`]: deleted sessions wait under `<home>/trash/<unix seconds>/` until
//!   [`empty_trash`] removes folders older than a grace period;
//! - [`rescue`]: a thread too large to resume rewritten as a new one holding only what
//!   resume needs (`codex-rollout`'s rescue), once no running Codex holds it;
//! - [`summary`]: bytes per working directory and per month, with a policy's share;
//! - [`apply`]: each planned action done, the writer lock asked again just before.
//!
//! `docs/storage.md` says what each action does to the files and to Codex's state, and what
//! Codex shows afterwards.

mod apply;
mod codex_cli;
mod delete;
mod lock;
mod plan;
mod policy;
mod rescue;
mod summary;
mod trash;

use std::path::Path;

pub use apply::{AppliedThread, ApplyOptions, Outcome, PlanSummary, apply_prune, empty_trash};
pub use codex_cli::{CodexCli, CodexCliError};
pub use lock::PruneLock;
pub use plan::{Hold, PlannedThread, PrunePlan, plan_prune};
pub use policy::{Action, DEFAULT_MIN_IDLE, Policy, parse_policy, parse_size};
pub use rescue::{RescueThreadError, rescue_thread};
pub use summary::{StorageRow, StorageSummary, storage_summary};
pub use trash::{TRASH_SUBDIR, TrashFolder, TrashReport};

/// Why pruning could not start.
#[derive(Debug, thiserror::Error)]
pub enum PruneError {
    /// The home's sessions could not be walked.
    #[error("cannot list the sessions of {home}: {source}")]
    Walk {
        /// The home.
        home: std::path::PathBuf,
        /// What failed.
        source: codex_rollout::RolloutError,
    },
    /// The trash could not be read or emptied.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path it concerned.
        path: std::path::PathBuf,
        /// What failed.
        source: std::io::Error,
    },
}

/// The error of an IO `action` on `path`, for `map_err`.
pub(crate) fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> PruneError {
    let path = path.to_path_buf();
    move |source| PruneError::Io {
        action,
        path,
        source,
    }
}

#[cfg(test)]
#[path = "prune_tests.rs"]
mod tests;
