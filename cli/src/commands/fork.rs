//! `codex-thread fork [FILE] --drop-turns N -o OUT`: a new session without the last N user
//! turns.
//!
//! Everything is codex-rollout's: `turns` counts the user turns (the same count `inspect`
//! reports) and gives the fork point before the first item of the `N`-th last turn (its user
//! message item, or its `user_message` event when the file lacks the item), and
//! `fork_rollout_to_path` moves the cut up to the start of that turn, copies kept lines byte
//! for byte and changes only the session meta line (a new thread id, `forked_from_id`).
//! The file is written under a temporary name and renamed, and an existing file is never
//! overwritten.

use std::path::Path;

use codex_rollout::fork::{ForkError, fork_rollout_to_path};
use codex_rollout::turns::{TooFewTurns, fork_point_dropping_turns, user_turns};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::input::{Source, load_session};
use crate::output::Output;

/// What `fork --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ForkReport {
    pub source: String,
    pub output: String,
    pub thread_id: String,
    pub forked_from_id: String,
    pub user_turns_before: usize,
    pub user_turns_after: usize,
    pub lines_written: usize,
    pub skipped_problem_lines: usize,
}

/// Runs `fork`.
pub fn run(source: &Source, drop_turns: usize, output: &Path, out: &mut Output) -> CommandResult {
    let session = load_session(source)?;
    let name = session.name().to_string();
    let loaded = session.into_loaded()?;
    let user_turns = user_turns(loaded.contents());
    let turns = user_turns.len();
    let point = fork_point_dropping_turns(&user_turns, drop_turns).map_err(
        |TooFewTurns { turns, requested }| {
            Failure::Content(format!(
                "{name} has {turns} user turn(s); cannot drop {requested}"
            ))
        },
    )?;
    let forked = fork_rollout_to_path(&loaded, point, output).map_err(|err| match err {
        ForkError::DestinationExists(path) => Failure::Content(format!(
            "{} already exists; fork never overwrites a file",
            path.display()
        )),
        other => Failure::Content(format!("cannot fork {name}: {other}")),
    })?;
    let report = ForkReport {
        source: name,
        output: forked.path.display().to_string(),
        thread_id: forked.thread_id.to_string(),
        forked_from_id: forked.forked_from_id.to_string(),
        user_turns_before: turns,
        user_turns_after: turns - drop_turns,
        lines_written: forked.lines_written,
        skipped_problem_lines: forked.skipped_problem_lines,
    };
    if out.is_json() {
        out.json_line(&report)?;
    } else {
        out.line(&format!("forked {} -> {}", report.source, report.output))?;
        out.line(&format!("  thread id     {}", report.thread_id))?;
        out.line(&format!("  forked from   {}", report.forked_from_id))?;
        out.line(&format!(
            "  user turns    {} -> {}",
            report.user_turns_before, report.user_turns_after
        ))?;
        out.line(&format!("  lines         {}", report.lines_written))?;
        if report.skipped_problem_lines > 0 {
            out.line(&format!(
                "  not copied    {} unreadable line(s)",
                report.skipped_problem_lines
            ))?;
        }
    }
    Ok(Status::Ok)
}
