//! The command line: subcommands, their arguments and the help text.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Read, check, replay and export Codex session files (rollout JSONL).
///
/// Every command takes a rollout file, or `-` for standard input; without one it uses a sample
/// session bundled in the binary. Exit codes: 0 done, 1 content problems, 2 unreadable input
/// or bad usage.
#[derive(Debug, Parser)]
#[command(name = "codex-thread", version, about, long_about)]
pub struct Cli {
    /// Machine output: JSON (or JSON Lines for streams) instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    /// What to do (default: `inspect` on the bundled sample).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Summary: thread id, version, lines, problems, counts by type, turns, tools, tokens.
    Inspect {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// Check every line of one or more files; exit 0 when all lines read, 1 when some line
    /// has a problem, 2 when a file cannot be read.
    Validate {
        /// Rollout files, or `-` for standard input (default: the bundled sample).
        files: Vec<PathBuf>,
    },
    /// The model history reconstructed from the file (JSON Lines of ResponseItems), as a
    /// resumed session would hold it.
    History {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// The request body of the next prompt: base instructions, normalized history, options.
    Prompt {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Encode for Responses Lite (instructions and tools as developer items first).
        #[arg(long)]
        lite: bool,
        /// What the model reads; other media become placeholder text.
        #[arg(long, value_delimiter = ',', default_value = "text,image")]
        modalities: Vec<Modality>,
    },
    /// The turns and their items as a client sees them on resume (app-server ThreadItems).
    Thread {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// The JSON-RPC notifications a client would receive if the session were replayed live,
    /// one per line.
    Notifications {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// A readable transcript: messages, tool calls with their outputs, reasoning summaries,
    /// turn boundaries.
    Export {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Transcript format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Markdown)]
        format: ExportFormat,
    },
    /// Write a new session without the last N user turns (rollback-aware): kept lines are
    /// copied byte for byte, the session meta gets a new thread id.
    Fork {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// How many of the last user turns to leave out (0 keeps them all).
        #[arg(long, value_name = "N")]
        drop_turns: usize,
        /// Where to write the fork (must not exist).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: PathBuf,
    },
    /// Sessions under a Codex home, newest first, with their first message, a page at a time.
    List {
        /// Codex home (default: `$CODEX_HOME`, else `~/.codex`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
        /// Sessions per page.
        #[arg(long, default_value_t = 20, value_name = "N")]
        limit: usize,
        /// Continue after this cursor (printed at the end of the previous page).
        #[arg(long, value_name = "CURSOR")]
        cursor: Option<String>,
    },
}

/// An input modality of the model the prompt is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Modality {
    Text,
    Image,
    Audio,
}

/// Formats of `export`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ExportFormat {
    /// Markdown transcript.
    Markdown,
}
