//! Rescue: a new session holding what resuming a large session needs and no more.
//!
//! A session that grew too large to resume (repeated `compacted` records, inline images)
//! still resumes from its *live suffix*: the lines from which reconstruction finds the newest
//! surviving compaction's replacement history, the previous turn's settings and the token
//! usage. `suffix` finds where the shortest such suffix starts by reading the file
//! backwards (the rule the resume tail uses, asked of reconstruction itself); a rescue is
//! a new file made of the session meta line (new thread id, `history_base` dropped: the new
//! file holds its whole history) followed by the suffix's lines copied byte for byte. In a
//! paginated file each copied line's envelope `ordinal` is renumbered so the new file counts
//! from 0 without gaps, the only bytes changed. Turns before the newest compaction reach the
//! rescued session only as that compaction's replacement history summarises them, which is
//! exactly how they reach the model when the original resumes.
//!
//! A compressed file (`.jsonl.zst`) cannot be read backwards: it is decoded forwards, keeping
//! the lines from the turn of the newest compaction on (`suffix`), then decoded again to
//! copy them; the rescue is written plain.
//!
//! Memory: the suffix's items while it is found (what resume holds anyway), then one line at a
//! time while copying; the original is never held. The original is only read. The new file is
//! written under a temporary name, synced, then hard-linked into place, so a kill leaves
//! either no rescued session or a whole one (and at most a `*.rescue.tmp` to remove).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};
use codex_protocol::rollout::LineFormat;
use codex_protocol::thread_id::ThreadId;
use serde_json::Value;

mod suffix;

use crate::head::first_meta_within;
use crate::layout::CodexHome;
use crate::source::{Compression, RolloutReader, open_rollout};

/// Why a session could not be rescued.
#[derive(Debug, thiserror::Error)]
pub enum RescueError {
    /// Reading the original or writing the rescue failed.
    #[error("cannot {action} {path}: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file concerned.
        path: PathBuf,
        /// What failed.
        source: io::Error,
    },
    /// The original has no session meta near its start.
    #[error("{0}: no session meta near its start")]
    NoSuffix(PathBuf),
    /// The suffix is the whole file: there is nothing a rescue could leave out.
    #[error(
        "{0}: resuming it needs the whole file (no compaction to start from); nothing to rescue"
    )]
    NothingToLeaveOut(PathBuf),
    /// The session meta line could not be rewritten.
    #[error("{path}: its session meta line cannot be rewritten: {reason}")]
    Meta {
        /// The original.
        path: PathBuf,
        /// Why.
        reason: String,
    },
}

/// What a rescue wrote.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Rescued {
    /// The original.
    pub original: PathBuf,
    /// Its thread.
    pub original_thread_id: ThreadId,
    /// The rescued session's file.
    pub path: PathBuf,
    /// The rescued session's thread: `codex resume <this>`.
    pub thread_id: ThreadId,
    /// The original's length.
    pub original_bytes: u64,
    /// Where the copied suffix starts in the original.
    pub suffix_offset: u64,
    /// The rescued file's length.
    pub rescued_bytes: u64,
    /// Lines copied after the meta line.
    pub lines: u64,
}

/// Writes the rescue of the plain rollout at `original` into `home`'s sessions, as a new
/// thread created at `now` (see the module docs).
pub fn rescue_rollout(
    original: &Path,
    home: &CodexHome,
    now: DateTime<Utc>,
) -> Result<Rescued, RescueError> {
    let io_err = |action: &'static str, path: &Path| {
        let path = path.to_path_buf();
        move |source| RescueError::Io {
            action,
            path,
            source,
        }
    };
    let mut file = File::open(original).map_err(io_err("open", original))?;
    let compression = RolloutReader::new(&mut file)
        .map_err(io_err("read", original))?
        .compression();
    let original_bytes = file
        .seek(SeekFrom::End(0))
        .map_err(io_err("read", original))?;
    let suffix_offset = match compression {
        Compression::Plain => {
            suffix::shortest_suffix_offset(File::open(original).map_err(io_err("open", original))?)
        }
        Compression::Zstd => suffix::shortest_suffix_offset_streamed(original),
    }
    .map_err(io_err("read", original))?
    .ok_or_else(|| RescueError::NothingToLeaveOut(original.to_path_buf()))?;

    let head = open_rollout(original).map_err(io_err("open", original))?;
    let meta_line = first_meta_line(head).map_err(io_err("read", original))?;
    let original_thread_id =
        thread_of_meta(&meta_line).ok_or_else(|| RescueError::NoSuffix(original.to_path_buf()))?;
    let thread_id = ThreadId::new();
    let (meta, paginated) =
        rewrite_meta(&meta_line, thread_id, now).map_err(|reason| RescueError::Meta {
            path: original.to_path_buf(),
            reason,
        })?;

    let uuid = uuid::Uuid::parse_str(&thread_id.to_string()).map_err(|err| RescueError::Meta {
        path: original.to_path_buf(),
        reason: err.to_string(),
    })?;
    let target = home.rollout_path(now, uuid);
    if let Some(parent) = target.parent() {
        std::fs::create_dir_all(parent).map_err(io_err("create", parent))?;
    }
    let mut temp_name = target.file_name().unwrap_or_default().to_os_string();
    temp_name.push(".rescue.tmp");
    let temp = target.with_file_name(temp_name);
    // The suffix: a plain file from its offset to the length measured (a line appended since
    // is not the rescue's); a compressed one decoded and read past the offset.
    let suffix: Box<dyn Read> = match compression {
        Compression::Plain => {
            file.seek(SeekFrom::Start(suffix_offset))
                .map_err(io_err("read", original))?;
            Box::new(file.take(original_bytes - suffix_offset))
        }
        Compression::Zstd => {
            let mut decoded = open_rollout(original).map_err(io_err("open", original))?;
            io::copy(&mut (&mut decoded).take(suffix_offset), &mut io::sink())
                .map_err(io_err("read", original))?;
            Box::new(decoded)
        }
    };
    let written = write_new(&temp, &meta, suffix, paginated);
    let (lines, rescued_bytes) = match written {
        Ok(counts) => counts,
        Err(err) => {
            let _ = std::fs::remove_file(&temp);
            return Err(io_err("write", &temp)(err));
        }
    };
    let linked = std::fs::hard_link(&temp, &target);
    let _ = std::fs::remove_file(&temp);
    linked.map_err(io_err("move into place", &target))?;
    Ok(Rescued {
        original: original.to_path_buf(),
        original_thread_id,
        path: target,
        thread_id,
        original_bytes,
        suffix_offset,
        rescued_bytes,
        lines,
    })
}

/// The first line that is an enveloped `session_meta` (within the first 64 lines).
fn first_meta_line(reader: impl Read) -> io::Result<Vec<u8>> {
    match first_meta_within(reader, 64)? {
        Some(first) if first.format == LineFormat::Envelope => Ok(first.raw),
        _ => Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "no session meta near the start",
        )),
    }
}

/// The meta line for the rescue: new id (and `session_id` when it named the thread itself),
/// new creation time, no `history_base`; ordinal 0 when the file is paginated (returned).
fn rewrite_meta(
    line: &[u8],
    thread_id: ThreadId,
    now: DateTime<Utc>,
) -> Result<(Vec<u8>, bool), String> {
    let mut value: Value = serde_json::from_slice(line).map_err(|err| err.to_string())?;
    let paginated = value.get("ordinal").is_some();
    let envelope = value.as_object_mut().ok_or("not an object")?;
    if paginated {
        envelope.insert("ordinal".to_owned(), Value::from(0));
    }
    let payload = envelope
        .get_mut("payload")
        .and_then(Value::as_object_mut)
        .ok_or("no payload")?;
    let old_id = payload.get("id").cloned();
    let new_id = Value::from(thread_id.to_string());
    if payload.get("session_id").is_some() && payload.get("session_id") == old_id.as_ref() {
        payload.insert("session_id".to_owned(), new_id.clone());
    }
    payload.insert("id".to_owned(), new_id);
    payload.insert(
        "timestamp".to_owned(),
        Value::from(now.to_rfc3339_opts(SecondsFormat::Millis, true)),
    );
    payload.remove("history_base");
    payload.remove("forked_from_ordinal_exclusive");
    serde_json::to_vec(&value)
        .map(|bytes| (bytes, paginated))
        .map_err(|err| err.to_string())
}

fn write_new(
    temp: &Path,
    meta: &[u8],
    suffix: impl Read,
    paginated: bool,
) -> io::Result<(u64, u64)> {
    let file = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(temp)?;
    let mut out = io::BufWriter::with_capacity(1 << 20, file);
    out.write_all(meta)?;
    out.write_all(b"\n")?;
    let mut written = meta.len() as u64 + 1;
    let mut reader = BufReader::with_capacity(1 << 20, suffix);
    let mut line = Vec::new();
    let mut lines = 0u64;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break;
        }
        let body = trim_newline(&line);
        if body.is_empty() {
            continue;
        }
        lines += 1;
        let renumbered;
        let body = if paginated {
            renumbered = crate::with_line_ordinal(body, lines, crate::WhenMissing::Keep);
            renumbered.as_deref().unwrap_or(body)
        } else {
            body
        };
        out.write_all(body)?;
        out.write_all(b"\n")?;
        written += body.len() as u64 + 1;
    }
    let file = out.into_inner().map_err(io::IntoInnerError::into_error)?;
    file.sync_all()?;
    Ok((lines, written))
}

/// The thread id a session meta line names; `None` for an unreadable line.
///
/// A fork by reference or a continuation file (a `history_base`) is rescued like any file:
/// reconstruction's rule calls a suffix sufficient only when it holds a compaction's
/// replacement history and what follows it, so what the base names is not needed, and the
/// rescue drops the `history_base`.
fn thread_of_meta(line: &[u8]) -> Option<ThreadId> {
    let value: Value = serde_json::from_slice(line).ok()?;
    ThreadId::from_string(value.get("payload")?.get("id")?.as_str()?).ok()
}

fn trim_newline(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

#[cfg(test)]
#[path = "rescue_tests.rs"]
mod tests;
