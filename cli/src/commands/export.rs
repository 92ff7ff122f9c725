//! `codex-thread export [FILE] --format markdown|html [-o OUT] [--redact]`: a transcript of
//! the session to read and share.
//!
//! One model, two renderers: `transcript` builds the turns (from codex-rollout's turn index
//! and codex-protocol's call matching), `markdown` and `html` lay them out, and
//! `redact` masks what people hide before sharing, on the model, so both formats (and
//! `--json`, which prints the model itself) get the same masking.
//!
//! Streamed: `read` passes over the file more than once, `transcript` builds it one part
//! (the preamble, a turn) at a time, and `document` writes each part as soon as it is
//! finished; the whole transcript is never held.

mod document;
mod excerpt;
mod facts;
mod html;
mod markdown;
mod read;
mod redact;
mod transcript;

pub(crate) use redact::{RedactTranscript, RedactionReport, Redactor};
pub(crate) use transcript::{FileIndex, Part, Transcript, TranscriptBuilder};

use std::path::PathBuf;

use crate::cli::ExportFormat;
use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, Spool, note};
use document::{Layout, Target};
use facts::Overview;
use read::{Outputs, Reader, Replayed};

/// What `export` was asked for.
#[derive(Debug, Clone, Default)]
pub(crate) struct ExportOptions {
    pub format: ExportFormat,
    /// Write here instead of standard output.
    pub output: Option<PathBuf>,
    /// Mask the built-in patterns (and `patterns`).
    pub redact: bool,
    /// Extra regexes to mask (imply `redact`).
    pub patterns: Vec<String>,
}

/// Runs `export`: a first pass indexes the file; a second builds the transcript part by part
/// and writes each part as soon as it is finished. When the header needs every turn
/// (Markdown, HTML), the rendered parts wait in a temporary file ([`Spool`]) until the
/// header is written. Memory is the longest line plus the turn index and the parts still
/// being built, not the file.
pub(crate) fn run(source: &Source, options: &ExportOptions, out: &mut Output) -> CommandResult {
    let redactor = if options.redact || !options.patterns.is_empty() {
        let hostname = codex_home::local_hostname();
        let redactor = Redactor::new(hostname.as_deref(), &options.patterns)
            .map_err(|err| Failure::Usage(err.to_string()))?;
        Some(redactor)
    } else {
        None
    };
    let mut layout = Layout::of(options.format, out.is_json());
    if layout.needs_overview() {
        let mut target = Target::open(source, options.output.as_deref(), out)?;
        let made = make_with_overview(source, options, redactor.as_ref(), &mut target);
        let path = target.finish(made.is_err())?;
        if let Some(summary) = made? {
            note(&format!("redacted: {summary}"));
        }
        if let Some(path) = path {
            note(&format!("wrote {}", path.display()));
        }
        return Ok(Status::Ok);
    }
    // Written as it is built: nothing can be made again, so outputs are parsed from the start.
    let mut reader = Reader::open(source, Outputs::Parsed);
    let index = reader.index()?;
    let (head, mut report) = redacted_head(&index, redactor.as_ref());
    let mut target = Target::open(source, options.output.as_deref(), out)?;
    let overview = Overview::default();
    let mut written = layout
        .head(&head, &overview, None)
        .and_then(|piece| target.write(&piece));
    if written.is_ok() {
        written = each_part(&reader, &index, |mut part| {
            redact_part(redactor.as_ref(), &mut part, report.as_mut());
            target.write(&layout.part(&part)?)
        })
        .map(|_| ());
    }
    if written.is_ok() {
        written = target.write(&layout.tail(&head));
    }
    let path = target.finish(written.is_err())?;
    written?;
    if let Some(report) = &report {
        note(&format!("redacted: {}", report.summary()));
    }
    if let Some(path) = path {
        note(&format!("wrote {}", path.display()));
    }
    Ok(Status::Ok)
}

/// The header's transcript of `index`, masked when redacting, and the report that counts the
/// masking from it on.
fn redacted_head(
    index: &FileIndex,
    redactor: Option<&Redactor>,
) -> (Transcript, Option<RedactionReport>) {
    let mut head = index.head.clone();
    let mut report = redactor.map(Redactor::report);
    if let (Some(redactor), Some(report)) = (redactor, &mut report) {
        redactor.redact_head(&mut head, report);
    }
    (head, report)
}

/// The Markdown and HTML exports into `target`: tool outputs are first read by their call
/// ids; if one of them turns out not to parse, what was built is dropped and the file read
/// again parsing them ([`Outputs`]). The summary of what `--redact` masked, when redacting.
fn make_with_overview(
    source: &Source,
    options: &ExportOptions,
    redactor: Option<&Redactor>,
    target: &mut Target<'_>,
) -> Result<Option<String>, Failure> {
    for outputs in [Outputs::ByCallId, Outputs::Parsed] {
        let mut reader = Reader::open(source, outputs);
        let index = reader.index()?;
        let (head, report) = redacted_head(&index, redactor);
        let made = run_with_overview(
            options,
            target,
            (&reader, &index),
            &head,
            (redactor, report),
        );
        if let Some(summary) = made? {
            return Ok(summary);
        }
    }
    Err(Failure::Content(format!(
        "{}: a tool output could not be read twice the same way",
        source.name()
    )))
}

/// The Markdown and HTML exports, whose header counts every turn: one pass builds each part,
/// counts it into the [`Overview`] and renders it into a [`Spool`] of `target`'s (and
/// HTML's table of contents row into another); then the header is written, the table of
/// contents, the spooled body after it, and the ending. The parts are rendered on a thread
/// of their own ([`Rendered::of_parts`]) while the next ones are built, a few groups of parts
/// in flight at most ([`PartGroup`]). `None` when the file must be read again
/// ([`Replayed::OutputUnreadable`]; nothing was written), else the summary of what was
/// masked, when redacting.
fn run_with_overview(
    options: &ExportOptions,
    target: &mut Target<'_>,
    (reader, index): (&Reader, &FileIndex),
    head: &Transcript,
    (redactor, mut report): (Option<&Redactor>, Option<RedactionReport>),
) -> Result<Option<Option<String>>, Failure> {
    // Not `--json`: only the Markdown and HTML layouts have an overview.
    let layout = Layout::of(options.format, false);
    let body = target.spool()?;
    let contents = match layout.lists_turns() {
        true => Some(target.spool()?),
        false => None,
    };
    let rendered = std::thread::scope(|scope| {
        let (parts, received) = std::sync::mpsc::sync_channel::<Vec<Part>>(GROUPS_IN_FLIGHT);
        let renderer = scope.spawn(move || Rendered::of_parts(layout, received, body, contents));
        // A closed channel means the renderer failed: its error is the one to report.
        let send = |group| {
            parts
                .send(group)
                .map_err(|_| Failure::Content("rendering stopped".to_string()))
        };
        let mut group = PartGroup::default();
        let mut built = each_part(reader, index, |mut part| {
            redact_part(redactor, &mut part, report.as_mut());
            match group.add(part) {
                Some(full) => send(full),
                None => Ok(()),
            }
        });
        if matches!(built, Ok(Replayed::Done)) && !group.parts.is_empty() {
            built = send(group.parts).map(|()| Replayed::Done);
        }
        drop(parts);
        let rendered = renderer
            .join()
            .map_err(|_| Failure::Content("the rendering thread panicked".to_string()))?;
        if built? == Replayed::OutputUnreadable {
            return Ok(None);
        }
        rendered.map(Some)
    })?;
    let Some(Rendered {
        layout,
        overview,
        body,
        contents,
    }) = rendered
    else {
        return Ok(None);
    };
    let summary = report.as_ref().map(RedactionReport::summary);
    target.write(&layout.head(head, &overview, summary.as_deref())?)?;
    if let Some((start, end)) = layout.contents(&overview) {
        target.write(&start)?;
        if let Some(rows) = contents {
            target.append(rows)?;
        }
        target.write(end)?;
    }
    target.append(body)?;
    target.write(&layout.tail(head))?;
    Ok(Some(summary))
}

/// Builds the transcript of `reader` part by part, handing each to `visit` once finished
/// (to redact and use, then drop); stops when the reader's later pass does
/// ([`Replayed::OutputUnreadable`]: what was handed on is wrong).
fn each_part(
    reader: &Reader,
    index: &FileIndex,
    mut visit: impl FnMut(Part) -> Result<(), Failure>,
) -> Result<Replayed, Failure> {
    let mut builder = TranscriptBuilder::new(index);
    let replayed = reader.replay(|position, item, raw| {
        match item {
            Some(item) => builder.push(position, item, raw),
            None => builder.pass(position, raw),
        }
        for part in builder.take_ready() {
            visit(part)?;
        }
        Ok(())
    })?;
    if replayed == Replayed::OutputUnreadable {
        return Ok(replayed);
    }
    builder.finish();
    for part in builder.take_ready() {
        visit(part)?;
    }
    Ok(Replayed::Done)
}

/// Groups of parts built but not yet rendered, at most: the builder runs ahead of the
/// renderer by this many groups ([`PartGroup`]), no more.
const GROUPS_IN_FLIGHT: usize = 4;

/// Parts on their way to the renderer, handed over together once there are
/// [`PartGroup::PARTS`] of them or they hold [`PartGroup::BYTES`] of text. Why groups: handed
/// over one at a time (a turn each), the rendering thread slept and was woken once per turn,
/// and on two cores those wake-ups cost more than a tenth of an HTML export's time. The
/// byte bound keeps what waits small whatever the turns hold: at most
/// [`GROUPS_IN_FLIGHT`] groups, each under [`PartGroup::BYTES`] but for its last part.
#[derive(Default)]
struct PartGroup {
    parts: Vec<Part>,
    bytes: usize,
}

impl PartGroup {
    const PARTS: usize = 16;
    const BYTES: usize = 1 << 20;

    /// Adds `part`; the group to hand over when it is full.
    fn add(&mut self, mut part: Part) -> Option<Vec<Part>> {
        self.bytes += part.text_bytes();
        self.parts.push(part);
        if self.parts.len() < Self::PARTS && self.bytes < Self::BYTES {
            return None;
        }
        self.bytes = 0;
        Some(std::mem::take(&mut self.parts))
    }
}

/// What the rendering of every part left: the layout (for the header), the overview the
/// header shows, the rendered body and HTML's table of contents rows.
struct Rendered {
    layout: Layout,
    overview: Overview,
    body: Spool,
    contents: Option<Spool>,
}

impl Rendered {
    /// Renders each part of the groups `parts` gives, in order, until the builder hangs up,
    /// into `body` (and the table of contents' rows into `contents`, for a layout that lists
    /// the turns).
    fn of_parts(
        mut layout: Layout,
        parts: std::sync::mpsc::Receiver<Vec<Part>>,
        mut body: Spool,
        mut contents: Option<Spool>,
    ) -> Result<Self, Failure> {
        let mut overview = Overview::default();
        for part in parts.into_iter().flatten() {
            overview.add(&part);
            if let (Some(row), Some(rows)) = (layout.contents_row(&part), &mut contents) {
                rows.push(&row)?;
            }
            body.push(&layout.part(&part)?)?;
        }
        Ok(Self {
            layout,
            overview,
            body,
            contents,
        })
    }
}

/// Masks one part with `redactor`, counting into `report`, when redacting.
fn redact_part(redactor: Option<&Redactor>, part: &mut Part, report: Option<&mut RedactionReport>) {
    let (Some(redactor), Some(report)) = (redactor, report) else {
        return;
    };
    let entries = match part {
        Part::Preamble(entries) => entries,
        Part::Turn(turn) => &mut turn.entries,
    };
    redactor.redact_entries(entries, report);
}

#[cfg(test)]
mod tests {
    use super::transcript::{Entry, EntryKind};
    use super::*;

    fn note(bytes: usize) -> Part {
        Part::Preamble(vec![Entry {
            at: None,
            kind: EntryKind::Note {
                text: "x".repeat(bytes),
            },
        }])
    }

    #[test]
    fn parts_are_handed_over_in_groups_bounded_by_count_and_bytes() {
        let mut group = PartGroup::default();
        let sizes = (0..PartGroup::PARTS - 1).map(|_| 10);
        assert!(
            sizes
                .map(|size| group.add(note(size)))
                .all(|full| full.is_none())
        );
        let full = group.add(note(10)).map(|parts| parts.len());
        assert_eq!(
            full,
            Some(PartGroup::PARTS),
            "a group of as many parts as it holds"
        );
        assert!(group.parts.is_empty() && group.bytes == 0);

        assert!(group.add(note(PartGroup::BYTES / 2)).is_none());
        let full = group
            .add(note(PartGroup::BYTES / 2))
            .map(|parts| parts.len());
        assert_eq!(full, Some(2), "a group of a megabyte of text");
        let full = group
            .add(note(3 * PartGroup::BYTES))
            .map(|parts| parts.len());
        assert_eq!(full, Some(1), "one large part goes alone");
    }
}
