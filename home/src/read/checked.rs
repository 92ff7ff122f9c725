//! The one forward reader's lines of a [`SessionInput`], checked as a loaded session is
//! checked: a damaged compressed stream, an empty input and an input without one readable line
//! are errors naming it, once the stream has ended; the lines it skipped are told to the
//! input. The lines are classified by codex-rollout's [`RolloutStream`], which asks the
//! whole-file loader's own line rule, so a streamed file reports the same items, problems and
//! line numbers as a loaded one. A reading of two passes holds its later pass to what the first
//! saw ([`stream_again`]): a file that changed in between is an error, not a second answer.

use std::io::Read;

use codex_protocol::rollout::RolloutLine;
use codex_rollout::{LineProblem, ProblemKind, RolloutStream, StreamedLine};

use super::{ReadError, SessionInput, SkippedLines};

/// `input` opened as a stream (a later pass's when `again` names it).
fn open_stream<'a>(
    input: &'a dyn SessionInput,
    again: Option<&str>,
) -> Result<RolloutStream<Box<dyn Read + 'a>>, ReadError> {
    let unreadable = |source| ReadError::Io {
        name: input.name(),
        source,
    };
    let reader = input.open(again).map_err(unreadable)?;
    RolloutStream::new(reader).map_err(unreadable)
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
pub struct ItemsSeen {
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
pub struct Passes<F, L> {
    /// Whether the first pass parses a line.
    pub first: F,
    /// Whether the later pass parses a line (it also parses every line the first passed over).
    pub later: L,
}

/// A byte-level test of a raw line: whether a pass parses it.
pub type LineTest = fn(&[u8]) -> bool;

/// The test of a pass that reads every line.
pub fn every_line(_raw: &[u8]) -> bool {
    true
}

impl Passes<LineTest, LineTest> {
    /// Two passes that both read every line.
    pub const EVERY_LINE: Self = Passes {
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
pub struct FirstPass {
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
pub fn stream_session(
    input: &dyn SessionInput,
    mut visit: impl FnMut(&StreamedLine<'_>),
) -> Result<ItemsSeen, ReadError> {
    let first = stream_session_where(input, &Passes::EVERY_LINE, |line| visit(line))?;
    tell_skipped(input, first.skipped, first.first_skipped);
    Ok(first.seen)
}

/// [`stream_session`] for the first of two passes that need only some lines
/// ([`Passes::first`]): the others are passed over unparsed ([`StreamedLine::passed_over`])
/// unless the visitor reads them ([`StreamedLine::read_in_full`]). The checks stay those of
/// a loaded session: while no item was read, and for an unterminated last line, lines passed
/// over are read here; the unreadable lines among those passed over are counted and announced
/// by the later pass ([`stream_again_lines`], with the same `passes`).
pub fn stream_session_where(
    input: &dyn SessionInput,
    passes: &Passes<impl Fn(&[u8]) -> bool + Sync, impl Fn(&[u8]) -> bool + Sync>,
    mut visit: impl FnMut(&mut StreamedLine<'_>),
) -> Result<FirstPass, ReadError> {
    let stream = open_stream(input, None)?;
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
        .map_err(|source| ReadError::Io {
            name: input.name(),
            source,
        })?;
    finish_checks(&input.name(), &checks)?;
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
pub fn stream_again<E: From<ReadError>>(
    input: &dyn SessionInput,
    label: &str,
    seen: ItemsSeen,
    (done, redo): (&str, &str),
    visit: impl FnMut(usize, &StreamedLine<'_>, &RolloutLine) -> Result<(), E>,
) -> Result<(), E> {
    let first = FirstPass {
        seen,
        ..FirstPass::default()
    };
    stream_again_where(
        input,
        label,
        &first,
        &Passes::EVERY_LINE,
        (done, redo),
        visit,
    )
}

/// [`stream_again`] after a first pass that passed over lines ([`stream_session_where`]):
/// hands `visit` each item the later pass reads, with its index among them.
pub fn stream_again_where<E: From<ReadError>>(
    input: &dyn SessionInput,
    label: &str,
    first: &FirstPass,
    passes: &Passes<impl Fn(&[u8]) -> bool + Sync, impl Fn(&[u8]) -> bool + Sync>,
    (done, redo): (&str, &str),
    mut visit: impl FnMut(usize, &StreamedLine<'_>, &RolloutLine) -> Result<(), E>,
) -> Result<(), E> {
    let mut items = 0;
    stream_again_lines(input, label, first, passes, (done, redo), |line| {
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
pub fn stream_again_lines<E: From<ReadError>>(
    input: &dyn SessionInput,
    label: &str,
    first: &FirstPass,
    passes: &Passes<impl Fn(&[u8]) -> bool + Sync, impl Fn(&[u8]) -> bool + Sync>,
    (done, redo): (&str, &str),
    mut visit: impl FnMut(&StreamedLine<'_>) -> Result<(), E>,
) -> Result<(), E> {
    let seen = first.seen;
    let stream = open_stream(input, Some(label))?;
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
        .map_err(|source| ReadError::Io {
            name: input.name(),
            source,
        })?;
    if let Some(err) = failed {
        return Err(err);
    }
    if both_items != seen.items {
        return Err(ReadError::Changed {
            name: input.name(),
            done: done.to_owned(),
            redo: redo.to_owned(),
            before: seen.items,
            now: both_items,
        }
        .into());
    }
    tell_skipped(input, skipped, first_skipped);
    Ok(())
}

/// Tells `input` of the unreadable lines a read skipped, when there were any.
fn tell_skipped(input: &dyn SessionInput, count: usize, first: Option<LineProblem>) {
    if let Some(first) = first {
        input.skipped(&SkippedLines { count, first });
    }
}

fn finish_checks(name: &str, checks: &Checks) -> Result<(), ReadError> {
    if let Some(damage) = &checks.damage {
        return Err(ReadError::Damaged {
            name: name.to_owned(),
            message: damage.message.clone(),
            lines: checks.lines,
        });
    }
    if checks.blank {
        return Err(ReadError::Empty {
            name: name.to_owned(),
        });
    }
    if !checks.any_item {
        let (problems, first) = &checks.all_skipped;
        return Err(ReadError::NoRolloutLine {
            name: name.to_owned(),
            lines: checks.lines,
            problems: *problems,
            first: first.clone(),
        });
    }
    Ok(())
}
