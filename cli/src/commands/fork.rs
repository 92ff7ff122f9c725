//! `codex-thread fork [FILE] --drop-turns N -o OUT [--by-reference [--home DIR]]`: a new
//! session without the last N user turns.
//!
//! Everything is codex-rollout's: `turns` counts the user turns (the same count `inspect`
//! reports) and gives the fork point before the first item of the `N`-th last turn (its user
//! message item, or its `user_message` event when the file lacks the item), and
//! `fork_rollout_to_path_with` moves the cut up to the start of that turn, copies kept lines
//! byte for byte and changes only the session meta line (a new thread id, `forked_from_id`).
//! The file is written under a temporary name and linked into place, and an existing file is
//! never overwritten (exit 2, as for a destination that cannot be written).
//!
//! A plain FILE is forked without being held (`fork_file_dropping_turns`): the cut is found
//! by reading FILE from its end until the turn index of the suffix decides it, and the kept
//! lines are streamed into the fork (by reference: read once for the counts and the ordinal
//! at the cut); the result is the fork of the loaded file (a codex-rollout test compares them
//! on every real file). Where only the whole file can tell (a compressed or pre-envelope
//! file, fewer turns than asked), it is loaded.
//!
//! With `--by-reference` nothing is copied: the fork is the rewritten meta line alone, whose
//! `history_base` names the kept prefix of FILE (its thread id, the prefix's length in FILE's
//! uncompressed bytes, and for a paginated FILE the ordinal after it). Readers find FILE again
//! by its thread id under the Codex home, so before writing, the command checks that FILE's
//! thread is there (`--home`, else `$CODEX_HOME`, else `~/.codex`; only read), and after
//! writing a fork of the loaded file it resolves the fork once and warns if that fails (a
//! streamed one was checked by the resolver's rule before it was written). Turns are those
//! of FILE's own lines: a FILE that is itself a fork by reference forks within its own lines.

use std::path::{Path, PathBuf};

use codex_home::find_rollout_by_thread_id;
use codex_protocol::rollout::HistoryBase;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::CodexHome;
use codex_rollout::load_rollout_with_base;
use codex_rollout::{
    ForkError, ForkMode, ForkedRollout, fork_file_dropping_turns, fork_rollout_to_path_with,
    fork_source_thread,
};
use codex_rollout::{TooFewTurns, fork_point_dropping_turns, user_turns};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::input::{Source, load_session};
use crate::output::{Output, warn};

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
            user_turns_before: before,
            user_turns_after: before - dropped,
            lines_written: forked.lines_written,
            skipped_problem_lines: forked.skipped_problem_lines,
            history_base: forked.history_base,
        }
    }
}

/// `--by-reference` and the home the source must be found in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ByReferenceOptions {
    /// `--home`, when given.
    pub home: Option<PathBuf>,
}

/// Runs `fork`; `by_reference` is `Some` for `--by-reference`.
pub fn run(
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
    // The home a fork by reference resolves through, once checked.
    let mut home = None;
    if let Some(path) = source.path()
        && let Some(report) =
            fork_from_end(path, drop_turns, output, by_reference.as_ref(), &mut home)?
    {
        return print(&report, out);
    }
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
    let home = match (&by_reference, home) {
        (Some(_), Some(checked)) => Some(checked),
        (Some(by_reference), None) => Some(home_holding(
            loaded.thread_id(),
            loaded.path(),
            by_reference.home.clone(),
        )?),
        (None, _) => None,
    };
    let mode = match home {
        Some(_) => ForkMode::ByReference,
        None => ForkMode::Copy,
    };
    let forked = fork_rollout_to_path_with(&loaded, point, output, mode)
        .map_err(|err| fork_failure(&name, err))?;
    if let Some(home) = &home
        && let Err(err) = load_rollout_with_base(home, &forked.path)
    {
        warn(&format!(
            "the fork was written, but does not resolve: {err}"
        ));
    }
    print(&ForkReport::of(name, forked, turns, drop_turns), out)
}

/// The fork of the plain file `path` found from its end and streamed, when its end tells
/// the cut; `None` when only the whole file can tell (or FILE cannot be read: the loader then
/// says so as for every command). A fork by reference checks the source's home first, as
/// the whole-file path does, and leaves it in `home`. A streamed fork by reference is not
/// resolved once more after writing: its base was checked by the resolver's own rule in the
/// pass, and resolving would load FILE whole.
fn fork_from_end(
    path: &Path,
    drop_turns: usize,
    output: &Path,
    by_reference: Option<&ByReferenceOptions>,
    home: &mut Option<CodexHome>,
) -> Result<Option<ForkReport>, Failure> {
    let name = path.display().to_string();
    let mode = match by_reference {
        Some(options) => {
            let Ok(Some(thread_id)) = fork_source_thread(path) else {
                return Ok(None);
            };
            *home = Some(home_holding(thread_id, path, options.home.clone())?);
            ForkMode::ByReference
        }
        None => ForkMode::Copy,
    };
    let streamed = match fork_file_dropping_turns(path, drop_turns, output, mode) {
        Ok(streamed) => streamed,
        Err(ForkError::Io {
            action: "read fork source",
            ..
        }) => None,
        Err(err) => return Err(fork_failure(&name, err)),
    };
    Ok(streamed.map(|streamed| {
        let before = streamed.kept_turns + drop_turns;
        ForkReport::of(name, streamed.forked, before, drop_turns)
    }))
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

/// The home a fork by reference of `path` (the rollout of thread `thread_id`) resolves
/// through: it must hold that thread, else the fork could never be read back.
fn home_holding(
    thread_id: ThreadId,
    path: &Path,
    home: Option<PathBuf>,
) -> Result<CodexHome, Failure> {
    let home = crate::inputs::resolve_home(home.as_deref())?;
    let found = find_rollout_by_thread_id(&home, thread_id).map_err(|err| {
        Failure::Unreadable(format!(
            "cannot look for thread {thread_id} under {}: {err}",
            home.root().display()
        ))
    })?;
    let Some(found) = found else {
        return Err(Failure::Content(format!(
            "{} records thread {thread_id}, which has no rollout under {}, so a fork by \
             reference to it could not be read back; pass --home DIR, or fork without \
             --by-reference",
            path.display(),
            home.root().display()
        )));
    };
    let same = |path: &Path| std::fs::canonicalize(path).ok();
    if same(&found) != same(path) {
        warn(&format!(
            "the fork will refer to {}, the rollout of thread {thread_id} under {}, not to {}",
            found.display(),
            home.root().display(),
            path.display()
        ));
    }
    Ok(home)
}

fn print_report(report: &ForkReport, out: &mut Output) -> Result<(), Failure> {
    out.line(&format!("forked {} -> {}", report.source, report.output))?;
    out.line(&format!("  thread id     {}", report.thread_id))?;
    out.line(&format!("  forked from   {}", report.forked_from_id))?;
    out.line(&format!(
        "  user turns    {} -> {}",
        report.user_turns_before, report.user_turns_after
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
