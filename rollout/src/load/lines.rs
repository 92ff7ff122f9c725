//! The line loop of the loader: each line of a byte buffer becomes an entry (with its item) or
//! a problem. On request, the buffer is cut into runs of whole lines read on rayon's pool and
//! joined back in order, which gives exactly the result of one sequential pass.

use std::ops::Range;

use rayon::prelude::*;

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{
    LegacyRecord, LineError, LineFormat, ParsedRecord, RolloutItem, RolloutLine, TypedLine,
    parse_rollout_line_typed,
};

use super::entry::{EntryContent, LineEntry};
use super::problem::{LineProblem, ProblemKind};

/// What reading a run of lines produced. Spans are offsets into the whole buffer and line
/// numbers are 1-based in the whole buffer.
#[derive(Debug, Default)]
pub(crate) struct Part {
    pub(crate) entries: Vec<LineEntry>,
    pub(crate) items: Vec<RolloutItem>,
    pub(crate) item_entries: Vec<usize>,
    pub(crate) problems: Vec<LineProblem>,
    /// The number of the last line read (0 when none).
    pub(crate) line_count: usize,
}

/// Reads every line of `bytes`, on up to `threads` threads.
pub(crate) fn read_lines(bytes: &[u8], threads: usize) -> Part {
    let runs = runs_of_whole_lines(bytes, threads.max(1));
    if runs.len() <= 1 {
        return read_run(bytes, 0..bytes.len(), 0);
    }
    // Rayon's pool, shared with the per-file parallelism of many-file commands (a run of
    // files inspected in parallel does not start threads per file), and its indexed collect
    // keeps the runs in file order.
    let parts: Vec<Part> = runs
        .into_par_iter()
        .map(|(range, first_line)| read_run(bytes, range, first_line))
        .collect();
    join_parts(parts)
}

/// Cuts `bytes` into at most `count` non-empty ranges that each end just after a `\n` (the
/// last one at the end of the buffer), each with the number of lines before it.
fn runs_of_whole_lines(bytes: &[u8], count: usize) -> Vec<(Range<usize>, usize)> {
    let mut runs = Vec::with_capacity(count);
    let mut start = 0;
    let mut lines_before = 0;
    for index in 1..=count {
        let end = if index == count {
            bytes.len()
        } else {
            let target = (bytes.len() * index / count).max(start);
            memchr::memchr(b'\n', &bytes[target..])
                .map_or(bytes.len(), |newline| target + newline + 1)
        };
        if end > start {
            runs.push((start..end, lines_before));
            lines_before += memchr::memchr_iter(b'\n', &bytes[start..end]).count();
            start = end;
        }
    }
    runs
}

/// Appends the parts in order, renumbering item and entry indices.
fn join_parts(parts: Vec<Part>) -> Part {
    let mut joined = Part {
        entries: Vec::with_capacity(parts.iter().map(|part| part.entries.len()).sum()),
        items: Vec::with_capacity(parts.iter().map(|part| part.items.len()).sum()),
        item_entries: Vec::with_capacity(parts.iter().map(|part| part.item_entries.len()).sum()),
        problems: Vec::new(),
        line_count: 0,
    };
    for part in parts {
        let items_before = joined.items.len();
        let entries_before = joined.entries.len();
        joined
            .entries
            .extend(part.entries.into_iter().map(|mut entry| {
                if let EntryContent::Item(index) = &mut entry.content {
                    *index += items_before;
                }
                entry
            }));
        joined.items.extend(part.items);
        joined.item_entries.extend(
            part.item_entries
                .into_iter()
                .map(|index| index + entries_before),
        );
        joined.problems.extend(part.problems);
        joined.line_count = joined.line_count.max(part.line_count);
    }
    joined
}

/// The lines of `bytes`, numbered from 1, as ranges without their `\n`: the rules of
/// [`codex_protocol::rollout::split_lines`] (a final line without terminator is a line; the
/// empty rest after a final `\n` is not), found with a vectorised newline search instead of a
/// byte loop.
pub(crate) fn line_ranges(bytes: &[u8]) -> impl Iterator<Item = (usize, Range<usize>)> + '_ {
    let mut start = 0;
    let mut newlines = memchr::memchr_iter(b'\n', bytes);
    std::iter::from_fn(move || {
        let end = match newlines.next() {
            Some(newline) => newline,
            None if start < bytes.len() => bytes.len(),
            None => return None,
        };
        let line = start..end;
        start = end + 1;
        Some(line)
    })
    .enumerate()
    .map(|(index, line)| (index + 1, line))
}

/// Reads the lines of `bytes[range]`, numbering them after `lines_before`.
fn read_run(bytes: &[u8], range: Range<usize>, lines_before: usize) -> Part {
    let offset = range.start;
    let run = bytes.get(range).unwrap_or_default();
    // Items are large (hundreds of bytes each); sizing the vectors once avoids copying them
    // all again at every growth step of a 100k-line file.
    let lines = memchr::memchr_iter(b'\n', run).count() + 1;
    let mut part = Part {
        entries: Vec::with_capacity(lines),
        items: Vec::with_capacity(lines),
        item_entries: Vec::with_capacity(lines),
        problems: Vec::new(),
        line_count: lines_before,
    };
    for (local_number, local) in line_ranges(run) {
        let number = lines_before + local_number;
        part.line_count = number;
        let line = run.get(local.clone()).unwrap_or_default();
        let span = offset + local.start..offset + local.end;
        let read = read_line(number, line);
        part.problems.extend(read.problem);
        let (content, format) = match read.outcome {
            LineOutcome::Line(line, format) => {
                part.item_entries.push(part.entries.len());
                part.items.push(line.item);
                (EntryContent::Item(part.items.len() - 1), format)
            }
            LineOutcome::LegacyMarker(format) => (EntryContent::LegacyMarker, format),
            LineOutcome::Opaque(format) => (EntryContent::Opaque, format),
            LineOutcome::Skipped => continue,
        };
        part.entries.push(LineEntry {
            number,
            span,
            content,
            format,
        });
    }
    part
}

/// What one line of a rollout holds, as every reader (the whole-file loader and the stream)
/// classifies it: the one place that decides which lines are items, markers, opaque or
/// skipped, and which problem each reports.
#[derive(Debug)]
pub(crate) struct LineRead {
    pub(crate) outcome: LineOutcome,
    /// The problem the line reports: a skipped or opaque line always has one; an item line
    /// has one when it holds a type the model does not know.
    pub(crate) problem: Option<LineProblem>,
}

impl LineRead {
    /// A line a reader passed over without reading it: skipped, with no problem (which no
    /// line that was read has).
    pub(crate) fn passed_over() -> Self {
        Self {
            outcome: LineOutcome::Skipped,
            problem: None,
        }
    }
}

/// What a line becomes.
// The item is moved out at once by every caller; boxing it would cost an allocation per
// line of every file read.
#[allow(clippy::large_enum_variant)]
#[derive(Debug)]
pub(crate) enum LineOutcome {
    /// A rollout line with its item.
    Line(RolloutLine, LineFormat),
    /// A legacy `{"record_type": ...}` marker.
    LegacyMarker(LineFormat),
    /// A known line kind whose payload the model cannot read: kept, no item.
    Opaque(LineFormat),
    /// Not a usable line (blank, not UTF-8, truncated, malformed).
    Skipped,
}

/// Reads line `number` (1-based), its bytes without the `\n`.
pub(crate) fn read_line(number: usize, line: &[u8]) -> LineRead {
    // The typed reading only: the caller keeps the original bytes, so the parser need not
    // check or keep what the typed form would write back.
    let parsed = match parse_rollout_line_typed(line) {
        Ok(parsed) => parsed,
        Err(error) => {
            let problem = LineProblem::from_line_error(number, &error);
            let outcome = if problem.kind == ProblemKind::Mismatch {
                LineOutcome::Opaque(mismatch_format(&error))
            } else {
                LineOutcome::Skipped
            };
            return LineRead {
                outcome,
                problem: Some(problem),
            };
        }
    };
    let format = parsed.format;
    let problem = kept_item_problem(number, &parsed, line);
    let outcome = match parsed.into_line() {
        Some(line) => LineOutcome::Line(line, format),
        None => LineOutcome::LegacyMarker(format),
    };
    LineRead { outcome, problem }
}

/// The format of a line whose payload did not fit the model.
fn mismatch_format(error: &LineError) -> LineFormat {
    match error {
        LineError::Legacy {
            record: "session_meta",
            ..
        } => LineFormat::Legacy(LegacyRecord::SessionMeta),
        LineError::Legacy { .. } => LineFormat::Legacy(LegacyRecord::ResponseItem),
        _ => LineFormat::Envelope,
    }
}

/// The problem to report for a line that loaded but holds something the model does not know:
/// an unknown line type, or an unknown event or response item type. Retired types that
/// upstream drops silently (`ghost_snapshot`) are not reported.
fn kept_item_problem(number: usize, parsed: &TypedLine, raw: &[u8]) -> Option<LineProblem> {
    let ParsedRecord::Line(line) = &parsed.record else {
        return None;
    };
    match &line.item {
        RolloutItem::Unknown(unknown) => Some(LineProblem {
            line: number,
            kind: ProblemKind::UnknownLineType,
            message: format!(
                "line type `{}` is not modelled; kept as written",
                unknown.tag
            ),
        }),
        RolloutItem::ResponseItem(ResponseItem::Other) | RolloutItem::EventMsg(EventMsg::Other) => {
            let legacy = matches!(parsed.format, LineFormat::Legacy(_));
            let payload_type = peek_payload_type(raw, legacy);
            if payload_type.as_deref() == Some("ghost_snapshot") {
                return None;
            }
            Some(LineProblem {
                line: number,
                kind: ProblemKind::UnknownPayloadType,
                message: format!(
                    "`{}` payload type {} is not modelled; kept as written",
                    line.item.tag(),
                    payload_type.map_or_else(|| "(none)".to_string(), |tag| format!("`{tag}`"))
                ),
            })
        }
        _ => None,
    }
}

/// The payload's `type` (or, for a legacy bare item, the line's own `type`). Only called for
/// the rare lines of unknown payload type, so it may parse the line again.
fn peek_payload_type(raw: &[u8], legacy: bool) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Tagged {
        #[serde(rename = "type")]
        tag: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Enveloped {
        payload: Option<Tagged>,
    }
    if legacy {
        serde_json::from_slice::<Tagged>(raw).ok()?.tag
    } else {
        serde_json::from_slice::<Enveloped>(raw).ok()?.payload?.tag
    }
}
