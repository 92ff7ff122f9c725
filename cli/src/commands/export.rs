//! `codex-thread export [FILE] --format markdown|html [-o OUT] [--redact]`: a transcript of
//! the session to read and share.
//!
//! One model, the one every view shows: the thread's complete transcript (app-server-protocol's
//! `TranscriptMode::Complete`, what `thread` and `view` show), each turn as the cells of the
//! transcript model (`Transcript::replay_turn`, [`shown`]). `markdown` and `html` lay the
//! cells out; `--json` writes the thread itself, as `thread --json --complete` does;
//! `--redact` masks what people hide before sharing (codex-home's `Redactor`, every string of
//! the thread and its turns), so every format gets the same masking.
//!
//! Streamed: the thread is read in two passes (`PlannedThread`): the first learns the thread
//! without its items and when each turn is final, the second hands each turn on as soon as it
//! is, and it is written and dropped. The whole thread is never held.

mod document;
mod excerpt;
mod facts;
mod html;
mod image;
mod markdown;
mod shown;

use std::path::PathBuf;

use codex_app_server_protocol::transcript::ThreadFacts;
use codex_app_server_protocol::v2::Turn;
use codex_app_server_protocol::{BuiltThread, TranscriptMode};
use codex_home::{
    LeftOpen, RedactionReport, Redactor, SessionInput, TwoPassThread, describe_thread_file,
};

use crate::cli::ExportFormat;
use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, note};
use crate::progress::Progress;
use crate::streamed::{SourceInput, source_size};
use document::{Layout, Target};
use facts::{Header, Overview};
use shown::shown_cells;

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
    /// The home that resolves a history base and names the thread.
    pub home: Option<PathBuf>,
}

/// Runs `export`: the first pass reads the thread's header; the second builds its turns and
/// writes each as soon as it is final. When the header needs every turn (Markdown, HTML),
/// the rendered turns wait in a temporary file (a spool of `Target`'s) until the header is
/// written. Memory is the longest line plus the turns not yet final, not the file.
pub(crate) fn run(source: &Source, options: &ExportOptions, out: &mut Output) -> CommandResult {
    let mut redaction = match options.redact || !options.patterns.is_empty() {
        true => {
            let redactor = Redactor::for_this_machine(&options.patterns)
                .map_err(|err| Failure::Usage(err.to_string()))?;
            let report = redactor.report();
            Some((redactor, report))
        }
        false => None,
    };
    let progress = Progress::for_bytes(source_size(source), "indexing");
    let input = SourceInput::new(source, &progress);
    let mut planned = TwoPassThread::read(&input, options.home.as_deref())?;
    let facts = std::mem::take(&mut planned.facts);
    let mut thread = planned.take_header();
    if let Some(path) = input.file() {
        describe_thread_file(&mut thread, path, options.home.as_deref())?;
    }
    let mut header = Header {
        thread,
        tokens: facts.total_tokens(),
    };
    if let (Some((redactor, report)), BuiltThread::Thread(thread)) =
        (&mut redaction, &mut header.thread)
    {
        redact(redactor, &mut **thread, report)?;
    }
    let mut layout = Layout::of(options.format, out.is_json());
    let mut target = Target::open(source, options.output.as_deref(), out)?;
    let written = match layout.needs_overview() {
        true => with_overview(
            (planned, &input),
            (&mut layout, &facts),
            &header,
            &mut redaction,
            &mut target,
        ),
        false => in_order(
            (planned, &input),
            &mut layout,
            &header,
            &mut redaction,
            &mut target,
        ),
    };
    let path = target.finish(written.is_err())?;
    written?;
    if let Some((_, report)) = &redaction {
        note(&format!("redacted: {}", report.summary()));
    }
    if let Some(path) = path {
        note(&format!("wrote {}", path.display()));
    }
    Ok(Status::Ok)
}

/// What an export shows: the complete transcript, a turn the file leaves open as a thread
/// shows it.
const COMPLETE: (TranscriptMode, LeftOpen) = (TranscriptMode::Complete, LeftOpen::Interrupted);

/// What `--redact` masks with, and what it masked so far.
type Redaction = Option<(Redactor, RedactionReport)>;

/// Masks `turn` when redacting.
fn redacted(mut turn: Turn, redaction: &mut Redaction) -> Result<Turn, Failure> {
    if let Some((redactor, report)) = redaction {
        redact(redactor, &mut turn, report)?;
    }
    Ok(turn)
}

/// Masks every string of `value` but the protocol's words (`Redactor::mask_serialized`).
fn redact<T>(
    redactor: &Redactor,
    value: &mut T,
    report: &mut RedactionReport,
) -> Result<(), Failure>
where
    T: serde::Serialize + serde::de::DeserializeOwned,
{
    redactor.mask_serialized(value, report).map_err(|error| {
        Failure::Content(format!("a redacted item no longer reads as one: {error}"))
    })
}

/// The JSON export: the header, then each turn as it is final, then the end.
fn in_order(
    (planned, input): (TwoPassThread, &dyn SessionInput),
    layout: &mut Layout,
    header: &Header,
    redaction: &mut Redaction,
    target: &mut Target<'_>,
) -> Result<(), Failure> {
    target.write(&layout.head(header, &Overview::default(), None)?)?;
    let mut number = 0;
    planned.turns(input, COMPLETE, "exporting", |turn| {
        let turn = redacted(turn, redaction)?;
        number += 1;
        target.write(&layout.turn(number, &turn, &[])?)
    })?;
    target.write(&layout.tail())
}

/// The Markdown and HTML exports, whose header counts every turn: each turn is rendered into
/// a spool of `target`'s (and HTML's table of contents row into another) as it is final;
/// then the header is written, the table of contents, the spooled body, and the ending.
fn with_overview(
    (planned, input): (TwoPassThread, &dyn SessionInput),
    (layout, facts): (&mut Layout, &ThreadFacts),
    header: &Header,
    redaction: &mut Redaction,
    target: &mut Target<'_>,
) -> Result<(), Failure> {
    let mut body = target.spool()?;
    let mut contents = match layout.lists_turns() {
        true => Some(target.spool()?),
        false => None,
    };
    let mut overview = Overview::default();
    planned.turns(input, COMPLETE, "exporting", |turn| {
        let turn = redacted(turn, redaction)?;
        let shown = shown_cells(&turn, facts);
        overview.add(&turn, &shown);
        let number = overview.turns;
        if let Some(rows) = &mut contents {
            rows.push(&layout.contents_row(number, &turn, &shown))?;
        }
        body.push(&layout.turn(number, &turn, &shown)?)
    })?;
    let summary = redaction.as_ref().map(|(_, report)| report.summary());
    target.write(&layout.head(header, &overview, summary.as_deref())?)?;
    if let Some((start, end)) = layout.contents(&overview) {
        target.write(&start)?;
        if let Some(rows) = contents {
            target.append(rows)?;
        }
        target.write(end)?;
    }
    target.append(body)?;
    target.write(&layout.tail())
}
