//! What a thread id, or a prefix of one, on a command line names: the one rule every command
//! that takes a file also takes a thread id by.
//!
//! An argument is a thread prefix when it is 4 to 36 hexadecimal digits and hyphens
//! ([`thread_prefix`]); it names the one thread of the home whose id starts with it, found
//! through the search index when the index at its default place knows the thread, else by
//! file names (no file is opened). Of a thread with several files, the one
//! [`crate::find_rollout_by_thread_id`] picks (live, newest, plain).
//!
//! Why here: the lookup spans a home's files and its search index, so it is neither one
//! file's business (`codex-rollout`) nor the binary's.

use std::path::{Path, PathBuf};

use codex_protocol::thread_id::ThreadId;
use codex_rollout::{CodexHome, RolloutError};

use crate::list::{find_rollout_by_thread_id, find_rollouts_by_thread_prefix};
#[cfg(feature = "search")]
use crate::search::SearchIndex;

/// The shortest thread id prefix taken as one (shorter arguments are file names only).
pub const MIN_THREAD_PREFIX: usize = 4;

/// Why a thread prefix names no one file.
#[derive(Debug, thiserror::Error)]
pub enum ThreadLookupError {
    /// The home's session folders could not be read.
    #[error("cannot read the sessions of {}: {source}", home.display())]
    Unreadable {
        /// The home's root.
        home: PathBuf,
        /// What failed.
        source: RolloutError,
    },
    /// No thread of the home starts with the prefix.
    #[error(
        "cannot read {prefix}: no such file, and no session under {} has a thread id \
         starting with it",
        home.display()
    )]
    NoThread {
        /// The prefix asked.
        prefix: String,
        /// The home's root.
        home: PathBuf,
    },
    /// Several threads start with the prefix.
    #[error(
        "thread id prefix {prefix} is ambiguous under {}: {} (give more characters)",
        home.display(),
        threads.join(", ")
    )]
    Ambiguous {
        /// The prefix asked.
        prefix: String,
        /// The home's root.
        home: PathBuf,
        /// The thread ids it could mean, sorted.
        threads: Vec<String>,
    },
    /// The index named a thread whose id does not parse.
    #[error("invalid thread id {0}")]
    InvalidId(String),
    /// A fork by reference would name a thread the home has no rollout of, so it could
    /// never be read back.
    #[error(
        "{} records thread {thread}, which has no rollout under {}, so a fork by reference to \
         it could not be read back; pass --home DIR, or fork without --by-reference",
        path.display(),
        home.display()
    )]
    NoForkBase {
        /// The thread.
        thread: ThreadId,
        /// The file to be forked.
        path: PathBuf,
        /// The home's root.
        home: PathBuf,
    },
    /// The thread was found, but its file is gone.
    #[error("the session of thread {thread} is no longer under {}", home.display())]
    Gone {
        /// The thread id.
        thread: String,
        /// The home's root.
        home: PathBuf,
    },
}

/// `arg` as a thread id prefix, when it can be one: [`MIN_THREAD_PREFIX`] to 36 hexadecimal
/// digits and hyphens.
pub fn thread_prefix(arg: &Path) -> Option<&str> {
    let text = arg.to_str()?;
    (text.len() >= MIN_THREAD_PREFIX
        && text.len() <= 36
        && text.chars().all(|ch| ch.is_ascii_hexdigit() || ch == '-'))
    .then_some(text)
}

/// The rollout file of the one thread of `home` whose id starts with `prefix`: through the
/// search index at its default place when it knows the thread, else by file names.
pub fn find_thread(home: &CodexHome, prefix: &str) -> Result<PathBuf, ThreadLookupError> {
    let mut threads: Vec<String> = indexed_thread_files(home, prefix)
        .into_iter()
        .map(|(thread, _)| thread)
        .collect();
    if threads.is_empty() {
        threads = find_rollouts_by_thread_prefix(home, prefix)
            .map_err(|source| ThreadLookupError::Unreadable {
                home: home.root.clone(),
                source,
            })?
            .into_iter()
            .map(|file| file.name.thread_id.hyphenated().to_string())
            .collect();
    }
    threads.sort();
    threads.dedup();
    let thread = match threads.as_slice() {
        [] => {
            return Err(ThreadLookupError::NoThread {
                prefix: prefix.to_string(),
                home: home.root.clone(),
            });
        }
        [thread] => thread,
        several => {
            return Err(ThreadLookupError::Ambiguous {
                prefix: prefix.to_string(),
                home: home.root.clone(),
                threads: several.to_vec(),
            });
        }
    };
    let id =
        ThreadId::from_string(thread).map_err(|_| ThreadLookupError::InvalidId(thread.clone()))?;
    find_rollout_by_thread_id(home, id)
        .ok()
        .flatten()
        .ok_or_else(|| ThreadLookupError::Gone {
            thread: thread.clone(),
            home: home.root.clone(),
        })
}

/// The file a fork by reference of the rollout at `path` (which records `thread`) is read
/// back from: the one `home` holds for the thread ([`find_rollout_by_thread_id`]). Such a
/// fork names its base by thread id alone, so a home without the thread is an error; the
/// second value says whether the file found is `path` itself.
pub fn fork_base_in(
    home: &CodexHome,
    thread: ThreadId,
    path: &Path,
) -> Result<(PathBuf, bool), ThreadLookupError> {
    let found = find_rollout_by_thread_id(home, thread).map_err(|source| {
        ThreadLookupError::Unreadable {
            home: home.root.clone(),
            source,
        }
    })?;
    let found = found.ok_or_else(|| ThreadLookupError::NoForkBase {
        thread,
        path: path.to_path_buf(),
        home: home.root.clone(),
    })?;
    let canonical = |path: &Path| std::fs::canonicalize(path).ok();
    let is_path = canonical(&found) == canonical(path);
    Ok((found, is_path))
}

/// The rollout files of `home` whose thread id starts with `prefix`, from the search index
/// when one exists at the default place and knows any, else none (the caller scans names).
/// Without the `search` feature there is no index to ask.
#[cfg(not(feature = "search"))]
fn indexed_thread_files(_home: &CodexHome, _prefix: &str) -> Vec<(String, PathBuf)> {
    Vec::new()
}

/// The rollout files of `home` whose thread id starts with `prefix`, from the search index
/// when one exists at the default place and knows any, else none (the caller scans names).
#[cfg(feature = "search")]
fn indexed_thread_files(home: &CodexHome, prefix: &str) -> Vec<(String, PathBuf)> {
    let Ok(path) = SearchIndex::default_path() else {
        return Vec::new();
    };
    indexed_thread_files_at(&path, home, prefix)
}

/// [`indexed_thread_files`] from the index at `path`.
#[cfg(feature = "search")]
fn indexed_thread_files_at(path: &Path, home: &CodexHome, prefix: &str) -> Vec<(String, PathBuf)> {
    SearchIndex::open_existing(path)
        .and_then(|index| index.files_with_thread_prefix(home, prefix).ok())
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, path)| path.is_file())
        .collect()
}

#[cfg(test)]
#[path = "thread_lookup_tests.rs"]
mod tests;
