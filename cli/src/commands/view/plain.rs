//! The rendering without a terminal: `view` piped, `TERM=dumb` or `--plain`. The same cells
//! and lines as the full-screen UI, each cell followed by a blank line, folded as the UI
//! first shows them (`--expand` unfolds all), the status line last.
//!
//! `--follow` prints the header, then each history cell once it is stable, as the file grows,
//! until it is stopped: what it has printed when the session ends is the plain rendering of
//! the finished file without its status line.

use std::path::Path;
use std::time::Duration;

use codex_app_server_protocol::TranscriptMode;
use codex_app_server_protocol::transcript::{Cell, CellBody, Transcript};
use codex_home::{LeftOpen, TwoPassThread};
use codex_protocol::rollout::SessionMetaLine;

use super::line::plain;
use super::list::{resume_command, rows};
use super::render::{render_cell, status_text};
use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::input::resolve_home;
use crate::output::Output;
use crate::progress::Progress;
use crate::streamed::SourceInput;
use codex_home::ThreadFollower;

/// How the plain rendering is drawn.
#[derive(Debug, Clone, Copy)]
pub(crate) struct PlainOptions {
    /// Unfold every cell.
    pub expand: bool,
    /// How often `--follow` looks at the file.
    pub poll: Duration,
}

/// The header of a thread: its id, where and when it ran, how to resume it.
pub(crate) fn header(meta: Option<&SessionMetaLine>, path: &Path) -> Vec<String> {
    let Some(meta) = meta else {
        return vec![format!("{} (no session meta)", path.display())];
    };
    let id = meta.meta.id.to_string();
    vec![
        format!("thread {id}"),
        format!(
            "cwd {} · started {} · codex {}",
            meta.meta.cwd.display(),
            meta.meta.timestamp,
            meta.meta.cli_version
        ),
        format!("resume: {}", resume_command(&id)),
    ]
}

/// Prints the cells of `cells`, numbering turn separators from `turns_before + 1`.
fn print_cells(
    cells: &[Cell],
    turns_before: usize,
    expand: bool,
    out: &mut Output,
) -> Result<usize, Failure> {
    let mut turn = turns_before;
    for cell in cells {
        if matches!(cell.body, CellBody::TurnEnd { .. }) {
            turn += 1;
        }
        let folded = !expand && cell.folded_by_default();
        for line in render_cell(cell, folded, turn) {
            out.line(plain(&line).trim_end())?;
        }
        out.line("")?;
    }
    Ok(turn)
}

/// `view FILE` without a terminal.
pub(crate) fn thread(
    path: &Path,
    home: Option<&Path>,
    options: &PlainOptions,
    out: &mut Output,
) -> CommandResult {
    let source = Source::File(path.to_path_buf());
    let progress = Progress::hidden();
    let input = SourceInput::new(&source, &progress);
    let mut planned = TwoPassThread::read(&input, home)?;
    for line in header(planned.meta.as_ref(), path) {
        out.line(&line)?;
    }
    out.line("")?;
    let facts = std::mem::take(&mut planned.facts);
    let count = planned.turns;
    let (mut turns, mut last) = (0, None);
    let complete = (TranscriptMode::Complete, LeftOpen::InProgress);
    planned.turns(&input, complete, "reading", |turn| {
        let cells = Transcript::replay_turn(&turn, &facts);
        turns = print_cells(&cells, turns, options.expand, out)?;
        last = Some(turn);
        Ok::<(), Failure>(())
    })?;
    let end = Transcript::replay_end(last.as_ref().map(|turn| turn.id.as_str()), &facts);
    print_cells(&end, turns, options.expand, out)?;
    let status = Transcript::replay_status(last.as_ref(), count, &facts);
    out.line(&format!("status: {}", status_text(&status)))?;
    Ok(Status::Ok)
}

/// `view` of a home without a terminal: the session list with each thread's resume command.
pub(crate) fn sessions(
    home_dir: Option<&Path>,
    filter: &codex_home::SourceFilter,
    out: &mut Output,
) -> CommandResult {
    let home = resolve_home(home_dir)?;
    let rows = rows(&home, false, filter)?;
    out.line(&format!(
        "{} session(s) in {}, newest first",
        rows.len(),
        home.root.display()
    ))?;
    for row in rows {
        let indent = if row.nested { "  ↳ " } else { "" };
        let session = &row.session;
        let tag = crate::output::source_tag(session.source, session.parent_thread_id.as_deref());
        let name = match &session.name {
            None => String::new(),
            Some(name) => format!("\"{name}\"  "),
        };
        out.line(&crate::output::one_line(
            &format!(
                "{indent}{}  {}{tag}  {}  {name}{}",
                row.created, session.thread_id, session.cwd, session.preview
            ),
            160,
        ))?;
        out.line(&format!("{indent}    {}", row.resume_command()))?;
    }
    Ok(Status::Ok)
}

/// `view --follow FILE` without a terminal (see the module docs). Runs until stopped.
pub(crate) fn follow(path: &Path, options: &PlainOptions, out: &mut Output) -> CommandResult {
    let mut follower = ThreadFollower::new(path.to_path_buf());
    let mut transcript = Transcript::new(None);
    let mut printed = 0;
    let mut turns_printed = 0;
    let mut header_done = false;
    loop {
        if let Some(loaded) = follower.poll()? {
            if !header_done && loaded.meta.is_some() {
                for line in header(loaded.meta.as_ref(), follower.path()) {
                    out.line(&line)?;
                }
                out.line("")?;
                header_done = true;
            }
            let change = transcript.sync(&loaded.turns, &loaded.facts);
            if change.kept < printed {
                out.line(&format!(
                    "── history rewritten: {} cell(s) shown above were replaced ──",
                    printed - change.kept
                ))?;
                out.line("")?;
                printed = change.kept;
                turns_printed = count_turn_ends(&transcript.history()[..printed]);
            }
            if header_done {
                turns_printed = print_cells(
                    &transcript.history()[printed..],
                    turns_printed,
                    options.expand,
                    out,
                )?;
                printed = transcript.history().len();
                out.flush()?;
            }
        }
        std::thread::sleep(options.poll);
    }
}

fn count_turn_ends(cells: &[Cell]) -> usize {
    cells
        .iter()
        .filter(|cell| matches!(cell.body, CellBody::TurnEnd { .. }))
        .count()
}
