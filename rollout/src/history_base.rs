//! Forks by reference: a rollout whose first `session_meta` has a `history_base` continues a
//! prefix of another thread's rollout instead of copying it. This module finds that parent
//! under the same Codex home and puts the history back together.
//!
//! The full history of such a rollout is its own first `session_meta` (so the first meta
//! still names the file's own thread, as in a copied fork), then the parent's prefix (itself
//! resolved when the parent has a base: a chain), then the rollout's own lines after its
//! meta. This is the shape upstream's copied sub-agent forks have on disk (the child's meta,
//! the parent's replayed meta and items, then the child's lines), so every later reader
//! treats it as it treats those.
//!
//! The prefix is the parent's first `end_byte_offset` uncompressed bytes (a line boundary)
//! and/or its lines with an `ordinal` below `end_ordinal_exclusive`; when both are given they
//! must agree. A parent that cannot be found, read or cut as the base says is an error that
//! names the thread and the child file, never a silently shorter history. A chain is followed
//! to at most [`MAX_BASE_DEPTH`] parents and may not come back to a thread already in it.
//!
//! Why here: `codex-rollout` is the only crate that reads session files, and the parent is
//! found with [`crate::layout::find_rollout_by_rollout_id`] and read with [`crate::source`], plain
//! or compressed, like every other rollout.

mod prefix;

use std::path::{Path, PathBuf};

use codex_protocol::rollout::{HistoryBase, RolloutItem};
use codex_protocol::thread_id::ThreadId;

use crate::error::RolloutError;
use crate::layout::CodexHome;
use crate::layout::find_rollout_by_rollout_id;
use crate::layout::{parse_rollout_file_name, rollout_id_of_path};
use crate::load::{LoadError, LoadedRollout, RolloutContents, load_rollout_items};
use crate::source::{self, StreamDamage};

pub use prefix::PrefixProblem;

pub(crate) use prefix::{Around, check_around, ordinal_at, ordinal_for_cut, prefix_end};

/// How many parents a chain of forks by reference may have.
pub const MAX_BASE_DEPTH: usize = 64;

/// Why the history base of a rollout could not be resolved. Every variant names the file
/// whose `history_base` it concerns (`child`) and the thread that base names.
#[derive(Debug, thiserror::Error)]
pub enum HistoryBaseError {
    /// The rollout itself could not be loaded.
    #[error(transparent)]
    Load(#[from] LoadError),
    /// No file of the rollout the base names is under the home.
    #[error(
        "{}: its history_base names rollout {thread_id}, and no file of that rollout is \
         under {} (sessions/ or archived_sessions/)",
        .child.display(),
        .home.display()
    )]
    MissingParent {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The parent thread.
        thread_id: ThreadId,
        /// The home that was searched.
        home: PathBuf,
    },
    /// The home could not be searched.
    #[error(
        "{}: cannot look for thread {thread_id} (its history_base) under {}: {source}",
        .child.display(),
        .home.display()
    )]
    Lookup {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The parent thread.
        thread_id: ThreadId,
        /// The home that was searched.
        home: PathBuf,
        /// What the listing reported.
        #[source]
        source: RolloutError,
    },
    /// The parent's file was found but could not be read.
    #[error(
        "{}: cannot read {} (thread {thread_id}, its history_base): {source}",
        .child.display(),
        .parent.display()
    )]
    Unreadable {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The parent thread.
        thread_id: ThreadId,
        /// The parent's file.
        parent: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The parent's file records another thread (its first `session_meta` has another id).
    #[error(
        "{}: its history_base names thread {thread_id}, but {} records {}",
        .child.display(),
        .parent.display(),
        .found.map_or_else(|| "no thread".to_string(), |id| format!("thread {id}"))
    )]
    WrongThread {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The parent thread.
        thread_id: ThreadId,
        /// The file found under the parent's name.
        parent: PathBuf,
        /// The thread that file records.
        found: Option<ThreadId>,
    },
    /// The parent is compressed and damaged before the end of the prefix.
    #[error(
        "{}: the prefix of {} (thread {thread_id}, its history_base) is lost: {damage}",
        .child.display(),
        .parent.display()
    )]
    Damaged {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The parent thread.
        thread_id: ThreadId,
        /// The parent's file.
        parent: PathBuf,
        /// Where its stream is damaged.
        #[source]
        damage: StreamDamage,
    },
    /// The parent does not have the prefix the base names.
    #[error(
        "{}: history_base of thread {thread_id} does not fit {}: {problem}",
        .child.display(),
        .parent.display()
    )]
    BadPrefix {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The parent thread.
        thread_id: ThreadId,
        /// The parent's file.
        parent: PathBuf,
        /// What does not fit.
        #[source]
        problem: PrefixProblem,
    },
    /// Following the bases comes back to a thread already in the chain.
    #[error(
        "{}: history_base names thread {thread_id}, which is already in the chain ({})",
        .child.display(),
        display_chain(.chain)
    )]
    Cycle {
        /// The file whose base names the thread.
        child: PathBuf,
        /// The thread named again.
        thread_id: ThreadId,
        /// The threads followed so far, the rollout's own first.
        chain: Vec<ThreadId>,
    },
    /// The chain has more than [`MAX_BASE_DEPTH`] parents.
    #[error(
        "{}: history_base chain is longer than {MAX_BASE_DEPTH} parents (next: thread {thread_id})",
        .child.display()
    )]
    TooDeep {
        /// The file whose base would be followed next.
        child: PathBuf,
        /// The thread it names.
        thread_id: ThreadId,
    },
}

impl HistoryBaseError {
    /// The parent thread a base names, for every error about a base.
    #[cfg(test)]
    pub(crate) fn thread_id(&self) -> Option<ThreadId> {
        match self {
            Self::Load(_) => None,
            Self::MissingParent { thread_id, .. }
            | Self::Lookup { thread_id, .. }
            | Self::Unreadable { thread_id, .. }
            | Self::WrongThread { thread_id, .. }
            | Self::Damaged { thread_id, .. }
            | Self::BadPrefix { thread_id, .. }
            | Self::Cycle { thread_id, .. }
            | Self::TooDeep { thread_id, .. } => Some(*thread_id),
        }
    }
}

fn display_chain(chain: &[ThreadId]) -> String {
    chain
        .iter()
        .map(ThreadId::to_string)
        .collect::<Vec<_>>()
        .join(" <- ")
}

/// One parent prefix a history was resolved from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResolvedBase {
    /// The parent thread.
    pub thread_id: ThreadId,
    /// The parent's file.
    pub path: PathBuf,
    /// The prefix's length in the parent's uncompressed bytes.
    pub end_byte_offset: u64,
    /// The ordinal the base gave, if any.
    pub end_ordinal_exclusive: Option<u64>,
    /// The parent's own items inside the prefix.
    pub items: usize,
}

/// A rollout with its history base resolved.
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct ResolvedRollout {
    /// The rollout's own file, as loaded.
    pub rollout: LoadedRollout,
    /// The parent prefixes, nearest parent first; empty when the rollout has no base.
    pub bases: Vec<ResolvedBase>,
    /// The full history, when the rollout has a base (else its own items are the history).
    full: Option<Vec<RolloutItem>>,
}

impl ResolvedRollout {
    /// The full history: the rollout's own items, or, for a fork by reference, its first
    /// session meta, the resolved parent prefix, then its own items after that meta. Ready
    /// for [`crate::reconstruct::reconstruct_history_from_rollout`].
    pub fn items(&self) -> &[RolloutItem] {
        self.full
            .as_deref()
            .unwrap_or_else(|| self.rollout.contents.items())
    }

    /// Takes the full history out.
    pub(crate) fn into_items(self) -> Vec<RolloutItem> {
        match self.full {
            Some(full) => full,
            None => self.rollout.contents.into_items(),
        }
    }
}

/// The `history_base` the file at `path` (plain or zstd) names on its first line, if it
/// names one: whether the file continues another thread's history. Only the first line is
/// read.
pub fn history_base_of_file(path: &Path) -> std::io::Result<Option<HistoryBase>> {
    let meta = crate::head::meta_of_first_line(source::open_rollout(path)?)?;
    Ok(meta.and_then(|(meta, _)| meta.meta.history_base))
}

/// The `history_base` of the first `session_meta` among `items`, if it has one.
pub(crate) fn history_base_of(items: &[RolloutItem]) -> Option<&HistoryBase> {
    items.iter().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(meta.meta.history_base.as_ref()),
        _ => None,
    })?
}

/// Loads the session file at `path` (plain or zstd) and resolves its history base through
/// `home`.
pub fn load_rollout_with_base(
    home: &CodexHome,
    path: impl AsRef<Path>,
) -> Result<ResolvedRollout, HistoryBaseError> {
    let rollout = load_rollout_items(path)?;
    resolve_history_base(home, rollout)
}

/// Resolves the history base of a loaded rollout through `home`: its parents are found by
/// thread id (live sessions, then archived ones), read plain or compressed, cut and checked.
/// A rollout without a base resolves to itself.
pub fn resolve_history_base(
    home: &CodexHome,
    rollout: LoadedRollout,
) -> Result<ResolvedRollout, HistoryBaseError> {
    let Some(base) = history_base_of(rollout.contents.items()).cloned() else {
        return Ok(ResolvedRollout {
            rollout,
            bases: Vec::new(),
            full: None,
        });
    };
    let own = rollout_id_of_path(&rollout.path).map_or_else(|| rollout.thread_id, ThreadId::from);
    let mut chain = vec![own];
    let mut bases = Vec::new();
    let prefix = resolve_prefix(home, &rollout.path, &base, &mut chain, &mut bases)?;
    let own = rollout.contents.items();
    let split = rollout
        .contents
        .first_session_meta_index()
        .map_or(0, |meta| meta + 1);
    let mut full = Vec::with_capacity(own.len() + prefix.len());
    full.extend_from_slice(own.get(..split).unwrap_or_default());
    full.extend(prefix);
    full.extend_from_slice(own.get(split..).unwrap_or_default());
    Ok(ResolvedRollout {
        rollout,
        bases,
        full: Some(full),
    })
}

/// The resolved items of the prefix `base` names, for the file `child`. `chain` holds the
/// threads followed so far; `bases` collects each parent, nearest first.
fn resolve_prefix(
    home: &CodexHome,
    child: &Path,
    base: &HistoryBase,
    chain: &mut Vec<ThreadId>,
    bases: &mut Vec<ResolvedBase>,
) -> Result<Vec<RolloutItem>, HistoryBaseError> {
    let thread_id = base.thread_id;
    let child = child.to_path_buf();
    if chain.contains(&thread_id) {
        let chain = chain.clone();
        return Err(HistoryBaseError::Cycle {
            child,
            thread_id,
            chain,
        });
    }
    if bases.len() >= MAX_BASE_DEPTH {
        return Err(HistoryBaseError::TooDeep { child, thread_id });
    }
    let home_root = home.root.clone();
    let parent = match find_rollout_by_rollout_id(home, *thread_id.as_uuid()) {
        Ok(Some(parent)) => parent,
        Ok(None) => {
            return Err(HistoryBaseError::MissingParent {
                child,
                thread_id,
                home: home_root,
            });
        }
        Err(source) => {
            return Err(HistoryBaseError::Lookup {
                child,
                thread_id,
                home: home_root,
                source,
            });
        }
    };
    let contents = match source::read_rollout_file(&parent) {
        Ok(decoded) => RolloutContents::from_decoded(decoded),
        Err(source) => {
            return Err(HistoryBaseError::Unreadable {
                child,
                thread_id,
                parent,
                source,
            });
        }
    };
    let found = contents.thread_id();
    // The file found by its rollout id must record the thread its name gives (a continuation
    // file keeps its thread's id; an ordinary file's rollout is its thread).
    let expected = parent
        .file_name()
        .and_then(|name| name.to_str())
        .and_then(parse_rollout_file_name)
        .map_or(thread_id, |name| ThreadId::from(name.thread_id));
    if let (None, Some(damage)) = (found, contents.damage()) {
        return Err(HistoryBaseError::Damaged {
            child,
            thread_id,
            parent,
            damage: damage.clone(),
        });
    }
    if found != Some(expected) {
        return Err(HistoryBaseError::WrongThread {
            child,
            thread_id,
            parent,
            found,
        });
    }
    let end = match prefix_end(&contents, base) {
        Ok(end) => end,
        Err(problem) => {
            // Past a damage the parent's lines are unknown: the prefix may well have been there.
            let lost = matches!(
                problem,
                PrefixProblem::BeyondEnd { .. } | PrefixProblem::OrdinalBeyondEnd { .. }
            );
            return Err(match contents.damage() {
                Some(damage) if lost => HistoryBaseError::Damaged {
                    child,
                    thread_id,
                    parent,
                    damage: damage.clone(),
                },
                _ => HistoryBaseError::BadPrefix {
                    child,
                    thread_id,
                    parent,
                    problem,
                },
            });
        }
    };
    let inner = contents
        .first_session_meta_index()
        .filter(|meta| *meta < end.items)
        .and_then(|meta| {
            Some((
                meta,
                history_base_of(contents.items().get(meta..)?)?.clone(),
            ))
        });
    bases.push(ResolvedBase {
        thread_id,
        path: parent.clone(),
        end_byte_offset: u64::try_from(end.byte).unwrap_or(u64::MAX),
        end_ordinal_exclusive: base.end_ordinal_exclusive,
        items: end.items,
    });
    let mut items = contents.into_items();
    items.truncate(end.items);
    if let Some((meta, inner_base)) = inner {
        chain.push(thread_id);
        let inner_items = resolve_prefix(home, &parent, &inner_base, chain, bases)?;
        items.splice(meta + 1..meta + 1, inner_items);
    }
    Ok(items)
}

#[cfg(test)]
#[path = "history_base_tests.rs"]
mod tests;
