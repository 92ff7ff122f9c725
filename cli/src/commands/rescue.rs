//! `codex-thread rescue THREAD [--home DIR]`: a session too large to resume written again as
//! a new thread holding only what resume needs (`codex-home`'s `rescue_thread`); prints the
//! new thread's id to resume.

use std::path::PathBuf;

use clap::Args;
use codex_home::rescue_thread;

use crate::error::{CommandResult, Failure, Status};
use crate::home_threads::resume_command;
use crate::input::resolve_home;
use crate::input::session_path;
use crate::output::Output;
use crate::output::size::human_bytes;

/// `rescue`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct RescueArgs {
    /// The thread: its id (or a unique prefix) or its rollout file.
    pub thread: PathBuf,
    /// Codex home the rescue is written into (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
}

/// Runs `rescue`.
pub(crate) fn run(args: &RescueArgs, out: &mut Output) -> CommandResult {
    let home = resolve_home(args.home.as_deref())?;
    let original = session_path(&args.thread, args.home.as_deref())?;
    let rescued = rescue_thread(&home, &original, chrono::Utc::now())
        .map_err(|err| Failure::Content(err.to_string()))?;
    if out.is_json() {
        out.json_line(&rescued)?;
    } else {
        out.line(&format!(
            "rescued {} ({}) as {} ({}): {}",
            rescued.original_thread_id,
            human_bytes(rescued.original_bytes),
            rescued.thread_id,
            human_bytes(rescued.rescued_bytes),
            resume_command(rescued.thread_id)
        ))?;
    }
    Ok(Status::Ok)
}
