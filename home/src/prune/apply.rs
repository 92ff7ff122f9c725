//! Doing a plan: each thread's action, its writer lock and idle time asked again just
//! before, every step one that a kill leaves readable (see `docs/storage.md`).
//!
//! - compress: `codex-rollout`'s verified replacement of each plain piece ([`compress_file`]);
//! - archive: Codex's own `codex archive` when the home has Codex state, else the files
//!   renamed into the flat `archived_sessions/`, as Codex 0.169 places them;
//! - delete: the files renamed into the trash, then `codex delete --force` for the state
//!   (see [`super::delete`] for the marker that lets a later run finish an interrupted one).
//!
//! All of it under the home's [`PruneLock`], which the Codex commands hold too while they run.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use codex_rollout::CompressOutcome;
use rayon::prelude::*;
use serde::Serialize;

use super::codex_cli::{CodexCli, CodexCliError};
use super::delete::{Resume, finish_delete, move_to_trash, pending_deletes, resume_delete};
use super::lock::PruneLock;
use super::plan::{Hold, PlannedThread, PrunePlan};
use super::policy::Action;
use super::rescue::rescue_thread;
use super::trash::{TrashReport, trash_folders_at};
use super::{PruneError, io};
use crate::compress::{CompressOptions, compress_file, compression_pair};
use crate::writer_lock::thread_writer_lock;

/// What became of one planned thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// Done.
    Done,
    /// Left alone (the plan's reason, or one found when asked again).
    Held {
        /// Why.
        hold: Hold,
    },
    /// Tried and failed; the thread is as it was or, for a delete, in the trash with its
    /// marker pending (finished by the next run).
    Failed {
        /// What went wrong.
        error: String,
    },
}

/// One planned thread after `--apply`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AppliedThread {
    /// The thread.
    pub thread_id: ThreadId,
    /// What was done.
    pub action: Action,
    /// How it went.
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Where its files went (the trash folder, the archive folder), when they moved.
    pub moved_to: Option<PathBuf>,
}

/// A plan's totals, with its outcomes when it was applied: what `prune` sums up last.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct PlanSummary {
    /// Whether the plan was applied.
    pub applied: bool,
    /// How many threads the home has.
    pub threads_in_home: usize,
    /// The threads the policy picked, held ones included.
    pub picked: usize,
    /// The threads `--apply` acts on ([`PrunePlan::acting`]).
    pub acting: usize,
    /// Their bytes.
    pub acting_bytes: u64,
    /// Threads left alone: the plan's held ones, or, applied, those held when asked again.
    pub held: usize,
    /// Threads acted on.
    pub done: usize,
    /// Threads whose action failed.
    pub failed: usize,
}

impl PlanSummary {
    /// The totals of `plan`; `applied` is what applying it did, in the plan's order.
    pub fn of(plan: &PrunePlan, applied: Option<&[AppliedThread]>) -> Self {
        let mut summary = Self {
            applied: applied.is_some(),
            threads_in_home: plan.threads_in_home,
            picked: plan.threads.len(),
            acting: plan.acting().count(),
            acting_bytes: plan.acting_bytes(),
            ..Self::default()
        };
        for (index, planned) in plan.threads.iter().enumerate() {
            match applied
                .and_then(|all| all.get(index))
                .map(|result| &result.outcome)
            {
                Some(Outcome::Done) => summary.done += 1,
                Some(Outcome::Failed { .. }) => summary.failed += 1,
                Some(Outcome::Held { .. }) => summary.held += 1,
                None if planned.hold.is_some() => summary.held += 1,
                None => {}
            }
        }
        summary
    }
}

/// How to apply.
#[derive(Debug, Clone)]
pub struct ApplyOptions {
    /// The Codex that changes its own state (needed when the home has `state_5.sqlite` and
    /// the plan archives or deletes).
    pub codex: Option<CodexCli>,
    /// How compression encodes (its age rule is replaced by `min_idle`).
    pub compress: CompressOptions,
    /// A thread written less than this ago is held.
    pub min_idle: Duration,
}

/// Applies `plan` to `home` under its `lock` (the plan made under the same lock): first
/// finishes, or drops, the deletes an earlier run left pending, then each acting thread in
/// order. `progress` is called with each thread's bytes once it is done.
pub fn apply_prune(
    home: &CodexHome,
    plan: &PrunePlan,
    options: &ApplyOptions,
    lock: &PruneLock,
    progress: &(dyn Fn(u64) + Sync),
) -> Vec<AppliedThread> {
    let has_state = CodexCli::home_has_state(home);
    let codex = Codex {
        home,
        cli: options.codex.as_ref(),
        has_state,
        lock,
    };
    for (folder, thread) in pending_deletes(home) {
        match resume_delete(&folder, thread) {
            Ok(Resume::Forget) => {}
            Ok(Resume::Dropped) => {
                tracing::info!("a delete of {thread} was interrupted before any file moved");
                continue;
            }
            Ok(Resume::Stuck(why)) => {
                tracing::warn!("an interrupted delete of {thread} is left pending: {why}");
                continue;
            }
            Err(err) => {
                tracing::warn!("an interrupted delete of {thread} is still pending: {err}");
                continue;
            }
        }
        // `codex delete` of a thread Codex no longer knows fails ("failed to delete
        // session"): a kill after Codex forgot it but before the marker went. Either way Codex
        // has no row left, and the files are in the trash. Without a Codex to ask, the
        // marker stays for a run that has one.
        match codex.forget(thread) {
            Ok(()) | Err(CodexCliError::Failed { .. }) => {
                if let Err(err) = finish_delete(&folder, thread) {
                    tracing::warn!("{err}");
                }
            }
            Err(err) => tracing::warn!("an interrupted delete is still pending: {err}"),
        }
    }
    let one = |thread: &PlannedThread| {
        let outcome = match thread.hold {
            Some(hold) => Outcome::Held { hold },
            None => match still_free(home, thread, options.min_idle) {
                Some(hold) => Outcome::Held { hold },
                None => return act(&codex, thread, options, progress),
            },
        };
        progress(thread.bytes);
        AppliedThread {
            thread_id: thread.thread_id,
            action: thread.action,
            outcome,
            moved_to: None,
        }
    };
    // Compression is CPU-bound and each thread's files are its own: on rayon's pool, in
    // the plan's order. Archive and delete run Codex one thread at a time (its state is
    // one SQLite database).
    let all_compress = plan
        .threads
        .iter()
        .all(|thread| thread.action == Action::Compress);
    if all_compress {
        plan.threads.par_iter().map(one).collect()
    } else {
        plan.threads.iter().map(one).collect()
    }
}

/// Asked again just before acting: the lock, and the newest write.
fn still_free(home: &CodexHome, thread: &PlannedThread, min_idle: Duration) -> Option<Hold> {
    if thread_writer_lock(home, thread.thread_id).forbids_rewrite() {
        return Some(Hold::OpenInCodex);
    }
    let now = SystemTime::now();
    let recent = thread.files.iter().any(|file| {
        std::fs::metadata(file)
            .and_then(|meta| meta.modified())
            .is_ok_and(|modified| now.duration_since(modified).unwrap_or_default() < min_idle)
    });
    recent.then_some(Hold::RecentlyWritten)
}

fn act(
    codex: &Codex<'_>,
    thread: &PlannedThread,
    options: &ApplyOptions,
    progress: &(dyn Fn(u64) + Sync),
) -> AppliedThread {
    let home = codex.home;
    let mut moved_to = None;
    let needs_codex = codex.has_state && matches!(thread.action, Action::Archive | Action::Delete);
    let result: Result<(), String> = match thread.action {
        _ if needs_codex && codex.cli.is_none() => Err(no_codex()),
        Action::Compress => {
            let compress = compress_options(home, options);
            let mut failed = None;
            for file in &thread.files {
                let result = compress_file(file, &compress, progress);
                if let CompressOutcome::Failed { error } = result.outcome {
                    failed = Some(error);
                }
            }
            failed.map_or(Ok(()), Err)
        }
        Action::Archive => settle_compressions(home, thread, options)
            .and_then(|files| archive(codex, thread, &files))
            .map(|folder| {
                moved_to = Some(folder);
            }),
        // The newest piece holds the thread's end, which is all a rescue keeps.
        Action::Rescue => match thread.files.last() {
            None => Err("the thread has no file".to_owned()),
            Some(newest) => rescue_thread(home, newest, chrono::Utc::now())
                .map(|rescued| moved_to = Some(rescued.path))
                .map_err(|err| err.to_string()),
        },
        Action::Delete => {
            let moved = settle_compressions(home, thread, options).and_then(|files| {
                move_to_trash(home, thread.thread_id, &files, SystemTime::now())
                    .map_err(|err| err.to_string())
            });
            match moved {
                Err(err) => Err(err),
                Ok(folder) => {
                    moved_to = Some(folder.clone());
                    codex
                        .forget(thread.thread_id)
                        .map_err(|err| err.to_string())
                        .and_then(|()| {
                            finish_delete(&folder, thread.thread_id).map_err(|err| err.to_string())
                        })
                }
            }
        }
    };
    if thread.action != Action::Compress {
        progress(thread.bytes);
    }
    AppliedThread {
        thread_id: thread.thread_id,
        action: thread.action,
        outcome: match result {
            Ok(()) => Outcome::Done,
            Err(error) => Outcome::Failed { error },
        },
        moved_to,
    }
}

/// The Codex that changes this home's state, and what it needs to.
struct Codex<'a> {
    home: &'a CodexHome,
    cli: Option<&'a CodexCli>,
    /// Whether the home has Codex state (else files move without Codex).
    has_state: bool,
    lock: &'a PruneLock,
}

impl Codex<'_> {
    /// Codex forgets a deleted thread (nothing to do in a home without Codex state).
    fn forget(&self, thread: ThreadId) -> Result<(), CodexCliError> {
        if !self.has_state {
            return Ok(());
        }
        match self.cli {
            Some(cli) => cli.delete(self.home, thread, self.lock),
            None => Err(CodexCliError::NotGiven),
        }
    }
}

/// The thread's files once every compression a kill interrupted is finished: a plain piece
/// beside its checked `.zst` copy loses the plain file (`compress_file` finishes such a run),
/// so that what moves next moves one copy of each piece; Codex's own `archive` moves only
/// the file its row names, and would leave the other behind as a live piece of an archived
/// thread. A copy that cannot be finished (it differs, the file changed) fails the action
/// before anything moves.
fn settle_compressions(
    home: &CodexHome,
    thread: &PlannedThread,
    options: &ApplyOptions,
) -> Result<Vec<PathBuf>, String> {
    let compress = compress_options(home, options);
    let mut files = Vec::with_capacity(thread.files.len());
    for file in &thread.files {
        // The plan names one of the pair (the walk lists a piece once).
        let Some((plain, copy)) = compression_pair(file) else {
            files.push(file.clone());
            continue;
        };
        if !(plain.exists() && copy.exists()) {
            files.push(file.clone());
            continue;
        }
        match compress_file(&plain, &compress, &|_| {}).outcome {
            CompressOutcome::Finished { .. } | CompressOutcome::Compressed { .. } => {
                files.push(copy);
            }
            CompressOutcome::Skipped { reason } => {
                return Err(format!(
                    "{} and a compressed copy beside it are both there, and the copy cannot \
                     replace it: {}",
                    plain.display(),
                    reason
                ));
            }
            CompressOutcome::Failed { error } => return Err(error),
            CompressOutcome::WouldCompress { .. } => files.push(file.clone()),
        }
    }
    Ok(files)
}

/// How prune compresses now: its idle time replaces compression's age rule, and the home's
/// writer locks are asked.
fn compress_options(home: &CodexHome, options: &ApplyOptions) -> CompressOptions {
    CompressOptions {
        older_than: options.min_idle,
        now: SystemTime::now(),
        dry_run: false,
        lock_home: Some(home.clone()),
        ..options.compress.clone()
    }
}

fn archive(
    codex: &Codex<'_>,
    thread: &PlannedThread,
    files: &[PathBuf],
) -> Result<PathBuf, String> {
    let folder = codex.home.archived_sessions_dir();
    if codex.has_state {
        let cli = codex.cli.ok_or_else(no_codex)?;
        cli.archive(codex.home, thread.thread_id, codex.lock)
            .map_err(|err| err.to_string())?;
        return Ok(folder);
    }
    std::fs::create_dir_all(&folder)
        .map_err(|err| format!("cannot create {}: {err}", folder.display()))?;
    for file in files {
        let Some(name) = file.file_name() else {
            continue;
        };
        std::fs::rename(file, folder.join(name))
            .map_err(|err| format!("cannot move {}: {err}", file.display()))?;
    }
    Ok(folder)
}

fn no_codex() -> String {
    CodexCliError::NotGiven.to_string()
}

/// Removes the trash folders of `home` deleted at least `grace` before `now`, under the
/// home's prune lock; without one (`None`), only says which it would. A folder holding a
/// delete a kill interrupted is left alone: the next [`apply_prune`] finishes that
/// delete first.
pub fn empty_trash(
    home: &CodexHome,
    grace: Duration,
    now: SystemTime,
    lock: Option<&PruneLock>,
) -> Result<TrashReport, PruneError> {
    let dry_run = lock.is_none();
    let folders = trash_folders_at(home, grace, now);
    let pending: Vec<PathBuf> = pending_deletes(home)
        .into_iter()
        .map(|(folder, _)| folder)
        .collect();
    if !dry_run {
        for folder in folders.iter().filter(|folder| folder.expired) {
            if pending.contains(&folder.path) {
                continue;
            }
            std::fs::remove_dir_all(&folder.path).map_err(io("remove", &folder.path))?;
        }
    }
    Ok(TrashReport {
        folders,
        removed: !dry_run,
    })
}
