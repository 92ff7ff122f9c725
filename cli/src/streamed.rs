//! Reading a [`Source`] one line at a time, without holding it: the one forward reader every
//! command reads through, in memory bounded by the longest line (and what the command keeps).
//! The lines are classified by codex-rollout's [`RolloutStream`], which asks the whole-file
//! loader's own line rule, so a streamed file reports the same items, problems and line numbers
//! as a loaded one.
//!
//! [`stream_session`] applies the checks every command makes of a session (a damaged compressed
//! stream, an empty input, an input without one readable line are errors naming it; skipped
//! lines are announced on standard error), once the stream has ended, and says how many items
//! it read up to which line ([`ItemsSeen`]); a command that reads a file twice holds its later
//! pass to that ([`stream_again`]).

use std::io::Read;

use codex_protocol::rollout::RolloutLine;
use codex_rollout::{LineProblem, ProblemKind};
use codex_rollout::{RolloutStream, StreamedLine};

use crate::error::Failure;
use crate::input::{Source, describe, note_sample, open_file};
use crate::output::warn;
use crate::progress::{Progress, ProgressReader};
use crate::sample::SAMPLE_JSONL;

/// A stream over any source.
pub(crate) type SourceStream<'a> = RolloutStream<Box<dyn Read + 'a>>;

/// The size of `source` on disk when it is a file that can be looked at (for progress).
pub(crate) fn source_size(source: &Source) -> u64 {
    match source {
        Source::File(_) | Source::Spooled(_) => source
            .path()
            .and_then(|path| std::fs::metadata(path).ok())
            .map_or(0, |metadata| metadata.len()),
        Source::Stdin | Source::Sample => 0,
    }
}

/// Opens `source` as a stream whose reads advance `progress` (by the bytes of the file, the
/// compressed ones for a `.zst`). Announces the sample on standard error when it is used.
pub(crate) fn open_stream<'a>(
    source: &Source,
    progress: &'a Progress,
) -> Result<SourceStream<'a>, Failure> {
    let name = source.name();
    let reader: Box<dyn Read + 'a> = match source {
        Source::Sample => {
            note_sample();
            Box::new(SAMPLE_JSONL.as_bytes())
        }
        Source::Stdin => Box::new(std::io::stdin()),
        Source::File(path) => {
            let (file, _) = open_file(path)?;
            Box::new(ProgressReader::new(file, progress))
        }
        Source::Spooled(spooled) => {
            let (file, _) = open_file(spooled.path())?;
            Box::new(ProgressReader::new(file, progress))
        }
    };
    RolloutStream::new(reader).map_err(|err| unreadable(&name, &err))
}

/// The failure of a read that broke off.
pub(crate) fn unreadable(name: &str, err: &std::io::Error) -> Failure {
    Failure::Unreadable(format!("cannot read {name}: {}", describe(err)))
}

/// What a whole pass over a session's stream saw, for the checks of a loaded session.
#[derive(Debug, Default)]
struct Checks {
    blank: bool,
    /// Items among the lines read (not passed over) that the later pass reads too.
    items: usize,
    /// Some line, read by the stream or later by the visitor, held an item.
    any_item: bool,
    lines: usize,
    skipped: usize,
    first_skipped: Option<LineProblem>,
    damage: Option<LineProblem>,
    /// The last line an item was read from, or that was passed over (it may hold one).
    last_item_line: usize,
    /// Unreadable lines among every line read, by the stream or the visitor, and the first:
    /// what a file without one item reports (then every line was read).
    all_skipped: (usize, Option<LineProblem>),
}

/// The items a pass over a file read, and the last line it read one from: what a later pass
/// over the same file must find again ([`stream_again`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct ItemsSeen {
    /// Lines that held an item (among the lines both passes read, for passes that pass over
    /// some: what the later pass checks).
    pub items: usize,
    /// The last of them (1-based), or of the lines passed over.
    pub last_line: usize,
}

/// Which lines each pass of a two-pass read parses, told from a line's bytes: the first pass
/// the lines `first` accepts; the later pass those `later` accepts and every line the first
/// passed over, so that every line is read, and an unreadable one announced, by one pass at
/// least. The other lines are passed over unparsed ([`StreamedLine::passed_over`]).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Passes<F, L> {
    pub first: F,
    pub later: L,
}

/// A byte-level test of a raw line: whether a pass parses it.
pub(crate) type LineTest = fn(&[u8]) -> bool;

/// The test of a pass that reads every line.
pub(crate) fn every_line(_raw: &[u8]) -> bool {
    true
}

impl Passes<LineTest, LineTest> {
    /// Two passes that both read every line.
    pub(crate) const EVERY_LINE: Self = Passes {
        first: every_line,
        later: every_line,
    };
}

impl<F: Fn(&[u8]) -> bool, L: Fn(&[u8]) -> bool> Passes<F, L> {
    fn first_reads(&self, raw: &[u8]) -> bool {
        (self.first)(raw)
    }

    fn later_reads(&self, raw: &[u8]) -> bool {
        !(self.first)(raw) || (self.later)(raw)
    }
}

/// A first pass that passed over lines ([`stream_session_where`]): what it saw, and the
/// unreadable lines among those it read, which its later pass completes and announces
/// ([`stream_again_lines`]).
#[derive(Debug, Default)]
pub(crate) struct FirstPass {
    /// The items read (among the lines both passes read) and the last line that held or may
    /// hold one.
    pub seen: ItemsSeen,
    /// The lines of the file at the first pass.
    lines: usize,
    skipped: usize,
    first_skipped: Option<LineProblem>,
}

/// Streams `source`, parsing chunks of it in parallel and handing each line to `visit` in
/// file order (a damaged compressed stream's last, partial line is not handed on), then fails
/// as a loaded session would: damaged, empty, or without a readable rollout line; warns when
/// lines were skipped. Says which items it read.
pub(crate) fn stream_session(
    source: &Source,
    progress: &Progress,
    mut visit: impl FnMut(&StreamedLine<'_>),
) -> Result<ItemsSeen, Failure> {
    let first = stream_session_where(source, progress, &Passes::EVERY_LINE, |line| visit(line))?;
    warn_skipped(&source.name(), first.skipped, first.first_skipped.as_ref());
    Ok(first.seen)
}

/// [`stream_session`] for the first of two passes that need only some lines
/// ([`Passes::first`]): the others are passed over unparsed ([`StreamedLine::passed_over`])
/// unless the visitor reads them ([`StreamedLine::read_in_full`]). The checks stay those of
/// a loaded session: while no item was read, and for an unterminated last line, lines passed
/// over are read here; the unreadable lines among those passed over are counted and announced
/// by the later pass ([`stream_again_lines`], with the same `passes`).
pub(crate) fn stream_session_where(
    source: &Source,
    progress: &Progress,
    passes: &Passes<impl Fn(&[u8]) -> bool + Sync, impl Fn(&[u8]) -> bool + Sync>,
    mut visit: impl FnMut(&mut StreamedLine<'_>),
) -> Result<FirstPass, Failure> {
    let name = source.name();
    let stream = open_stream(source, progress)?;
    let mut checks = Checks {
        blank: true,
        ..Checks::default()
    };
    stream
        .for_each_line_parallel_where(&passes.first, |mut line| {
            if let Some(problem) = &line.problem
                && problem.kind == ProblemKind::Damaged
            {
                checks.damage = Some(problem.clone());
                return;
            }
            let read = !line.passed_over();
            if !read && (!checks.any_item || !line.terminated) {
                line.read_in_full();
            }
            visit(&mut line);
            checks.blank &= line.raw.iter().all(u8::is_ascii_whitespace);
            checks.lines = line.number;
            let item = line.line().is_some();
            checks.any_item |= item;
            if let Some(problem) = &line.problem
                && problem.kind.is_unreadable()
            {
                checks.all_skipped.0 += 1;
                checks.all_skipped.1.get_or_insert_with(|| problem.clone());
            }
            if !read {
                // Counted by the later pass, which reads every line this one passed over.
                if item || line.passed_over() {
                    checks.last_item_line = line.number;
                }
                return;
            }
            if let Some(problem) = &line.problem
                && problem.kind.is_unreadable()
            {
                checks.skipped += 1;
                checks.first_skipped.get_or_insert_with(|| problem.clone());
            }
            if item {
                // Read here, so the first pass's test took it: both read it if the later's does.
                checks.items += usize::from((passes.later)(line.raw));
                checks.last_item_line = line.number;
            }
        })
        .map_err(|err| unreadable(&name, &err))?;
    finish_checks(&name, &checks)?;
    Ok(FirstPass {
        seen: ItemsSeen {
            items: checks.items,
            last_line: checks.last_item_line,
        },
        lines: checks.lines,
        skipped: checks.skipped,
        first_skipped: checks.first_skipped,
    })
}

/// A later pass over a file [`stream_session`] read before (`seen`): hands `visit` each item
/// up to the last line the first pass read one from (its index among the items, the line,
/// the rollout line), in order, and stops at the first error `visit` returns. A session Codex
/// is still appending to is read as it was at the first pass; a file whose items changed in
/// between is an error ("changed while it was `done`; `redo` it again").
pub(crate) fn stream_again(
    source: &Source,
    label: &str,
    seen: ItemsSeen,
    (done, redo): (&str, &str),
    visit: impl FnMut(usize, &StreamedLine<'_>, &RolloutLine) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let first = FirstPass {
        seen,
        ..FirstPass::default()
    };
    stream_again_where(
        source,
        label,
        &first,
        &Passes::EVERY_LINE,
        (done, redo),
        visit,
    )
}

/// [`stream_again`] after a first pass that passed over lines ([`stream_session_where`]):
/// hands `visit` each item the later pass reads, with its index among them.
pub(crate) fn stream_again_where(
    source: &Source,
    label: &str,
    first: &FirstPass,
    passes: &Passes<impl Fn(&[u8]) -> bool + Sync, impl Fn(&[u8]) -> bool + Sync>,
    (done, redo): (&str, &str),
    mut visit: impl FnMut(usize, &StreamedLine<'_>, &RolloutLine) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let mut items = 0;
    stream_again_lines(source, label, first, passes, (done, redo), |line| {
        let Some(rollout_line) = line.line() else {
            return Ok(());
        };
        let visited = visit(items, line, rollout_line);
        items += 1;
        visited
    })
}

/// The later pass of [`Passes`] after [`stream_session_where`]: hands `visit` every line up
/// to the last the first pass read an item from, in order (those it passes over unparsed,
/// and unreadable ones, too), and stops at the first error `visit` returns. The items of the
/// lines both passes read are checked against the first pass; the unreadable lines are
/// announced once, those of both passes together, as [`stream_session`] announces them.
pub(crate) fn stream_again_lines(
    source: &Source,
    label: &str,
    first: &FirstPass,
    passes: &Passes<impl Fn(&[u8]) -> bool + Sync, impl Fn(&[u8]) -> bool + Sync>,
    (done, redo): (&str, &str),
    mut visit: impl FnMut(&StreamedLine<'_>) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let name = source.name();
    let seen = first.seen;
    let progress = Progress::for_bytes(source_size(source), label);
    let stream = open_stream(source, &progress)?;
    let mut both_items = 0;
    let mut skipped = first.skipped;
    let mut first_skipped = first.first_skipped.clone();
    let mut failed = None;
    let reads = |raw: &[u8]| passes.later_reads(raw);
    stream
        .for_each_line_parallel_where(reads, |line| {
            let first_read = passes.first_reads(line.raw);
            let first_passed_over = line.number <= first.lines && !first_read;
            if first_passed_over
                && let Some(problem) = &line.problem
                && problem.kind.is_unreadable()
            {
                skipped += 1;
                if first_skipped
                    .as_ref()
                    .is_none_or(|first| first.line > problem.line)
                {
                    first_skipped = Some(problem.clone());
                }
            }
            if failed.is_some() || line.number > seen.last_line {
                return;
            }
            if line.line().is_some() && first_read && (passes.later)(line.raw) {
                both_items += 1;
            }
            if let Err(err) = visit(&line) {
                failed = Some(err);
            }
        })
        .map_err(|err| unreadable(&name, &err))?;
    if let Some(err) = failed {
        return Err(err);
    }
    if both_items != seen.items {
        return Err(Failure::Content(format!(
            "{name} changed while it was {done} ({} item(s) at first, {both_items} now); \
             {redo} it again",
            seen.items
        )));
    }
    warn_skipped(&name, skipped, first_skipped.as_ref());
    Ok(())
}

/// Announces the unreadable lines a read skipped, when there were any.
fn warn_skipped(name: &str, skipped: usize, first: Option<&LineProblem>) {
    if let Some(first) = first {
        warn(&format!(
            "{name}: {skipped} unreadable line(s) ignored (first: {first}); `codex-thread \
             validate` lists them"
        ));
    }
}

fn finish_checks(name: &str, checks: &Checks) -> Result<(), Failure> {
    if let Some(damage) = &checks.damage {
        return Err(Failure::Content(format!(
            "{name} is damaged: {}; the {} complete line(s) before the damage were read, the \
             rest is lost (`codex-thread validate` lists the lines' problems)",
            damage.message, checks.lines
        )));
    }
    if checks.blank {
        return Err(Failure::Content(format!(
            "{name} is empty: it holds no rollout lines"
        )));
    }
    if !checks.any_item {
        let (skipped, first) = &checks.all_skipped;
        let first = first
            .as_ref()
            .map(|problem| format!("; first: {problem}"))
            .unwrap_or_default();
        return Err(Failure::Content(format!(
            "{name}: no line could be read as a rollout line ({} line(s), {} problem(s){first})",
            checks.lines, skipped,
        )));
    }
    Ok(())
}
