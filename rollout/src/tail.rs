//! Resume from the end: the part of a rollout that rebuilding its history needs, read without
//! parsing the rest.
//!
//! A resumed session needs the file's first `session_meta` (its thread, base instructions)
//! and the *live suffix*: the items from which reconstruction's reverse scan finds everything
//! it looks for (the newest surviving compaction, the previous turn's settings, the reference
//! context item, the context window), plus the newest token usage and turn context. Whether a
//! suffix is enough is asked of reconstruction itself ([`suffix_suffices`]), so the decision
//! "where does replay start" stays in one function (the reverse scan); a suffix that passes
//! rebuilds exactly the history the whole file rebuilds.
//!
//! - A **plain file** is read backwards ([`reverse::ReverseLines`]), each line classified by
//!   the loader's own rule, in batches that double, until the suffix suffices or the start is
//!   reached; its head is read forwards up to the first `session_meta`.
//! - A **compressed file** cannot be read backwards: it is decoded forwards as a stream
//!   ([`crate::stream::RolloutStream`]), keeping only the items from the start of the turn
//!   of the newest compaction with a replacement history on (plus the first meta).
//!
//! [`load_rollout_tail`] returns `None` when this path cannot answer, and the caller loads the
//! whole file: a file whose first lines hold no `session_meta` (the loader's errors then name
//! what is wrong), a fork by reference (its history starts in its parent), a damaged
//! compressed stream, or a compressed file whose kept suffix does not suffice.

pub mod reverse;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;

use crate::load::ProblemKind;
use crate::load::lines::{LineOutcome, read_line};
use crate::reconstruct::suffix_suffices;
use crate::source::{Compression, RolloutReader};
use crate::stream::RolloutStream;
use reverse::ReverseLines;

/// How many lines the head is searched for the first `session_meta`.
const HEAD_LINES: usize = 64;
/// Items parsed backwards before the suffix is first checked; each later check waits until
/// the suffix has doubled, so checking costs O(n) in all.
const FIRST_CHECK_ITEMS: usize = 256;

/// The end of a rollout that rebuilding its history needs (see the module docs).
#[derive(Debug, Clone)]
pub struct RolloutTail {
    path: PathBuf,
    session_meta: Box<SessionMetaLine>,
    items: Vec<RolloutItem>,
    whole_file: bool,
    unreadable_lines: usize,
    bytes_read: u64,
}

impl RolloutTail {
    /// The file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The thread the file records (its first `session_meta`).
    pub fn thread_id(&self) -> ThreadId {
        self.session_meta.meta.id
    }

    /// The file's first `session_meta`.
    pub fn session_meta(&self) -> &SessionMetaLine {
        &self.session_meta
    }

    /// The live suffix, in file order: reconstruction of these items gives the whole file's
    /// history, settings, reference, window and token usage.
    pub fn items(&self) -> &[RolloutItem] {
        &self.items
    }

    /// Takes the suffix out.
    pub fn into_items(self) -> Vec<RolloutItem> {
        self.items
    }

    /// True when the suffix is the whole file (nothing could be left out).
    pub fn is_whole_file(&self) -> bool {
        self.whole_file
    }

    /// Lines of the part read that could not be read as rollout lines (blank, malformed,
    /// truncated...); they were skipped, as the loader skips them.
    pub fn unreadable_lines(&self) -> usize {
        self.unreadable_lines
    }

    /// Bytes of the file read backwards (plain files) or decoded (compressed ones).
    pub fn bytes_read(&self) -> u64 {
        self.bytes_read
    }
}

/// Reads the live suffix of the rollout at `path` (see the module docs); `None` when the
/// whole file must be loaded instead.
pub fn load_rollout_tail(path: impl AsRef<Path>) -> io::Result<Option<RolloutTail>> {
    let path = path.as_ref();
    let mut file = File::open(path)?;
    let compression = RolloutReader::new(&mut file)?.compression();
    file.seek(SeekFrom::Start(0))?;
    match compression {
        Compression::Plain => plain_tail(path, file),
        Compression::Zstd => compressed_tail(path, file),
    }
}

/// The first `session_meta` within the first [`HEAD_LINES`] lines of `reader`, unless it is a
/// fork by reference.
fn head_meta(reader: impl Read) -> io::Result<Option<Box<SessionMetaLine>>> {
    let mut stream = RolloutStream::new(reader)?;
    while let Some(line) = stream.next_line()? {
        if line.number > HEAD_LINES {
            break;
        }
        if let Some(RolloutItem::SessionMeta(meta)) = line.into_line().map(|line| line.item) {
            if meta.meta.history_base.is_some() {
                return Ok(None);
            }
            return Ok(Some(meta));
        }
    }
    Ok(None)
}

fn is_unreadable(kind: ProblemKind) -> bool {
    !matches!(
        kind,
        ProblemKind::UnknownLineType | ProblemKind::UnknownPayloadType
    )
}

/// True when `items` (a suffix) holds what prompt building reads besides reconstruction: a
/// turn context (the newest one is the settings fallback).
fn has_turn_context(items: &[RolloutItem]) -> bool {
    items
        .iter()
        .any(|item| matches!(item, RolloutItem::TurnContext(_)))
}

/// True when the newest token usage of the file is in `items`.
fn has_token_info(items: &[RolloutItem]) -> bool {
    items.iter().any(
        |item| matches!(item, RolloutItem::EventMsg(EventMsg::TokenCount(count)) if count.info.is_some()),
    )
}

/// Whether `suffix` answers everything history and prompt ask of the whole file.
fn enough(suffix: &[RolloutItem]) -> bool {
    suffix_suffices(suffix) && has_turn_context(suffix) && has_token_info(suffix)
}

fn plain_tail(path: &Path, mut file: File) -> io::Result<Option<RolloutTail>> {
    let Some(session_meta) = head_meta(&mut file)? else {
        return Ok(None);
    };
    let len = file.seek(SeekFrom::End(0))?;
    let mut lines = ReverseLines::new(file)?;
    // Newest first while reading; reversed in place to check, and at the end.
    let mut reversed: Vec<RolloutItem> = Vec::new();
    let mut unreadable_lines = 0;
    let mut next_check = FIRST_CHECK_ITEMS;
    let mut start_offset = len;
    let mut whole_file = true;
    while let Some((offset, raw)) = lines.prev_line()? {
        start_offset = offset;
        // Line numbers are unknown when reading backwards; the problems are only counted.
        let read = read_line(0, raw);
        if read
            .problem
            .is_some_and(|problem| is_unreadable(problem.kind))
        {
            unreadable_lines += 1;
        }
        if let LineOutcome::Line(line, _) = read.outcome {
            reversed.push(line.item);
        }
        if reversed.len() >= next_check {
            next_check = reversed.len().saturating_mul(2);
            reversed.reverse();
            let done = enough(&reversed);
            reversed.reverse();
            if done {
                whole_file = offset == 0;
                break;
            }
        }
    }
    reversed.reverse();
    Ok(Some(RolloutTail {
        path: path.to_path_buf(),
        session_meta,
        items: reversed,
        whole_file,
        unreadable_lines,
        bytes_read: len - start_offset,
    }))
}

fn compressed_tail(path: &Path, file: File) -> io::Result<Option<RolloutTail>> {
    let mut stream = RolloutStream::new(file)?;
    let mut session_meta = None;
    let mut items: Vec<RolloutItem> = Vec::new();
    let mut whole_file = true;
    let mut unreadable_lines = 0;
    // Index in `items` of the newest `task_started`: the scan reads a compaction's turn from
    // its start.
    let mut turn_start = 0;
    while let Some(line) = stream.next_line()? {
        if let Some(problem) = &line.problem {
            if problem.kind == ProblemKind::Damaged {
                return Ok(None);
            }
            if is_unreadable(problem.kind) {
                unreadable_lines += 1;
            }
        }
        let Some(item) = line.into_line().map(|line| line.item) else {
            continue;
        };
        match &item {
            RolloutItem::SessionMeta(meta) if session_meta.is_none() => {
                if meta.meta.history_base.is_some() {
                    return Ok(None);
                }
                session_meta = Some(meta.clone());
            }
            // Everything before the turn of the newest compaction with a base is dropped; the
            // check at the end tells whether a rollback needed more.
            RolloutItem::Compacted(compacted)
                if compacted.replacement_history.is_some() && turn_start > 0 =>
            {
                items.drain(..turn_start);
                turn_start = 0;
                whole_file = false;
            }
            RolloutItem::EventMsg(EventMsg::TurnStarted(_)) => turn_start = items.len(),
            _ => {}
        }
        items.push(item);
    }
    let Some(session_meta) = session_meta else {
        return Ok(None);
    };
    if !whole_file && !enough(&items) {
        return Ok(None);
    }
    Ok(Some(RolloutTail {
        path: path.to_path_buf(),
        session_meta,
        items,
        whole_file,
        unreadable_lines,
        bytes_read: stream.bytes_read(),
    }))
}

#[cfg(test)]
#[path = "tail_tests.rs"]
mod tests;
