//! Forking a session: a new thread that starts from a prefix of another thread's rollout.
//!
//! The fork is a new file whose lines are the source's lines up to the cut (see
//! [`ForkPoint::cut`]), copied byte for byte, except the first `session_meta` line, which gets the
//! fork's own thread id, `forked_from_id` = the source thread and the fork time (every other
//! key of that line is kept as written). Lines the loader skipped as problems are not copied;
//! lines of unknown kinds are. The file is written (and synced) under a temporary name, then
//! hard-linked into place, which fails if the destination exists by then: a listing never
//! sees half a fork, and no existing file is ever replaced, even one created during the
//! write.
//!
//! A fork *by reference* ([`ForkMode::ByReference`]) copies nothing: it is that rewritten
//! meta line alone, with a `history_base` naming the kept prefix of the source (its thread
//! id, the prefix's length in the source's uncompressed bytes, and for a paginated source the
//! ordinal of the first line not kept). [`crate::history_base`] resolves it back into the same
//! history a copied fork holds, as long as the source stays findable under the home.
//!
//! A fork of a rollout that is itself a fork by reference cuts its own lines only: a copied
//! fork keeps its `history_base`, a fork by reference names it as the next link of a chain.
//!
//! Fork points are turns of the turn index ([`crate::turns`], the one answer to "where does
//! a user turn start" that `inspect`, `export`, `thread` and the CLI's `fork` also ask), so
//! they are rollback-aware: a turn a `thread_rolled_back` marker removed is not a turn a fork
//! can be taken before ([`ForkPoint::cut`]).

mod from_end;
mod from_start;
mod meta_line;
mod positions;

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::Utc;
use codex_protocol::rollout::{HistoryBase, LineFormat};
use codex_protocol::thread_id::ThreadId;

use crate::history_base::{ordinal_at, prefix_end};
use crate::layout::CodexHome;
use crate::load::{LineEntry, LoadedRollout};
use crate::timestamp::format_line_timestamp;
use crate::turns::{TooFewTurns, UserTurn, user_turns};

pub(crate) use from_end::ForkLines;
pub(crate) use meta_line::MetaRewriteError;
#[cfg(test)]
pub(crate) use positions::fork_cut;
pub use positions::{ForkPoint, user_message_positions_in_rollout};

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
    /// A fork by reference would name a prefix the source's own lines contradict (its
    /// ordinals do not grow along the file); this is checked before anything is written.
    #[error("cannot fork {} by reference: {problem}", .path.display())]
    Prefix {
        /// The source.
        path: PathBuf,
        /// What the check found.
        #[source]
        problem: crate::history_base::PrefixProblem,
    },
    /// More turns were asked to be dropped than the source has.
    #[error("{}: {too_few}", .path.display())]
    TooFewTurns {
        /// The source.
        path: PathBuf,
        /// Its turns and the turns asked to be dropped.
        #[source]
        too_few: crate::turns::TooFewTurns,
    },
    /// The source records no thread (it has no session meta), so a fork could not name the
    /// thread it was forked from.
    #[error("{} has no session meta", .0.display())]
    NoSessionMeta(PathBuf),
}

/// The fork point that drops the last `drop` user turns of `turns` (0 keeps everything):
/// before the first item of the `drop`-th last turn.
pub fn fork_point_dropping_turns(
    turns: &[UserTurn],
    drop: usize,
) -> Result<ForkPoint, TooFewTurns> {
    if drop == 0 {
        return Ok(ForkPoint::KeepAll);
    }
    let first_dropped = turns.len().checked_sub(drop).ok_or(TooFewTurns {
        turns: turns.len(),
        requested: drop,
    })?;
    Ok(turns
        .get(first_dropped)
        .map_or(ForkPoint::KeepAll, |turn| ForkPoint::BeforeItem(turn.start)))
}

/// How a fork holds the history it keeps.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum ForkMode {
    /// The kept lines are copied into the fork, which every reader can use alone.
    #[default]
    Copy,
    /// Only a new session meta is written, whose `history_base` names the kept prefix of the
    /// source; readers resolve it through the home the source is in.
    ByReference,
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
    /// Problem lines of the kept part that were not copied (nor will be resolved, for a fork
    /// by reference).
    pub skipped_problem_lines: usize,
    /// The base a fork by reference names; `None` for a copied fork.
    pub history_base: Option<HistoryBase>,
}

/// Forks `source` at `point` into a new session under `home` (dated now, named by a new
/// thread id), in either [`ForkMode`].
pub fn fork_rollout(
    source: &LoadedRollout,
    point: ForkPoint,
    home: &CodexHome,
    mode: ForkMode,
) -> Result<ForkedRollout, ForkError> {
    let thread_id = ThreadId::new();
    let path = home.rollout_path(Utc::now(), *thread_id.as_uuid());
    write_fork(source, point, &path, thread_id, mode)
}

/// Forks `source` at `point` into the file `path` (which must not exist yet), in either
/// [`ForkMode`].
pub fn fork_rollout_to_path(
    source: &LoadedRollout,
    point: ForkPoint,
    path: impl AsRef<Path>,
    mode: ForkMode,
) -> Result<ForkedRollout, ForkError> {
    write_fork(source, point, path.as_ref(), ThreadId::new(), mode)
}

/// The bytes of a fork of `source` at `point` for thread `thread_id`, and how many lines they
/// hold; the part of forking that touches no file. Copied, the bytes are the kept lines with
/// the rewritten meta; by reference, the one rewritten meta line, and the base is checked
/// against the source's lines before it is returned.
pub fn fork_bytes(
    source: &LoadedRollout,
    point: ForkPoint,
    thread_id: ThreadId,
    mode: ForkMode,
) -> Result<(Vec<u8>, ForkedRollout), ForkError> {
    let contents = &source.contents;
    let kept_items = point.cut(&user_turns(contents), source.contents.items().len());
    let cut_entry = contents.entry_of_item(kept_items);
    let end_line = cut_entry.map_or(usize::MAX, |entry| entry.number);
    let history_base = match mode {
        ForkMode::Copy => None,
        ForkMode::ByReference => {
            let end = cut_entry.map_or(contents.bytes().len(), |entry| entry.span.start);
            Some(base_for_prefix(source, end)?)
        }
    };
    let meta_index = contents.first_session_meta_index();
    let rewrite = MetaRewrite {
        thread_id,
        forked_from_id: source.thread_id,
        timestamp: format_line_timestamp(Utc::now()),
        history_base: history_base.clone(),
    };
    let mut out = Vec::new();
    let mut lines_written = 0;
    let mut write_line = |entry: &LineEntry, out: &mut Vec<u8>| -> Result<(), ForkError> {
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
        Ok(())
    };
    match mode {
        ForkMode::Copy => {
            out.reserve(contents.bytes().len());
            for entry in contents.entries() {
                if entry.number >= end_line {
                    break;
                }
                write_line(entry, &mut out)?;
            }
        }
        ForkMode::ByReference => {
            if let Some(entry) = meta_index.and_then(|index| contents.entry_of_item(index)) {
                write_line(entry, &mut out)?;
            }
        }
    }
    let skipped_problem_lines = contents
        .problems()
        .iter()
        .filter(|problem| problem.line < end_line && !problem.kind.is_kept())
        .count();
    let summary = ForkedRollout {
        path: PathBuf::new(),
        thread_id,
        forked_from_id: source.thread_id,
        kept_items,
        lines_written,
        skipped_problem_lines,
        history_base,
    };
    Ok((out, summary))
}

/// The base naming the first `end` bytes of `source`: its thread, the byte offset, and the
/// ordinal at the cut when the source's lines carry ordinals. Checked the way a reader will
/// check it; a source whose ordinals contradict the cut is refused.
fn base_for_prefix(source: &LoadedRollout, end: usize) -> Result<HistoryBase, ForkError> {
    let contents = &source.contents;
    let base = HistoryBase {
        thread_id: source.thread_id,
        end_ordinal_exclusive: ordinal_at(contents, end),
        end_byte_offset: Some(u64::try_from(end).unwrap_or(u64::MAX)),
    };
    prefix_end(contents, &base).map_err(|problem| ForkError::Prefix {
        path: source.path.clone(),
        problem,
    })?;
    Ok(base)
}

fn write_fork(
    source: &LoadedRollout,
    point: ForkPoint,
    path: &Path,
    thread_id: ThreadId,
    mode: ForkMode,
) -> Result<ForkedRollout, ForkError> {
    let (bytes, mut summary) = fork_bytes(source, point, thread_id, mode)?;
    place_new_file(path, thread_id, |file| {
        file.write_all(&bytes)
            .map_err(io_error("write fork", &temp_path(path, thread_id)))
    })?;
    summary.path = path.to_path_buf();
    Ok(summary)
}

/// What [`fork_file_dropping_turns`] wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ForkedFile {
    /// The fork, as [`fork_rollout_to_path`] describes it.
    pub forked: ForkedRollout,
    /// The user turns the fork kept.
    pub kept_turns: usize,
    /// Bytes of the source read backwards to find the cut (0 when it was found forwards).
    pub bytes_read_backwards: u64,
}

/// Forks the file `source` (plain or compressed) without its last `drop` user turns into the
/// file `path` (which must not exist yet) without holding the source: the cut is found from
/// the end of a plain file that starts with its enveloped meta (see the `from_end` module),
/// else in one forward pass (the `from_start` module: a compressed file, a pre-envelope one,
/// a suffix that never decides), and the kept lines are streamed into the fork, or, by
/// reference, read once forwards for the counts and the ordinal at the cut and named. The
/// fork is the one [`fork_rollout_to_path`] writes of the loaded file at
/// [`fork_point_dropping_turns`] (the tests compare them on every real file).
pub fn fork_file_dropping_turns(
    source: &Path,
    drop: usize,
    path: &Path,
    mode: ForkMode,
) -> Result<ForkedFile, ForkError> {
    fork_file_dropping_turns_in_batches(source, drop, path, mode, from_end::FIRST_BATCH_BYTES)
}

/// [`fork_file_dropping_turns`] reading backwards in batches from `first_batch_bytes` (the
/// default is 1 MiB; small batches make small files take the backward path, which is how the
/// tests compare it with the whole-file fork on real files).
pub(crate) fn fork_file_dropping_turns_in_batches(
    source: &Path,
    drop: usize,
    path: &Path,
    mode: ForkMode,
    first_batch_bytes: u64,
) -> Result<ForkedFile, ForkError> {
    let read = |source_error| ForkError::Io {
        action: "read fork source",
        path: source.to_path_buf(),
        source: source_error,
    };
    let head = from_end::read_head(source).map_err(read)?;
    let from_end = match head {
        Some(head) => from_end::cut_after_head(source, head, drop, first_batch_bytes)
            .map_err(read)?
            .map(|cut| (cut, head.thread_id)),
        None => None,
    };
    let (cut, source_thread) = match from_end {
        Some(found) => found,
        None => {
            let forward = from_start::cut_forwards(source, drop)?;
            let cut = from_end::CutFromEnd {
                offset: forward.offset,
                bytes_read: 0,
            };
            (cut, forward.thread_id)
        }
    };
    let thread_id = ThreadId::new();
    let mut rewrite = MetaRewrite {
        thread_id,
        forked_from_id: source_thread,
        timestamp: format_line_timestamp(Utc::now()),
        history_base: None,
    };
    let temp = temp_path(path, thread_id);
    let write_error = || io_error("write fork", &temp);
    let lines = match mode {
        ForkMode::Copy => place_new_file(path, thread_id, |file| {
            let mut out = std::io::BufWriter::new(file);
            let lines = from_end::write_fork_lines(source, cut.offset, &rewrite, &mut out)?;
            out.flush().map_err(write_error())?;
            Ok(lines)
        })?,
        ForkMode::ByReference => {
            let prefix = from_end::reference_prefix(source, cut.offset, source_thread)?;
            rewrite.history_base = Some(prefix.base);
            let lines_written = place_new_file(path, thread_id, |file| {
                let Some((raw, format)) = &prefix.meta else {
                    return Ok(0);
                };
                let text = String::from_utf8_lossy(raw);
                let legacy = matches!(format, LineFormat::Legacy(_));
                let line = rewrite_session_meta_line(&text, legacy, &rewrite)?;
                file.write_all(line.as_bytes())
                    .and_then(|()| file.write_all(b"\n"))
                    .map_err(write_error())?;
                Ok(1)
            })?;
            ForkLines {
                lines_written,
                skipped_problem_lines: prefix.pass.skipped_problem_lines,
                kept_items: prefix.pass.kept_items,
                kept_turns: prefix.pass.kept_turns,
            }
        }
    };
    Ok(ForkedFile {
        forked: ForkedRollout {
            path: path.to_path_buf(),
            thread_id,
            forked_from_id: source_thread,
            kept_items: lines.kept_items,
            lines_written: lines.lines_written,
            skipped_problem_lines: lines.skipped_problem_lines,
            history_base: rewrite.history_base,
        },
        kept_turns: lines.kept_turns,
        bytes_read_backwards: cut.bytes_read,
    })
}

fn io_error(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> ForkError + use<> {
    let path = path.to_path_buf();
    move |source| ForkError::Io {
        action,
        path,
        source,
    }
}

/// Creates the new session file `path` with what `write` writes: under a temporary name,
/// synced, then hard-linked into place, which fails if `path` exists by then (see the module
/// docs). Nothing is left behind on failure.
fn place_new_file<T>(
    path: &Path,
    thread_id: ThreadId,
    write: impl FnOnce(&mut std::fs::File) -> Result<T, ForkError>,
) -> Result<T, ForkError> {
    if path.exists() {
        return Err(ForkError::DestinationExists(path.to_path_buf()));
    }
    if let Some(parent) = path
        .parent()
        .filter(|parent| !parent.as_os_str().is_empty())
    {
        std::fs::create_dir_all(parent).map_err(io_error("create session directory", parent))?;
    }
    let temp = temp_path(path, thread_id);
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&temp)
        .map_err(io_error("write fork", &temp))
        .and_then(|mut file| {
            let written = write(&mut file)?;
            file.sync_all().map_err(io_error("write fork", &temp))?;
            Ok(written)
        });
    let written = match written {
        Ok(written) => written,
        Err(err) => {
            let _ = std::fs::remove_file(&temp);
            return Err(err);
        }
    };
    // A hard link, unlike a rename, fails when the destination exists, so a file created
    // there after the check above is never replaced: the fork appears whole or not at all.
    let linked = std::fs::hard_link(&temp, path);
    let _ = std::fs::remove_file(&temp);
    match linked {
        Ok(()) => Ok(written),
        Err(err) if err.kind() == std::io::ErrorKind::AlreadyExists => {
            Err(ForkError::DestinationExists(path.to_path_buf()))
        }
        Err(err) => Err(io_error("move fork into place", path)(err)),
    }
}

/// A sibling name no listing matches (it does not end in `.jsonl`).
fn temp_path(path: &Path, thread_id: ThreadId) -> PathBuf {
    let mut name = path.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".{thread_id}.tmp"));
    path.with_file_name(name)
}

#[cfg(test)]
#[path = "fork_tests.rs"]
mod tests;
