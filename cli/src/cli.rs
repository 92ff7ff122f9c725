//! The command line: subcommands, their arguments and the help text.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Read, check, replay and export Codex session files (rollout JSONL).
///
/// Every command takes a rollout file, or `-` for standard input; without one
/// it uses a sample session bundled in the binary (and says so on stderr).
/// Exit codes: 0 done, 1 content problems, 2 unreadable input or bad usage.
#[derive(Debug, Parser)]
#[command(
    name = "codex-thread",
    version,
    about,
    long_about,
    verbatim_doc_comment
)]
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
    /// Summary: ids, lines, problems, counts, turns, tools, tokens
    ///
    /// Files are read as streams (memory bounded by the longest line), several
    /// in parallel; `--json` prints one object per file (JSON Lines).
    #[command(verbatim_doc_comment)]
    Inspect {
        /// Rollout files, folders of them, or `-` for standard input (default:
        /// the bundled sample).
        files: Vec<PathBuf>,
        /// Also every session of this Codex home (`sessions/`, `archived_sessions/`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
    },
    /// Check every line; list problems with file and line number
    ///
    /// Exit 0 when every line of every file was read, 1 when some line has a
    /// problem, 2 when some file cannot be read at all.
    #[command(verbatim_doc_comment)]
    Validate {
        /// Rollout files, folders of them, or `-` for standard input (default: the
        /// bundled sample).
        files: Vec<PathBuf>,
        /// Also every session of this Codex home (`sessions/`, `archived_sessions/`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
    },
    /// The reconstructed model history (JSON Lines of ResponseItems)
    ///
    /// What a resumed session would hold: the last surviving compaction, then
    /// the items after it, with rollbacks applied. A fork by reference starts
    /// with its parent's prefix, found by thread id under the Codex home.
    #[command(verbatim_doc_comment)]
    History {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Codex home the parents of a fork by reference are found in (default:
        /// `$CODEX_HOME`, else `~/.codex`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
    },
    /// The request body of the next prompt (normal or Responses Lite)
    ///
    /// Base instructions from the session meta, the history projected for the
    /// model (missing outputs answered, unreadable media replaced), the last
    /// turn's model and reasoning settings.
    #[command(verbatim_doc_comment)]
    Prompt {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Encode for Responses Lite (instructions and tools as developer items first).
        #[arg(long)]
        lite: bool,
        /// What the model reads; other media become placeholder text.
        #[arg(long, value_delimiter = ',', default_value = "text,image")]
        modalities: Vec<Modality>,
        /// Codex home the parents of a fork by reference are found in (default:
        /// `$CODEX_HOME`, else `~/.codex`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
    },
    /// The turns and ThreadItems a client sees on resume.
    Thread {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// The JSON-RPC messages of a live replay, one per line
    ///
    /// What an app-server client would receive if the session were replayed
    /// live (streaming deltas are never persisted, so they are not replayed).
    #[command(verbatim_doc_comment)]
    Notifications {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// A readable transcript (Markdown; `--json` for structured)
    ///
    /// Messages, tool calls paired with their outputs, reasoning summaries and
    /// turn boundaries; rolled-back turns are left out.
    #[command(verbatim_doc_comment)]
    Export {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Transcript format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Markdown)]
        format: ExportFormat,
    },
    /// Write a new session without the last N user turns
    ///
    /// Turns are counted after rollbacks; kept lines are copied byte for byte
    /// and only the session meta changes (a new thread id, `forked_from_id`).
    /// With --by-reference nothing is copied: the fork is one session meta line
    /// whose `history_base` names the kept prefix of FILE, which must then stay
    /// findable by its thread id under the Codex home.
    #[command(verbatim_doc_comment)]
    Fork {
        /// Rollout file, or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// How many of the last user turns to leave out (0 keeps them all).
        #[arg(long, value_name = "N")]
        drop_turns: usize,
        /// Where to write the fork (must not exist).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: PathBuf,
        /// Refer to the kept prefix of FILE (`history_base`) instead of copying it.
        #[arg(long)]
        by_reference: bool,
        /// Codex home FILE must be found in for --by-reference (default:
        /// `$CODEX_HOME`, else `~/.codex`); only read, never written.
        #[arg(long, value_name = "DIR", requires = "by_reference")]
        home: Option<PathBuf>,
    },
    /// Sessions under a Codex home, newest first, a page at a time.
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
        /// List the archived sessions (`archived_sessions/`) instead of the live ones.
        #[arg(long)]
        archived: bool,
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
