//! Where a home's bytes are, per working directory and per month (of the thread's creation),
//! and how much of each a policy would act on: what `du --plan` prints.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::SystemTime;

use codex_rollout::{CodexHome, parse_rollout_file_name};
use serde::Serialize;

use super::PruneError;
use super::plan::{PlannedThread, plan_prune};
use super::policy::Policy;

/// One row of a summary.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StorageRow {
    /// Threads.
    pub threads: usize,
    /// Their bytes.
    pub bytes: u64,
    /// Threads the policy would act on.
    pub acting: usize,
    /// Their bytes.
    pub acting_bytes: u64,
}

/// A home's storage per working directory and per month, with a policy's share.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct StorageSummary {
    /// Per working directory (as its session meta records it).
    pub per_cwd: BTreeMap<PathBuf, StorageRow>,
    /// Per month of creation (`YYYY-MM`, UTC; `unknown` when the name says none).
    pub per_month: BTreeMap<String, StorageRow>,
    /// The whole home.
    pub total: StorageRow,
}

/// Summarises `home`, with `policy`'s share of each row, at `now`.
pub fn storage_summary(
    home: &CodexHome,
    policy: &Policy,
    now: SystemTime,
) -> Result<StorageSummary, PruneError> {
    let mut everything = Policy::new(policy.action);
    everything.min_idle = std::time::Duration::ZERO;
    let all = plan_prune(home, &everything, now)?;
    let picked = plan_prune(home, policy, now)?;
    let acting: std::collections::HashSet<_> =
        picked.acting().map(|thread| thread.thread_id).collect();
    let mut summary = StorageSummary::default();
    for thread in &all.threads {
        let acts = acting.contains(&thread.thread_id);
        for row in [
            summary.per_cwd.entry(thread.cwd.clone()).or_default(),
            summary.per_month.entry(month_of(thread)).or_default(),
            &mut summary.total,
        ] {
            row.threads += 1;
            row.bytes += thread.bytes;
            if acts {
                row.acting += 1;
                row.acting_bytes += thread.bytes;
            }
        }
    }
    Ok(summary)
}

fn month_of(thread: &PlannedThread) -> String {
    thread
        .files
        .first()
        .and_then(|path| path.file_name())
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name)
        .map_or_else(
            || "unknown".to_owned(),
            |name| name.created.format("%Y-%m").to_string(),
        )
}
