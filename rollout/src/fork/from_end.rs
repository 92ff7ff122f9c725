//! Forking a large plain file without holding it: the fork point is found by reading the file
//! backwards, and the kept lines are then streamed into the fork.
//!
//! **The point.** [`cut_after_head`] reads lines from the end ([`ReverseLines`]), in batches
//! that double, and runs the turn index (the streamed form every reader shares) over the
//! suffix read so far. The suffix decides the point when it holds one more surviving turn
//! than the fork drops (so the first dropped turn's start, which depends on the turn before
//! it, is the whole file's) and when the suffix cannot be counted by another rule than the
//! whole file: its turns are `user_message` events (the rule every file that has one uses), or
//! the file is paginated (its head meta says so: paginated files write no `user_message`) and
//! its turns are completed `UserMessage` items. A rollback marker in the suffix that reaches
//! before it removes every suffix turn before the marker, as on the whole file, so the turns
//! after it are the whole file's too. Once the file's start is read, the whole file decides.
//! Anything else (a pre-envelope file or one that does not start with its meta, fewer turns
//! than the fork drops) answers `None`, and the caller forks from the whole file.
//!
//! **The copy.** [`write_fork_lines`] streams the lines before the cut ([`RolloutStream`]),
//! writes each kept line byte for byte (the rewritten session meta in place of the first),
//! drops the lines the loader skips, and counts the kept turns; what it writes equals what
//! [`super::fork_bytes`] gives for the loaded file (a test compares them on every real file).
//!
//! **By reference.** [`reference_prefix`] makes the same pass ([`pass_prefix`]) without
//! writing: it counts what the fork's report says and notes the ordinal nearest the cut on
//! each side, and the base it names is the one [`super::fork_bytes`] names for the
//! loaded file, checked by the resolver's rule.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use codex_protocol::rollout::{HistoryBase, HistoryMode, LineFormat, RolloutItem};
use codex_protocol::thread_id::ThreadId;

use super::fork_point_dropping_turns;
use super::meta_line::{MetaRewrite, rewrite_session_meta_line};
use super::{ForkError, ForkPoint};
use crate::head::first_line_meta;
use crate::history_base::{Around, check_around, ordinal_for_cut};
use crate::load::lines::{LineOutcome, read_line};
use crate::stream::RolloutStream;
use crate::tail::reverse::ReverseLines;
use crate::turns::{StreamedTurnIndex, TurnRecords, UserTurnCounter};

/// Bytes of the first batch read backwards; each next batch is as large as all before it.
pub(crate) const FIRST_BATCH_BYTES: u64 = 1024 * 1024;

/// Where a fork that drops the last turns of a plain file cuts it, found from its end.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct CutFromEnd {
    /// Byte offset of the first line not kept (the file's length when everything is kept).
    pub offset: u64,
    /// Bytes read backwards to find it.
    pub bytes_read: u64,
}

/// The cut of a fork of the plain file `path`, whose first line is `head`, without its last
/// `drop` user turns, read from the end in batches from `first_batch_bytes` (see the module
/// docs); `None` when only the whole file can tell.
pub(crate) fn cut_after_head(
    path: &Path,
    head: Head,
    drop: usize,
    first_batch_bytes: u64,
) -> io::Result<Option<CutFromEnd>> {
    let len = std::fs::metadata(path)?.len();
    if drop == 0 {
        return Ok(Some(CutFromEnd {
            offset: len,
            bytes_read: 0,
        }));
    }
    let paginated = head.paginated;
    let mut lines = ReverseLines::new(File::open(path)?)?;
    // The suffix read so far, last line first: (offset, bytes).
    let mut suffix: Vec<(u64, Vec<u8>)> = Vec::new();
    let mut batch_end = first_batch_bytes.max(1);
    loop {
        let Some((offset, bytes)) = lines.prev_line()? else {
            // The whole file was read: its own index decides, by whichever rule it calls for.
            let offset = cut_in_suffix(&suffix, drop, paginated, true);
            return Ok(offset.map(|offset| CutFromEnd {
                offset,
                bytes_read: len,
            }));
        };
        suffix.push((offset, bytes.to_vec()));
        let read = len - offset;
        if read < batch_end {
            continue;
        }
        batch_end = batch_end.saturating_mul(2);
        if let Some(offset) = cut_in_suffix(&suffix, drop, paginated, false) {
            return Ok(Some(CutFromEnd {
                offset,
                bytes_read: read,
            }));
        }
    }
}

/// What the first line of a file forked from its end says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Head {
    /// The source's thread.
    pub(crate) thread_id: ThreadId,
    /// Its history mode is paginated (it writes no `user_message` events).
    pub(crate) paginated: bool,
}

/// The first line of `path` when it is an enveloped session meta; `None` otherwise (a
/// pre-envelope file counts its turns by another rule than any suffix can show, and a file
/// that does not start with its meta is left to the whole-file fork).
pub(crate) fn read_head(path: &Path) -> io::Result<Option<Head>> {
    Ok(match first_line_meta(&mut File::open(path)?)? {
        Some((meta, LineFormat::Envelope)) => Some(Head {
            thread_id: meta.meta.id,
            paginated: meta.meta.effective_history_mode() == HistoryMode::Paginated,
        }),
        _ => None,
    })
}

/// The cut offset the suffix (last line first; `whole`: the whole file) decides, if it does.
fn cut_in_suffix(
    suffix: &[(u64, Vec<u8>)],
    drop: usize,
    paginated: bool,
    whole: bool,
) -> Option<u64> {
    let mut index = StreamedTurnIndex::default();
    let mut offsets = Vec::new();
    for (offset, bytes) in suffix.iter().rev() {
        if let LineOutcome::Line(line, format) = read_line(0, bytes).outcome {
            index.note_format(format);
            index.push(&line.item);
            offsets.push(*offset);
        }
    }
    let (records, turns) = index.finish();
    let decided = whole
        || records == TurnRecords::UserMessageEvents
        || (paginated && records == TurnRecords::CompletedUserMessages);
    let surviving: Vec<_> = turns.into_iter().filter(|turn| !turn.rolled_back).collect();
    // A part of the file needs the turn before the first dropped one (its start depends on
    // it); the whole file has what it has.
    let needed = if whole { drop } else { drop + 1 };
    if !decided || surviving.len() < needed {
        return None;
    }
    match fork_point_dropping_turns(&surviving, drop).ok()? {
        ForkPoint::BeforeItem(item) => offsets.get(item).copied(),
        _ => None,
    }
}

/// What the streamed copy of a fork wrote ([`super::fork_file_dropping_turns`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct ForkLines {
    /// Lines written (items, legacy markers, kept opaque lines, the rewritten meta).
    pub lines_written: usize,
    /// Lines before the cut the loader skips, not copied.
    pub skipped_problem_lines: usize,
    /// Items kept.
    pub kept_items: usize,
    /// The user turns of the kept lines.
    pub kept_turns: usize,
}

/// Streams the lines of `path` before byte `cut` into `out`: kept lines byte for byte, the
/// first session meta rewritten by `rewrite`, skipped lines dropped (see the module docs).
pub(crate) fn write_fork_lines(
    path: &Path,
    cut: u64,
    rewrite: &MetaRewrite,
    out: &mut impl Write,
) -> Result<ForkLines, ForkError> {
    let mut lines_written = 0;
    let prefix = pass_prefix(path, cut, false, |kept| {
        if kept.first_meta {
            let text = String::from_utf8_lossy(kept.raw);
            let legacy = matches!(kept.format, LineFormat::Legacy(_));
            let rewritten = rewrite_session_meta_line(&text, legacy, rewrite)?;
            out.write_all(rewritten.as_bytes())
        } else {
            out.write_all(kept.raw)
        }
        .and_then(|()| out.write_all(b"\n"))
        .map_err(|source| ForkError::Io {
            action: "write the fork of",
            path: path.to_path_buf(),
            source,
        })?;
        lines_written += 1;
        Ok(())
    })?;
    Ok(ForkLines {
        lines_written,
        skipped_problem_lines: prefix.skipped_problem_lines,
        kept_items: prefix.kept_items,
        kept_turns: prefix.kept_turns,
    })
}

/// The prefix a fork by reference of a plain file names, found in one forward pass over the
/// lines before the cut (nothing is copied).
pub(crate) struct ReferencedPrefix {
    /// What the lines before the cut hold.
    pub(crate) pass: PrefixPass,
    /// The source's first session meta line and its format, which the fork rewrites.
    pub(crate) meta: Option<(Vec<u8>, LineFormat)>,
    /// The base naming the prefix, checked by the resolver's rule.
    pub(crate) base: HistoryBase,
}

/// The prefix of `path` (the rollout of thread `thread_id`) that ends at byte `cut`, as a
/// fork by reference names it: the ordinal is the one a whole-file fork writes
/// ([`ordinal_for_cut`]) and is checked as a resolver checks it ([`check_around`]); `cut` is
/// a line start, as every cut found from the end is.
pub(crate) fn reference_prefix(
    path: &Path,
    cut: u64,
    thread_id: ThreadId,
) -> Result<ReferencedPrefix, ForkError> {
    let mut meta = None;
    let pass = pass_prefix(path, cut, true, |kept| {
        if kept.first_meta {
            meta = Some((kept.raw.to_vec(), kept.format));
        }
        Ok(())
    })?;
    let base = HistoryBase {
        thread_id,
        end_ordinal_exclusive: ordinal_for_cut(pass.ordinals),
        end_byte_offset: Some(cut),
    };
    if let Some(ordinal) = base.end_ordinal_exclusive {
        check_around(pass.ordinals, cut, ordinal).map_err(|problem| ForkError::Prefix {
            path: path.to_path_buf(),
            problem,
        })?;
    }
    Ok(ReferencedPrefix { pass, meta, base })
}

/// One line a fork keeps, as [`pass_prefix`] hands it on.
pub(crate) struct KeptLine<'a> {
    /// Its bytes, without the line end.
    pub(crate) raw: &'a [u8],
    pub(crate) format: LineFormat,
    /// It is the source's first session meta, which the fork rewrites.
    pub(crate) first_meta: bool,
}

/// What [`pass_prefix`] found in the lines before the cut.
pub(crate) struct PrefixPass {
    /// Lines the loader skips, which a fork neither copies nor names.
    pub(crate) skipped_problem_lines: usize,
    pub(crate) kept_items: usize,
    /// The user turns of the kept lines.
    pub(crate) kept_turns: usize,
    /// The lines with an ordinal nearest the cut (asked for by a fork by reference; else
    /// none).
    pub(crate) ordinals: Around,
}

/// One forward pass over the lines of `path` before byte `cut`, handing each line a fork
/// keeps to `keep` in file order; with `find_ordinals`, the pass also notes the ordinal
/// nearest the cut on each side (reading on past it until a line has one: a fork from the end
/// cuts near the end).
pub(crate) fn pass_prefix(
    path: &Path,
    cut: u64,
    find_ordinals: bool,
    mut keep: impl FnMut(KeptLine<'_>) -> Result<(), ForkError>,
) -> Result<PrefixPass, ForkError> {
    let read_error = |source| ForkError::Io {
        action: "read fork source",
        path: path.to_path_buf(),
        source,
    };
    let mut stream = RolloutStream::open(path).map_err(read_error)?;
    let mut pass = PrefixPass {
        skipped_problem_lines: 0,
        kept_items: 0,
        kept_turns: 0,
        ordinals: (None, None),
    };
    let mut turns = UserTurnCounter::default();
    let mut meta_seen = false;
    while let Some(line) = stream.next_line().map_err(read_error)? {
        let past_cut = line.offset >= cut;
        if past_cut && !find_ordinals {
            break;
        }
        let format = line.format();
        if find_ordinals && format.is_some() {
            let ordinal = match line.line() {
                Some(rollout_line) => rollout_line.ordinal,
                None => crate::line_ordinal(line.raw),
            };
            if let Some(ordinal) = ordinal {
                if past_cut {
                    pass.ordinals.1 = Some((line.number, ordinal));
                    break;
                }
                pass.ordinals.0 = Some((line.number, ordinal));
            }
        }
        if past_cut {
            continue;
        }
        if line
            .problem
            .as_ref()
            .is_some_and(|problem| !problem.kind.is_kept())
        {
            pass.skipped_problem_lines += 1;
        }
        let Some(format) = format else {
            continue;
        };
        turns.note_format(format);
        let first_meta = match line.line() {
            Some(rollout_line) => {
                pass.kept_items += 1;
                turns.push(&rollout_line.item);
                !meta_seen && matches!(rollout_line.item, RolloutItem::SessionMeta(_))
            }
            None => false,
        };
        meta_seen |= first_meta;
        keep(KeptLine {
            raw: line.raw,
            format,
            first_meta,
        })?;
    }
    pass.kept_turns = turns.count();
    Ok(pass)
}

#[cfg(test)]
#[path = "from_end_tests.rs"]
mod tests;
