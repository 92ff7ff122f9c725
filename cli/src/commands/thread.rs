//! `codex-thread thread [FILE] [--last N] [--complete]`: the turns and their items as a
//! client sees them on resume.
//!
//! The text shows the complete transcript (app-server-protocol's `TranscriptMode::Complete`:
//! Codex's items plus every call the file records); `--json` answers what Codex's
//! `thread/read` answers, or the complete transcript with `--complete`.
//!
//! The thread is app-server-protocol's own reconstruction from the rollout items
//! (`ThreadBuilder`, the incremental `thread_from_rollout_items`): identity from the first
//! session meta, turns from the persisted events. The items are codex-rollout's client view
//! (`ClientView`, the incremental `client_view_items`): for a file that recorded no client
//! view of its turns (the pre-envelope format, files filtered by hand) they include the item
//! events a replay rebuilds, so `thread` shows the turns `notifications` does.
//!
//! A file (plain or `.zst`; standard input and the sample are spooled into one) is read as a
//! stream, twice (codex-home's `TwoPassThread`): the first pass learns the thread without its items and
//! when each turn is final, the second builds the items and writes each turn as soon as it is
//! final, so memory is the turns not yet final, not the thread nor the file. When the client
//! view finds at the end of a pass that it was built by a rule the whole file contradicts
//! (`ViewRuleChanged`: a file's first turn record after its first 512 items), the file is
//! streamed again with the rule known. With `--json` it is the
//! `Thread` object of the protocol (validating against the generated schema); a file without
//! session meta gives `{"turns": [...]}` only. `--last N` keeps the last N turns of that
//! thread; for a paginated file it reads them from the end (`codex_home::last_turns_from_end`),
//! so it costs those turns, not the file, unless telling them needs the whole file.

use codex_app_server_protocol::{BuiltThread, TranscriptMode};
use codex_home::{LeftOpen, SessionInput, TwoPassThread, describe_thread_file};
use std::path::PathBuf;

use codex_app_server_protocol::transcript::{CellBody, cell_for_item};
use codex_app_server_protocol::v2::{ThreadItem, Turn};

use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, ThreadJson, one_line, status_word, thread_json_head, thread_title};
use crate::progress::Progress;
use crate::streamed::{SourceInput, source_size};

/// Runs `thread`: the whole thread, or its last `last` turns; `complete` asks the JSON for
/// the complete transcript (the text always shows it).
pub(crate) fn run(
    source: &Source,
    last: Option<usize>,
    home: Option<PathBuf>,
    complete: bool,
    out: &mut Output,
) -> CommandResult {
    if last == Some(0) {
        return Err(Failure::Usage(
            "--last must be at least 1 (turns to show)".to_string(),
        ));
    }
    let mode = if complete || !out.is_json() {
        TranscriptMode::Complete
    } else {
        TranscriptMode::Codex
    };
    if last.is_none() {
        return streamed(source, home, mode, out);
    }
    let progress = Progress::for_bytes(source_size(source), "reading");
    let built = codex_home::read_thread(
        &SourceInput::new(source, &progress),
        home.as_deref(),
        mode,
        last,
    )?;
    if out.is_json() {
        match &built {
            BuiltThread::Thread(thread) => out.json_line(thread)?,
            BuiltThread::TurnsOnly(turns) => {
                /// A file without session meta: its turns alone, each as a thread writes it.
                #[derive(serde::Serialize)]
                struct TurnsOnly<'a> {
                    turns: &'a [Turn],
                }
                out.json_line(&TurnsOnly { turns })?;
            }
        }
        return Ok(Status::Ok);
    }
    header_lines(&built, built.turns().len(), out)?;
    for (index, turn) in built.turns().iter().enumerate() {
        render_turn(index + 1, turn, out)?;
    }
    Ok(Status::Ok)
}

/// The whole thread, each turn written as soon as it is final: a first pass learns the
/// thread and when its turns are final, a second builds them (codex-home's [`TwoPassThread`]), so memory
/// is a turn's, not the thread's. The JSON is the thread's own serialization, written a turn
/// at a time.
fn streamed(
    source: &Source,
    home: Option<PathBuf>,
    mode: TranscriptMode,
    out: &mut Output,
) -> CommandResult {
    let progress = Progress::for_bytes(source_size(source), "reading");
    let input = SourceInput::new(source, &progress);
    let mut planned = TwoPassThread::read(&input, home.as_deref())?;
    if let Some(path) = input.file() {
        describe_thread_file(&mut planned.header, path, home.as_deref())?;
    }
    let turns = planned.turns;
    let header = planned.take_header();
    let mut number = 0;
    if out.is_json() {
        out.json_text(&thread_json_head(&header)?)?;
        let mut json = ThreadJson::default();
        planned.turns(&input, (mode, LeftOpen::Interrupted), "reading", |turn| {
            out.json_text(&json.turn(&turn)?)
        })?;
        out.json_text(ThreadJson::TAIL)?;
        return Ok(Status::Ok);
    }
    header_lines(&header, turns, out)?;
    planned.turns(&input, (mode, LeftOpen::Interrupted), "reading", |turn| {
        number += 1;
        render_turn(number, &turn, out)
    })?;
    Ok(Status::Ok)
}

/// The text's first lines: the thread's id and turn count, then its name and source.
fn header_lines(built: &BuiltThread, turns: usize, out: &mut Output) -> Result<(), Failure> {
    out.line(&format!("thread {}: {turns} turn(s)", thread_title(built)))?;
    if let BuiltThread::Thread(thread) = built {
        // Its name and, for a thread a sub-agent or tool started, its source, on a line of
        // their own.
        let mut about = String::new();
        if let Some(name) = &thread.name {
            about.push_str(&format!("  \"{name}\""));
        }
        let parent = thread.parent_thread_id.as_deref();
        about.push_str(&crate::output::source_tag(thread.source.kind(), parent));
        if !about.is_empty() {
            out.line(&one_line(&about, 78))?;
        }
    }
    Ok(())
}

fn render_turn(number: usize, turn: &Turn, out: &mut Output) -> Result<(), Failure> {
    let status = status_word(turn.status);
    let duration = match (turn.started_at, turn.completed_at) {
        (Some(start), Some(end)) if end >= start => format!(", {}s", end - start),
        _ => String::new(),
    };
    out.line("")?;
    out.line(&one_line(
        &format!(
            "turn {number} ({status}{duration}, {} item(s)) {}",
            turn.items.len(),
            turn.id
        ),
        78,
    ))?;
    if let Some(error) = &turn.error {
        out.line(&one_line(&format!("  error: {}", error.message), 78))?;
    }
    for item in &turn.items {
        let (label, text) = describe(&turn.id, item);
        out.line(&format!("  {label:<11}{}", one_line(&text, 65)))?;
    }
    Ok(())
}

/// A short label and one line of text for an item: its transcript cell (app-server-protocol's
/// `cell_for_item`, the cell `view` and `export` show), said on one line.
fn describe(turn_id: &str, item: &ThreadItem) -> (&'static str, String) {
    let joined = |parts: Vec<String>| parts.join(" ");
    match cell_for_item(turn_id, item).body {
        CellBody::User { text, attachments } => {
            ("user", joined([vec![text], attachments].concat()))
        }
        CellBody::Agent { markdown } => ("agent", markdown),
        CellBody::Reasoning { paragraphs } => ("reasoning", joined(paragraphs)),
        CellBody::Plan { text } => ("plan", text),
        CellBody::Command {
            command,
            status,
            exit_code,
            ..
        } => {
            let exit = exit_code.map(|code| format!(", exit {code}"));
            (
                "command",
                format!("{command} ({status}{})", exit.unwrap_or_default()),
            )
        }
        CellBody::FileChange { status, files } => {
            let paths = files.into_iter().map(|file| file.path).collect();
            ("patch", format!("{} ({status})", joined(paths)))
        }
        CellBody::Tool {
            kind,
            title,
            status,
            ..
        } => (kind, format!("{title} ({status})")),
        CellBody::Marker { text } => ("marker", text),
        CellBody::TurnEnd { status, .. } => ("turn end", status_word(status).to_owned()),
    }
}
