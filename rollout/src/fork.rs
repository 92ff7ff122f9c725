//! Forking a session: a new thread that starts from a prefix of another thread's rollout.
//!
//! The fork is a new file whose lines are the source's lines up to the cut (see
//! [`fork_cut`]), copied byte for byte, except the first `session_meta` line, which gets the
//! fork's own thread id, `forked_from_id` = the source thread and the fork time (every other
//! key of that line is kept as written). Lines the loader skipped as problems are not copied;
//! lines of unknown kinds are. The file is written under a temporary name and renamed into
//! place, so a listing never sees half a fork.
//!
//! Positions are rollback-aware ([`user_message_positions_in_rollout`]): a turn a
//! `thread_rolled_back` marker removed is not a turn a fork can be taken before.

mod meta_line;
mod positions;

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::Utc;
use codex_protocol::rollout::LineFormat;
use codex_protocol::thread_id::ThreadId;

use crate::layout::CodexHome;
use crate::load::LoadedRollout;
use crate::timestamp::format_line_timestamp;

pub use meta_line::MetaRewriteError;
pub use positions::{ForkPoint, fork_cut, user_message_positions_in_rollout};

use meta_line::{MetaRewrite, rewrite_session_meta_line};

/// Why a fork could not be written.
#[derive(Debug, thiserror::Error)]
pub enum ForkError {
    /// The filesystem refused to create or write the fork.
    #[error("{action} {}: {source}", .path.display())]
    Io {
        /// What was being attempted.
        action: &'static str,
        /// The file or folder concerned.
        path: PathBuf,
        /// The operating system's answer.
        #[source]
        source: std::io::Error,
    },
    /// The destination exists already; a fork never overwrites a session.
    #[error("fork destination {} already exists", .0.display())]
    DestinationExists(PathBuf),
    /// The source's session meta line could not be rewritten.
    #[error(transparent)]
    Meta(#[from] MetaRewriteError),
}

/// What a fork wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkedRollout {
    /// The new session file.
    pub path: PathBuf,
    /// The fork's thread id.
    pub thread_id: ThreadId,
    /// The thread it was forked from.
    pub forked_from_id: ThreadId,
    /// Number of leading source items kept.
    pub kept_items: usize,
    /// Number of lines written (items, legacy markers, the rewritten meta).
    pub lines_written: usize,
    /// Problem lines of the kept part that were not copied.
    pub skipped_problem_lines: usize,
}

/// Forks `source` at `point` into a new session under `home` (dated now, named by a new
/// thread id).
pub fn fork_rollout(
    source: &LoadedRollout,
    point: ForkPoint,
    home: &CodexHome,
) -> Result<ForkedRollout, ForkError> {
    let thread_id = ThreadId::new();
    let path = home.rollout_path(Utc::now(), *thread_id.as_uuid());
    write_fork(source, point, &path, thread_id)
}

/// Forks `source` at `point` into the file `path` (which must not exist yet).
pub fn fork_rollout_to_path(
    source: &LoadedRollout,
    point: ForkPoint,
    path: impl AsRef<Path>,
) -> Result<ForkedRollout, ForkError> {
    write_fork(source, point, path.as_ref(), ThreadId::new())
}

/// The bytes of a fork of `source` at `point` for thread `thread_id`, and how many lines they
/// hold; the part of forking that touches no file.
pub fn fork_bytes(
    source: &LoadedRollout,
    point: ForkPoint,
    thread_id: ThreadId,
) -> Result<(Vec<u8>, ForkedRollout), ForkError> {
    let contents = source.contents();
    let kept_items = fork_cut(source.items(), point);
    let end_line = contents
        .entry_of_item(kept_items)
        .map_or(usize::MAX, |entry| entry.number);
    let meta_index = contents.first_session_meta_index();
    let rewrite = MetaRewrite {
        thread_id,
        forked_from_id: source.thread_id(),
        timestamp: format_line_timestamp(Utc::now()),
    };
    let mut out = Vec::with_capacity(contents.bytes().len());
    let mut lines_written = 0;
    for entry in contents.entries() {
        if entry.number >= end_line {
            break;
        }
        let raw = contents.raw_line(entry);
        if entry.item().is_some() && entry.item() == meta_index {
            let text = String::from_utf8_lossy(raw);
            let legacy = matches!(entry.format, LineFormat::Legacy(_));
            out.extend_from_slice(rewrite_session_meta_line(&text, legacy, &rewrite)?.as_bytes());
        } else {
            out.extend_from_slice(raw);
        }
        out.push(b'\n');
        lines_written += 1;
    }
    let skipped_problem_lines = contents
        .problems()
        .iter()
        .filter(|problem| problem.line < end_line && !problem.kind.is_kept())
        .count();
    let summary = ForkedRollout {
        path: PathBuf::new(),
        thread_id,
        forked_from_id: source.thread_id(),
        kept_items,
        lines_written,
        skipped_problem_lines,
    };
    Ok((out, summary))
}

fn write_fork(
    source: &LoadedRollout,
    point: ForkPoint,
    path: &Path,
    thread_id: ThreadId,
) -> Result<ForkedRollout, ForkError> {
    let (bytes, mut summary) = fork_bytes(source, point, thread_id)?;
    if path.exists() {
        return Err(ForkError::DestinationExists(path.to_path_buf()));
    }
    let io = |action, path: &Path| {
        let path = path.to_path_buf();
        move |source| ForkError::Io {
            action,
            path,
            source,
        }
    };
    if let Some(parent) = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent).map_err(io("create session directory", parent))?;
    }
    let temp = temp_path(path, thread_id);
    let written = write_new_file(&temp, &bytes).map_err(io("write fork", &temp));
    if let Err(err) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(err);
    }
    if let Err(err) = std::fs::rename(&temp, path) {
        let _ = std::fs::remove_file(&temp);
        return Err(io("move fork into place", path)(err));
    }
    summary.path = path.to_path_buf();
    Ok(summary)
}

/// A sibling name no listing matches (it does not end in `.jsonl`).
fn temp_path(path: &Path, thread_id: ThreadId) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{thread_id}.tmp"));
    path.with_file_name(name)
}

fn write_new_file(path: &Path, bytes: &[u8]) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)?;
    file.write_all(bytes)?;
    file.sync_all()
}

#[cfg(test)]
#[path = "fork_tests.rs"]
mod tests;
