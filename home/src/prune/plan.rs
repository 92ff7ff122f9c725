//! The plan: every thread of a home the policy picks, grouped from its files, with the
//! action prune would take or the reason it holds back.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::SystemTime;

use codex_app_server_protocol::session_source;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use codex_rollout::Compression;
use serde::Serialize;

use super::PruneError;
use super::policy::{Action, Policy};
use crate::list::{all_rollout_files, read_head_summary};
use crate::writer_lock::thread_writer_lock;

/// Why a picked thread is left alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Hold {
    /// A running Codex holds the thread's writer lock (or it cannot be told).
    OpenInCodex,
    /// Written less than the policy's `min_idle` ago.
    RecentlyWritten,
    /// Already as the action would leave it (archived, or every piece compressed).
    AlreadyDone,
    /// Another thread is a fork by reference of it (its `history_base` names one of this
    /// thread's files): deleting it would take that thread's history. Delete the forks
    /// first.
    BaseOfFork,
}

/// One thread the policy picked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PlannedThread {
    /// The thread.
    pub thread_id: ThreadId,
    /// Its files, oldest piece first.
    pub files: Vec<PathBuf>,
    /// Their lengths, summed.
    pub bytes: u64,
    /// The working directory its session meta records.
    pub cwd: PathBuf,
    /// Whether its files are under `archived_sessions/`.
    pub archived: bool,
    /// Seconds since its newest piece was last written.
    pub idle_secs: u64,
    /// What prune does to it.
    pub action: Action,
    /// Why it is left alone, if it is.
    pub hold: Option<Hold>,
}

impl PlannedThread {
    /// Whether `--apply` acts on it.
    pub fn acts(&self) -> bool {
        self.hold.is_none()
    }
}

/// What a policy picks in a home.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PrunePlan {
    /// The threads picked, oldest first; held ones included, with their reason.
    pub threads: Vec<PlannedThread>,
    /// How many threads the home has.
    pub threads_in_home: usize,
}

impl PrunePlan {
    /// The threads `--apply` acts on.
    pub fn acting(&self) -> impl Iterator<Item = &PlannedThread> {
        self.threads.iter().filter(|thread| thread.acts())
    }

    /// The bytes of the threads `--apply` acts on.
    pub fn acting_bytes(&self) -> u64 {
        self.acting().map(|thread| thread.bytes).sum()
    }
}

/// A thread of the home before the policy is asked.
struct Candidate {
    thread: PlannedThread,
    /// The rollout ids of its files (what a `history_base` names).
    rollout_ids: Vec<uuid::Uuid>,
    source: Option<codex_protocol::rollout::SessionSource>,
    compressed: bool,
    modified: SystemTime,
}

/// Plans `policy` over `home` at `now`.
pub fn plan_prune(
    home: &CodexHome,
    policy: &Policy,
    now: SystemTime,
) -> Result<PrunePlan, PruneError> {
    let files = all_rollout_files(home).map_err(|source| PruneError::Walk {
        home: home.root.clone(),
        source,
    })?;
    let mut by_thread: BTreeMap<uuid::Uuid, Candidate> = BTreeMap::new();
    let mut order = Vec::new();
    // (the rollout id a `history_base` names, the thread whose file names it)
    let mut bases: Vec<(uuid::Uuid, uuid::Uuid)> = Vec::new();
    for found in files {
        let Ok(metadata) = std::fs::metadata(&found.path) else {
            // Gone since the walk (a Codex archived it): nothing to plan.
            continue;
        };
        let modified = metadata.modified().unwrap_or(SystemTime::UNIX_EPOCH);
        let compressed = found.name.compression == Compression::Zstd;
        let rollout_id = found.name.rollout_id.unwrap_or(found.name.thread_id);
        if let Some(candidate) = by_thread.get_mut(&found.name.thread_id) {
            candidate.rollout_ids.push(rollout_id);
            candidate.thread.files.push(found.path);
            candidate.thread.bytes += metadata.len();
            candidate.modified = candidate.modified.max(modified);
            candidate.compressed &= compressed;
            continue;
        }
        let head = read_head_summary(&found.path).unwrap_or_default();
        let (cwd, source) = match head.session_meta {
            Some(meta) => {
                if let Some(base) = &meta.meta.history_base
                    && let Ok(named) = uuid::Uuid::parse_str(&base.thread_id.to_string())
                {
                    bases.push((named, found.name.thread_id));
                }
                (meta.meta.cwd, Some(meta.meta.source))
            }
            None => (PathBuf::new(), None),
        };
        order.push(found.name.thread_id);
        by_thread.insert(
            found.name.thread_id,
            Candidate {
                thread: PlannedThread {
                    thread_id: ThreadId::from_uuid(found.name.thread_id),
                    files: vec![found.path],
                    bytes: metadata.len(),
                    cwd,
                    archived: found.archived,
                    idle_secs: 0,
                    action: policy.action,
                    hold: None,
                },
                rollout_ids: vec![rollout_id],
                source,
                compressed,
                modified,
            },
        );
    }
    let threads_in_home = by_thread.len();
    let kept = newest_per_cwd(&by_thread, policy.keep_last);
    let mut threads = Vec::new();
    for id in order {
        let Some(mut candidate) = by_thread.remove(&id) else {
            continue;
        };
        let idle = now.duration_since(candidate.modified).unwrap_or_default();
        candidate.thread.idle_secs = idle.as_secs();
        if kept.contains(&id) || !picks(policy, &candidate, idle) {
            continue;
        }
        let is_base = bases
            .iter()
            .any(|(named, by)| *by != id && candidate.rollout_ids.contains(named));
        candidate.thread.hold = hold_of(home, policy, &candidate, idle, is_base);
        threads.push(candidate.thread);
    }
    Ok(PrunePlan {
        threads,
        threads_in_home,
    })
}

fn picks(policy: &Policy, candidate: &Candidate, idle: std::time::Duration) -> bool {
    let thread = &candidate.thread;
    policy
        .archived
        .is_none_or(|archived| archived == thread.archived)
        && policy.older_than.is_none_or(|age| idle >= age)
        && policy.larger_than.is_none_or(|bytes| thread.bytes > bytes)
        && policy
            .cwd
            .as_ref()
            .is_none_or(|cwd| thread.cwd.starts_with(cwd))
        && policy.source.as_ref().is_none_or(|wanted| {
            candidate
                .source
                .as_ref()
                .is_some_and(|source| wanted.keeps_source(&session_source(source)))
        })
}

fn hold_of(
    home: &CodexHome,
    policy: &Policy,
    candidate: &Candidate,
    idle: std::time::Duration,
    is_base: bool,
) -> Option<Hold> {
    let done = match policy.action {
        Action::Archive => candidate.thread.archived,
        Action::Compress => candidate.compressed,
        Action::Delete | Action::Rescue => false,
    };
    if done {
        Some(Hold::AlreadyDone)
    } else if is_base && policy.action == Action::Delete {
        Some(Hold::BaseOfFork)
    } else if thread_writer_lock(home, candidate.thread.thread_id).forbids_rewrite() {
        Some(Hold::OpenInCodex)
    } else if idle < policy.min_idle {
        Some(Hold::RecentlyWritten)
    } else {
        None
    }
}

/// The newest `keep` threads of each working directory (by last write).
fn newest_per_cwd(
    by_thread: &BTreeMap<uuid::Uuid, Candidate>,
    keep: Option<usize>,
) -> std::collections::HashSet<uuid::Uuid> {
    let Some(keep) = keep else {
        return Default::default();
    };
    let mut per_cwd: BTreeMap<&PathBuf, Vec<(SystemTime, uuid::Uuid)>> = BTreeMap::new();
    for (id, candidate) in by_thread {
        per_cwd
            .entry(&candidate.thread.cwd)
            .or_default()
            .push((candidate.modified, *id));
    }
    per_cwd
        .into_values()
        .flat_map(|mut threads| {
            threads.sort_by(|a, b| b.cmp(a));
            threads.into_iter().take(keep).map(|(_, id)| id)
        })
        .collect()
}
