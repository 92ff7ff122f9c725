//! `codex-thread fork [FILE] --drop-turns N -o OUT [--by-reference [--home DIR]]`: a new
//! session without the last N user turns.
//!
//! Everything is codex-rollout's: `turns` counts the user turns (the same count `inspect`
//! reports) and gives the fork point before the first item of the `N`-th last turn (its user
//! message item, or its `user_message` event when the file lacks the item), and
//! `fork_rollout_to_path` moves the cut up to the start of that turn, copies kept lines
//! byte for byte and changes only the session meta line (a new thread id, `forked_from_id`).
//! The file is written under a temporary name and linked into place, and an existing file is
//! never overwritten (exit 2, as for a destination that cannot be written).
//!
//! FILE is forked without being held (`fork_file_dropping_turns`): the cut is found by
//! reading FILE from its end until the turn index of the suffix decides it (where the end
//! cannot tell: a compressed or pre-envelope file, in one forward pass keeping an offset per
//! item), and the kept lines are streamed into the fork (by reference: read once for the
//! counts and the ordinal at the cut); the result is the fork of the loaded file (a
//! codex-rollout test compares them on every real file). Standard input and the sample are
//! spooled into a file first.
//!
//! With `--by-reference` nothing is copied: the fork is the rewritten meta line alone, whose
//! `history_base` names the kept prefix of FILE (its thread id, the prefix's length in FILE's
//! uncompressed bytes, and for a paginated FILE the ordinal after it). Readers find FILE again
//! by its thread id under the Codex home, so before writing, the command checks that FILE's
//! thread is there (`--home`, else `$CODEX_HOME`, else `~/.codex`; only read); the prefix the
//! fork names is checked by the resolver's rule before anything is written. Turns are those
//! of FILE's own lines: a FILE that is itself a fork by reference forks within its own lines.

use std::path::{Path, PathBuf};

use codex_home::{ThreadLookupError, fork_base_in};
use codex_protocol::rollout::HistoryBase;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{
    ForkError, ForkMode, ForkedRollout, fork_file_dropping_turns, session_meta_of_file,
};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, warn};
use crate::progress::Progress;
use crate::streamed::SourceInput;
use codex_home::stream_session;

/// What `fork --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ForkReport {
    pub source: String,
    pub output: String,
    pub thread_id: String,
    pub forked_from_id: String,
    pub user_messages_before: usize,
    pub user_messages_after: usize,
    pub lines_written: usize,
    pub skipped_problem_lines: usize,
    /// The prefix of the source a fork by reference names (absent for a copied fork).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub history_base: Option<HistoryBase>,
}

impl ForkReport {
    /// The report of `forked`, a fork of `source` (which had `before` user turns) without its
    /// last `dropped` ones.
    fn of(source: String, forked: ForkedRollout, before: usize, dropped: usize) -> Self {
        Self {
            source,
            output: forked.path.display().to_string(),
            thread_id: forked.thread_id.to_string(),
            forked_from_id: forked.forked_from_id.to_string(),
            user_messages_before: before,
            user_messages_after: before - dropped,
            lines_written: forked.lines_written,
            skipped_problem_lines: forked.skipped_problem_lines,
            history_base: forked.history_base,
        }
    }
}

/// `--by-reference` and the home the source must be found in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ByReferenceOptions {
    /// `--home`, when given.
    pub home: Option<PathBuf>,
}

/// Runs `fork`; `by_reference` is `Some` for `--by-reference`.
pub(crate) fn run(
    source: &Source,
    drop_turns: usize,
    output: &Path,
    by_reference: Option<ByReferenceOptions>,
    out: &mut Output,
) -> CommandResult {
    if by_reference.is_some() && !matches!(source, Source::File(_)) {
        return Err(Failure::Usage(format!(
            "--by-reference needs a FILE under the Codex home, not {}: the fork names it by \
             its thread id",
            source.name()
        )));
    }
    let path = source.path().ok_or_else(|| {
        Failure::Usage(format!(
            "{} must be read as a file to be forked",
            source.name()
        ))
    })?;
    let name = source.name();
    let mode = match &by_reference {
        Some(options) => {
            let thread_id = session_meta_of_file(path)
                .ok()
                .flatten()
                .map(|line| line.meta.id)
                .ok_or_else(|| why_unforkable(source))?;
            home_holding(thread_id, path, options.home.clone())?;
            ForkMode::ByReference
        }
        None => ForkMode::Copy,
    };
    let streamed = match fork_file_dropping_turns(path, drop_turns, output, mode) {
        Ok(streamed) => streamed,
        Err(ForkError::TooFewTurns { too_few, .. }) => {
            return Err(Failure::Content(format!(
                "{name} has {} user turn(s); cannot drop {}",
                too_few.turns, too_few.requested
            )));
        }
        Err(
            ForkError::Io {
                action: "read fork source",
                ..
            }
            | ForkError::NoSessionMeta(_),
        ) => return Err(why_unforkable(source)),
        Err(err) => return Err(fork_failure(&name, err)),
    };
    let before = streamed.kept_turns + drop_turns;
    print(
        &ForkReport::of(name, streamed.forked, before, drop_turns),
        out,
    )
}

/// Why `source` cannot be forked when its lines cannot be read as a session: the checks
/// every streaming command applies, read once more (on this error path only) so the message
/// is theirs (missing, a folder, empty, no readable line, damaged).
fn why_unforkable(source: &Source) -> Failure {
    let hidden = Progress::hidden();
    match stream_session(&SourceInput::new(source, &hidden), |_| {}) {
        Err(error) => error.into(),
        Ok(_) => Failure::Content(format!(
            "{} records no thread (no session meta): a fork could not name its source",
            source.name()
        )),
    }
}

fn print(report: &ForkReport, out: &mut Output) -> CommandResult {
    if out.is_json() {
        out.json_line(report)?;
    } else {
        print_report(report, out)?;
    }
    Ok(Status::Ok)
}

fn fork_failure(name: &str, err: ForkError) -> Failure {
    match err {
        ForkError::DestinationExists(path) => Failure::Usage(format!(
            "{} already exists; fork never overwrites a file",
            path.display()
        )),
        // The destination cannot be written: like unreadable input, exit 2.
        err @ ForkError::Io { .. } => Failure::Unreadable(format!("cannot fork {name}: {err}")),
        other => Failure::Content(format!("cannot fork {name}: {other}")),
    }
}

/// Checks that the home a fork by reference of `path` (the rollout of thread `thread_id`)
/// resolves through holds that thread (codex-home's `fork_base_in`), else the fork could
/// never be read back; says so when the home's file for it is another one.
fn home_holding(thread_id: ThreadId, path: &Path, home: Option<PathBuf>) -> Result<(), Failure> {
    let home = crate::input::resolve_home(home.as_deref())?;
    let (found, is_path) = fork_base_in(&home, thread_id, path).map_err(|err| match err {
        ThreadLookupError::NoForkBase { .. } => Failure::Content(err.to_string()),
        _ => Failure::Unreadable(err.to_string()),
    })?;
    if !is_path {
        warn(&format!(
            "the fork will refer to {}, the rollout of thread {thread_id} under {}, not to {}",
            found.display(),
            home.root.display(),
            path.display()
        ));
    }
    Ok(())
}

fn print_report(report: &ForkReport, out: &mut Output) -> Result<(), Failure> {
    out.line(&format!("forked {} -> {}", report.source, report.output))?;
    out.line(&format!("  thread id     {}", report.thread_id))?;
    out.line(&format!("  forked from   {}", report.forked_from_id))?;
    out.line(&format!(
        "  user messages {} -> {}",
        report.user_messages_before, report.user_messages_after
    ))?;
    out.line(&format!("  lines         {}", report.lines_written))?;
    if let Some(base) = &report.history_base {
        let ordinal = base
            .end_ordinal_exclusive
            .map(|ordinal| format!(", before ordinal {ordinal}"))
            .unwrap_or_default();
        out.line(&format!(
            "  by reference  {} bytes of thread {}{ordinal}",
            base.end_byte_offset.unwrap_or_default(),
            base.thread_id
        ))?;
    }
    if report.skipped_problem_lines > 0 {
        out.line(&format!(
            "  not copied    {} unreadable line(s)",
            report.skipped_problem_lines
        ))?;
    }
    Ok(())
}
