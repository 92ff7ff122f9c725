//! What a prune policy says: which threads (every rule must hold), and what to do to them.
//!
//! Rules are about a thread, not a file: a thread Codex continued in more files is picked or
//! left as one, its age is its newest piece's, its size the sum of its pieces.

use std::path::PathBuf;
use std::time::Duration;

use crate::list::SourceFilter;
use serde::Serialize;

/// Threads written more recently than this are never touched, whatever the policy says: a
/// Codex that is between turns holds no lock but may write again at once.
pub const DEFAULT_MIN_IDLE: Duration = Duration::from_secs(10 * 60);

/// What prune does to each thread it picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    /// Each plain piece replaced by its verified `.jsonl.zst` (Codex reads both).
    Compress,
    /// Archived as Codex archives (`codex archive`): the file moved unchanged to
    /// `archived_sessions/`, Codex's state marked archived.
    Archive,
    /// Moved into `<home>/trash/<unix seconds>/`, and removed from Codex's state by
    /// `codex delete`; the bytes stay until `prune --empty-trash` after the grace period.
    Delete,
    /// A new session holding only what resume needs (codex-rollout's rescue: the live suffix
    /// from the newest compaction) written into the home's sessions, for a thread too large
    /// to resume; the original stays as it is.
    Rescue,
}

impl Action {
    /// The action's name, as `--action` and a policy spell it.
    pub fn name(self) -> &'static str {
        match self {
            Action::Compress => "compress",
            Action::Archive => "archive",
            Action::Delete => "delete",
            Action::Rescue => "rescue",
        }
    }
}

/// A prune policy. The default picks every thread and compresses it; each rule narrows.
#[derive(Debug, Clone)]
pub struct Policy {
    /// What to do.
    pub action: Action,
    /// Only threads last written at least this long ago.
    pub older_than: Option<Duration>,
    /// Only threads whose files take more than this many bytes on disk (their lengths).
    pub larger_than: Option<u64>,
    /// Only threads recorded in this working directory or below it.
    pub cwd: Option<PathBuf>,
    /// `Some(true)`: only archived threads; `Some(false)`: only live ones; `None`: both.
    pub archived: Option<bool>,
    /// The newest N threads of each working directory are kept whatever the other rules say.
    pub keep_last: Option<usize>,
    /// Only threads recorded by a source of these kinds.
    pub source: Option<SourceFilter>,
    /// Threads written more recently than this are held (at least [`DEFAULT_MIN_IDLE`] is
    /// the advice; tests lower it).
    pub min_idle: Duration,
}

impl Policy {
    /// A policy that picks every thread for `action`, but those written in the last
    /// [`DEFAULT_MIN_IDLE`].
    pub fn new(action: Action) -> Policy {
        Policy {
            action,
            older_than: None,
            larger_than: None,
            cwd: None,
            archived: None,
            keep_last: None,
            source: None,
            min_idle: DEFAULT_MIN_IDLE,
        }
    }
}

/// A size on a command line: bytes, or a number with `K`, `M`, `G` or `T` (powers of 1024,
/// an optional `B` or `iB` after).
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let upper = trimmed.to_ascii_uppercase();
    let upper = upper
        .strip_suffix("IB")
        .or_else(|| upper.strip_suffix('B'))
        .unwrap_or(&upper);
    let (number, shift) = match upper.chars().last() {
        Some('K') => (&upper[..upper.len() - 1], 10),
        Some('M') => (&upper[..upper.len() - 1], 20),
        Some('G') => (&upper[..upper.len() - 1], 30),
        Some('T') => (&upper[..upper.len() - 1], 40),
        _ => (upper, 0),
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| format!("not a size: {trimmed:?} (e.g. 500M, 2G, 1048576)"))?;
    if !value.is_finite() || value < 0.0 {
        return Err(format!("not a size: {trimmed:?}"));
    }
    Ok((value * (1u64 << shift) as f64) as u64)
}

/// A policy written as one argument (`du --plan`, `list --plan`): comma-separated, an
/// optional action first (`compress`, `archive`, `delete`, `rescue`; default `compress`),
/// then rules:
/// `older-than=AGE`, `larger-than=SIZE`, `cwd=DIR`, `keep-last=N`, `source=SOURCE`,
/// `idle=AGE`, `archived`, `live`. E.g. `archive,older-than=30d,keep-last=5`.
pub fn parse_policy(text: &str) -> Result<Policy, String> {
    let mut policy = Policy::new(Action::Compress);
    for (index, part) in text.split(',').map(str::trim).enumerate() {
        let (key, value) = match part.split_once('=') {
            Some((key, value)) => (key.trim(), Some(value.trim())),
            None => (part, None),
        };
        let need = || value.ok_or_else(|| format!("{key} needs a value: {key}=…"));
        let age = || -> Result<Duration, String> {
            crate::dates::parse_age(need()?).map_err(|err| err.to_string())
        };
        match key {
            "compress" | "archive" | "delete" | "rescue" if index == 0 && value.is_none() => {
                policy.action = match key {
                    "archive" => Action::Archive,
                    "delete" => Action::Delete,
                    "rescue" => Action::Rescue,
                    _ => Action::Compress,
                };
            }
            "older-than" => policy.older_than = Some(age()?),
            "idle" => policy.min_idle = age()?,
            "larger-than" => policy.larger_than = Some(parse_size(need()?)?),
            "cwd" => policy.cwd = Some(PathBuf::from(need()?)),
            "keep-last" => {
                policy.keep_last = Some(
                    need()?
                        .parse()
                        .map_err(|_| format!("keep-last wants a number, not {value:?}"))?,
                );
            }
            "source" => policy.source = Some(SourceFilter::of_policy_word(need()?)?),
            "archived" if value.is_none() => policy.archived = Some(true),
            "live" if value.is_none() => policy.archived = Some(false),
            "" => {}
            _ => return Err(format!("unknown policy rule {part:?}")),
        }
    }
    Ok(policy)
}
