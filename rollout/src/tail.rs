//! Resume from the end: a rollout's rebuilt history, reading no more of the file than the
//! answer needs and holding none of it.
//!
//! A resumed session needs the file's first `session_meta` (its thread, base instructions)
//! and the *live suffix*: the items from which reconstruction's reverse scan finds everything
//! it looks for (the newest surviving compaction, the previous turn's settings, the reference
//! context item, the context window), plus the newest token usage and turn context. What a
//! suffix still lacks is asked of reconstruction itself ([`ReplayPlan::missing`]), so the
//! decision "where does replay start" stays in one rule; a suffix completed by the lines
//! before it rebuilds exactly the history the whole file rebuilds.
//!
//! Both passes read forwards with the one stream reader ([`RolloutStream`], its lines parsed
//! on rayon's pool and seen in order); nothing parsed is kept but the history being rebuilt:
//! - **survey**: from a candidate start, every item is shown to the reverse scan, which keeps
//!   a few words per turn. In a plain file the candidate is found by reading line starts
//!   backwards ([`reverse::ReverseLines`]) 1 MiB from the end, and moved back twice as far
//!   each time the suffix does not suffice (rollback markers that reach back far, a
//!   compaction long ago), and, when no compaction of the suffix survives, at least to a
//!   little before the nearest earlier `compacted` line (found by a byte test while reading
//!   line starts back; none: the whole file is next); once that is more than a quarter of the
//!   file (and 8 MiB), the next survey is the whole file. The surveys cost at most about twice
//!   the suffix needed, or one and a half times the file when it is needed whole. A compressed
//!   file cannot be read backwards: it is surveyed whole.
//! - **the lines before**: a suffix is moved back only for what the lines before it could
//!   change (the base compaction, the previous turn's settings, the reference: the reverse
//!   scan stopped knowing them, or it did not). What else the suffix lacks, the newest token
//!   usage or turn context, or a window no surviving compaction recorded, is read back from
//!   its start for those line types alone ([`earlier`]), parsing nothing else: the window
//!   then is the whole file's first window, which counts every `compacted` line, so those
//!   bytes are read to the file's start ([`RolloutTail::bytes_walked`]).
//! - **replay**: from the base compaction (whose place the survey noted) to the end, each
//!   item replayed as it is read; in a compressed file the lines before it are decoded but
//!   not parsed.
//!
//! Memory is the rebuilt history plus the survey's few words per turn, whatever the file's
//! size or shape: when no compaction applies, the history is the whole conversation, which is
//! what the answer is.
//!
//! [`resume_rollout_tail`] returns `None` when this path cannot answer and the caller loads the
//! whole file (its errors then name what is wrong): a fork by reference (its history starts
//! in its parent), a file without one readable item, or a damaged compressed stream.

mod earlier;
pub(crate) mod reverse;

use std::fs::File;
use std::io::{self, Read, Seek, SeekFrom};
use std::path::{Path, PathBuf};

use codex_protocol::rollout::{RolloutItem, SessionMetaLine, TurnContextItem};

use crate::head::first_meta_within;
use crate::load::ProblemKind;
use crate::reconstruct::{
    Missing, ReconstructOptions, ReconstructedHistory, ReplayPlan, StreamedReconstruction,
};
use crate::source::{Compression, RolloutReader};
use crate::stream::RolloutStream;
use reverse::ReverseLines;

/// How many lines the head is searched for the first `session_meta`.
const HEAD_LINES: usize = 64;
/// Bytes from the end of a plain file the first survey starts at; each later one starts twice
/// as far back.
const FIRST_SURVEY_BYTES: u64 = 1 << 20;
/// The type tag of a `compacted` line, as JSON spells it.
const COMPACTED_TAG: &[u8] = b"\"compacted\"";
/// Reaches up to this are always tried before the whole file (small surveys cost little).
const WHOLE_SURVEY_AFTER: u64 = 8 << 20;

/// A rollout's history rebuilt from its end (see the module docs).
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct RolloutTail {
    /// The file.
    pub path: PathBuf,
    /// The file's first `session_meta`, when it has one.
    pub session_meta: Option<SessionMetaLine>,
    /// The rebuilt history: what reconstruction of the whole file gives.
    pub rebuilt: ReconstructedHistory,
    /// The newest turn context of the file, whether or not a rollback removed its turn.
    pub newest_turn_context: Option<TurnContextItem>,
    /// True when the last survey read the whole file (nothing could be left out).
    pub whole_file: bool,
    /// Lines of the part surveyed that could not be read as rollout lines (blank, malformed,
    /// truncated...); they were skipped, as the loader skips them.
    pub unreadable_lines: usize,
    /// Bytes of the file the last survey read and parsed (decoded bytes for a compressed
    /// file).
    pub bytes_read: u64,
    /// Bytes before the last survey's start read back, line by line, for the newest token
    /// usage or turn context the survey lacked, or for the window's count of compactions
    /// (only the lines of those types parsed): 0 when the survey answered alone.
    pub bytes_walked: u64,
}

/// Rebuilds the history of the rollout at `path` from its end (see the module docs); `None`
/// when the whole file must be loaded instead.
pub fn resume_rollout_tail(
    path: impl AsRef<Path>,
    options: &ReconstructOptions,
) -> io::Result<Option<RolloutTail>> {
    let path = path.as_ref();
    let mut file = File::open(path)?;
    let compression = RolloutReader::new(&mut file)?.compression();
    file.seek(SeekFrom::Start(0))?;
    let session_meta = match head_meta(&mut file)? {
        Head::ForkByReference => return Ok(None),
        Head::Meta(meta) => Some(*meta),
        Head::None => None,
    };
    let len = match compression {
        Compression::Plain => file.seek(SeekFrom::End(0))?,
        Compression::Zstd => 0,
    };
    let mut starts = match compression {
        Compression::Plain => Some(ReverseLines::new(File::open(path)?)?),
        Compression::Zstd => None,
    };
    let mut reach = FIRST_SURVEY_BYTES;
    loop {
        let start = match &mut starts {
            Some(lines) if reach < len => line_start_before(lines, len - reach)?,
            _ => 0,
        };
        let Some(mut survey) = survey(path, start, options)? else {
            return Ok(None);
        };
        let bytes_walked = match survey.plan.missing() {
            _ if start == 0 && survey.items == 0 => return Ok(None),
            _ if start == 0 => Some(0),
            Some(missing) if missing == Missing::default() => Some(0),
            // What the lines before the suffix can change is known: the rest is read back for
            // its own line types, not surveyed.
            Some(missing) => {
                let walk = earlier::read_earlier(path, start, missing)?;
                survey.plan.take_earlier(walk.earlier);
                Some(walk.bytes_read)
            }
            None => None,
        };
        if let Some(bytes_walked) = bytes_walked {
            let replay_from = survey.replay_start(start);
            let rebuilt = replay(path, replay_from, survey.plan)?;
            return Ok(Some(RolloutTail {
                path: path.to_path_buf(),
                session_meta,
                newest_turn_context: rebuilt.1,
                rebuilt: rebuilt.0,
                whole_file: start == 0,
                unreadable_lines: survey.unreadable_lines,
                bytes_read: survey.bytes_read,
                bytes_walked,
            }));
        }
        // When no compaction of the suffix survives (none, or rollbacks removed them), the
        // base can only be a compaction before this start: without a `compacted` line there,
        // only the whole file answers; with one, the next survey reaches at least
        // [`FIRST_SURVEY_BYTES`] before it (for the turn it happened in). A surviving one
        // whose turn began before the start only needs the start moved back.
        reach = reach.saturating_mul(2);
        if let Some(lines) = &mut starts
            && !survey.plan.has_base()
        {
            match previous_line_containing(lines, COMPACTED_TAG)? {
                None => reach = len,
                Some(offset) => {
                    reach = reach.max((len - offset).saturating_add(FIRST_SURVEY_BYTES));
                }
            }
        }
        // Past a quarter of the file, the next survey is the whole file: surveys then cost
        // at most half the file more than one whole survey.
        if reach > (len / 4).max(WHOLE_SURVEY_AFTER) {
            reach = len;
        }
    }
}

/// The offset of the first line that starts at or after `at` (reading backwards from where
/// `lines` is); 0 once the start is reached.
fn line_start_before(lines: &mut ReverseLines<File>, at: u64) -> io::Result<u64> {
    loop {
        match lines.prev_line()? {
            Some((offset, _)) if offset > at => continue,
            Some((offset, _)) => return Ok(offset),
            None => return Ok(0),
        }
    }
}

/// The offset of the nearest line before where `lines` is that contains `needle`; `None`
/// once the start is reached without one. A byte test: it may find the word inside some
/// text, never miss a line whose type it is.
fn previous_line_containing(
    lines: &mut ReverseLines<File>,
    needle: &[u8],
) -> io::Result<Option<u64>> {
    let finder = memchr::memmem::Finder::new(needle);
    while let Some((offset, raw)) = lines.prev_line()? {
        if finder.find(raw).is_some() {
            return Ok(Some(offset));
        }
    }
    Ok(None)
}

/// What a survey of a suffix found.
struct Survey {
    plan: ReplayPlan,
    /// Where each `compacted` item of the suffix starts: (index in the suffix, offset).
    compactions: Vec<(usize, u64)>,
    items: usize,
    unreadable_lines: usize,
    bytes_read: u64,
}

impl Survey {
    /// Where the replay pass starts reading: the base compaction's line, else the survey's
    /// start.
    fn replay_start(&self, start: u64) -> u64 {
        let first = self.plan.first_needed();
        self.compactions
            .iter()
            .find(|(index, _)| *index == first)
            .map_or(start, |(_, offset)| *offset)
    }
}

/// A stream over the file from the line at `offset`: a plain file is read from there; a
/// compressed one is decoded from its start, the lines before `offset` split but not parsed.
fn stream_from(path: &Path, offset: u64) -> io::Result<RolloutStream<File>> {
    let mut file = File::open(path)?;
    let compression = RolloutReader::new(&mut file)?.compression();
    match compression {
        Compression::Plain => {
            file.seek(SeekFrom::Start(offset))?;
            RolloutStream::resume(file, 0, offset)
        }
        Compression::Zstd => {
            file.seek(SeekFrom::Start(0))?;
            let mut stream = RolloutStream::new(file)?;
            while stream.bytes_read() < offset {
                if stream.next_line_where(|_| false)?.is_none() {
                    break;
                }
            }
            Ok(stream)
        }
    }
}

/// Surveys the items from the line at `start` to the end; `None` for a damaged compressed
/// stream.
fn survey(path: &Path, start: u64, options: &ReconstructOptions) -> io::Result<Option<Survey>> {
    let stream = stream_from(path, start)?;
    let mut pass = StreamedReconstruction::new();
    let mut compactions = Vec::new();
    let mut items = 0;
    let mut unreadable_lines = 0;
    let mut damaged = false;
    let read = stream.for_each_line_parallel(|line| {
        if let Some(problem) = &line.problem {
            damaged |= problem.kind == ProblemKind::Damaged;
            if problem.kind.is_unreadable() {
                unreadable_lines += 1;
            }
        }
        let offset = line.offset;
        let Some(item) = line.line().map(|line| &line.item) else {
            return;
        };
        if matches!(item, RolloutItem::Compacted(_)) {
            compactions.push((items, offset));
        }
        pass.survey(item);
        items += 1;
    })?;
    if damaged {
        return Ok(None);
    }
    Ok(Some(Survey {
        plan: pass.plan(options),
        compactions,
        items,
        unreadable_lines,
        bytes_read: read.bytes - start,
    }))
}

/// Replays the items from the line at `offset` (the item `plan.first_needed()`) to the end.
fn replay(
    path: &Path,
    offset: u64,
    mut plan: ReplayPlan,
) -> io::Result<(ReconstructedHistory, Option<TurnContextItem>)> {
    let stream = stream_from(path, offset)?;
    let mut index = plan.first_needed();
    stream.for_each_line_parallel(|line| {
        if let Some(item) = line.into_line().map(|line| line.item) {
            plan.replay(index, item);
            index += 1;
        }
    })?;
    let newest = plan.newest_turn_context().cloned();
    Ok((plan.finish(), newest))
}

/// What the first lines of a file say about its head.
enum Head {
    Meta(Box<SessionMetaLine>),
    /// The first `session_meta` continues a parent's history.
    ForkByReference,
    None,
}

/// The first `session_meta` within the first [`HEAD_LINES`] lines of `reader`.
fn head_meta(reader: impl Read) -> io::Result<Head> {
    Ok(match first_meta_within(reader, HEAD_LINES)? {
        Some(first) if first.meta.meta.history_base.is_some() => Head::ForkByReference,
        Some(first) => Head::Meta(first.meta),
        None => Head::None,
    })
}

#[cfg(test)]
#[path = "tail_tests.rs"]
mod tests;
