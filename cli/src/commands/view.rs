//! `codex-thread view [FILE|ID] [--home DIR] [--follow]`: the terminal client of a session
//! (seed 004 §4): a session list with a search box, a thread as history cells, and a session
//! followed as Codex writes it.
//!
//! What the cells are, what is live and what a separator says is
//! `codex_app_server_protocol::transcript`'s, reading files codex-home's (`load_thread_file`,
//! `ThreadFollower`, `TurnWindow`); this module draws cells as toned lines (`render`,
//! `markdown`) and either runs the full-screen UI (`tui`, ratatui + crossterm) or, when
//! standard output is not a terminal or `TERM=dumb` (or `--plain`), prints the same lines
//! once and exits (`plain`).

mod line;
mod list;
mod markdown;
mod plain;
mod render;
mod terminal;
mod tui;
mod tui_style;
mod tui_thread;
mod wrap;

use std::io::IsTerminal;
use std::path::PathBuf;

use crate::error::{CommandResult, Failure};
use crate::input::session_path;
use crate::output::Output;

/// The arguments of `view`.
#[derive(Debug, clap::Args)]
pub(crate) struct ViewArgs {
    /// Session file (plain or .zst) or thread id (default: the session list of the home).
    pub target: Option<PathBuf>,
    /// Codex home to list and search (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Follow the session as Codex appends to it (polls the file).
    #[arg(long)]
    pub follow: bool,
    /// Print the plain rendering even on a terminal.
    #[arg(long)]
    pub plain: bool,
    /// Unfold every cell of the plain rendering.
    #[arg(long)]
    pub expand: bool,
    /// The search index (default: `<cache dir>/codex-thread/index.sqlite`).
    #[arg(long, value_name = "PATH")]
    pub index: Option<PathBuf>,
    /// How often `--follow` looks at the file, in milliseconds.
    #[arg(long, value_name = "MS", default_value_t = 200)]
    pub poll_ms: u64,
    /// The session list shows only sessions of these source kinds (as `list --source`).
    #[arg(long = "source", value_name = "KIND", value_delimiter = ',')]
    pub sources: Vec<String>,
}

/// Runs `view`.
pub(crate) fn run(args: &ViewArgs, out: &mut Output) -> CommandResult {
    let target = args
        .target
        .as_deref()
        .map(|target| session_path(target, args.home.as_deref()))
        .transpose()?;
    if args.follow && target.is_none() {
        return Err(Failure::Usage(
            "--follow needs a FILE or thread id".to_owned(),
        ));
    }
    let interactive = !args.plain
        && std::io::stdout().is_terminal()
        && std::env::var("TERM").map_or(true, |term| term != "dumb");
    let options = plain::PlainOptions {
        expand: args.expand,
        poll: std::time::Duration::from_millis(args.poll_ms.max(10)),
    };
    let sources = codex_home::SourceFilter::of_kinds(&args.sources).map_err(Failure::Usage)?;
    match (interactive, target) {
        (false, Some(path)) if args.follow => plain::follow(&path, &options, out),
        (false, Some(path)) => plain::thread(&path, args.home.as_deref(), &options, out),
        (false, None) => plain::sessions(args.home.as_deref(), &sources, out),
        (true, target) => tui::run(&tui::TuiArgs {
            target,
            home: args.home.clone(),
            sources,
            index: args.index.clone(),
            follow: args.follow,
            poll: options.poll,
        }),
    }
}
