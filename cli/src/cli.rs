//! The command line: subcommands, their arguments and the help text.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

/// Read, check, replay and export Codex session files (rollout JSONL).
///
/// Every command takes a rollout file, `-` for standard input, or a thread id
/// (or a unique prefix of one) found under the Codex home; without one it uses
/// a sample session bundled in the binary (and says so on stderr).
/// Exit codes: 0 done, 1 content problems, 2 unreadable input or bad usage.
/// The command line, with what is known only at run time written into its help: the date
/// and LiteLLM version of the bundled price table (`usage --help`).
pub(crate) fn command() -> clap::Command {
    use clap::CommandFactory;
    let prices = match codex_home::Pricing::bundled().map(|pricing| pricing.snapshot) {
        Ok(Some(snapshot)) => format!(
            "bundled: LiteLLM {} snapshot of {}",
            snapshot.litellm_version, snapshot.date
        ),
        _ => "bundled: none readable".to_string(),
    };
    Cli::command().mut_subcommand("usage", |usage| {
        usage.mut_arg("pricing", |arg| {
            let help = arg.get_help().map(ToString::to_string).unwrap_or_default();
            arg.help(format!("{help} ({prices})"))
        })
    })
}

#[derive(Debug, Parser)]
#[command(
    name = "codex-thread",
    version,
    about,
    long_about,
    verbatim_doc_comment
)]
pub(crate) struct Cli {
    /// Machine output: JSON (or JSON Lines for streams) instead of text.
    #[arg(long, global = true)]
    pub json: bool,

    /// What to do (default: `inspect` on the bundled sample).
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Summary: ids, lines, problems, counts, turns, tools, tokens
    ///
    /// Files are read as streams (memory bounded by the longest line), several
    /// in parallel; `--json` prints one object per file (JSON Lines).
    #[command(verbatim_doc_comment)]
    Inspect {
        /// Rollout files, folders of them, thread ids or unique id prefixes, or `-` for
        /// standard input (default: the bundled sample).
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
        /// Rollout files, folders of them, thread ids or unique id prefixes, or `-` for
        /// standard input (default: the bundled sample).
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
        /// Rollout file, thread id or unique id prefix (4+ hex digits, looked up under the
        /// Codex home), or `-` for standard input (default: the bundled sample).
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
        /// Rollout file, thread id or unique id prefix (4+ hex digits, looked up under the
        /// Codex home), or `-` for standard input (default: the bundled sample).
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
        /// Rollout file, thread id or unique id prefix (4+ hex digits, looked up under the
        /// Codex home), or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Only the last N turns.
        #[arg(long, value_name = "N")]
        last: Option<usize>,
        /// Codex home whose thread names and default provider describe FILE (default: the
        /// home FILE lies in, else `$CODEX_HOME`, else `~/.codex`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
        /// With --json: the complete transcript (Codex's items plus every call the file
        /// records), not only what Codex's `thread/read` answers. The text always shows it.
        #[arg(long)]
        complete: bool,
    },
    /// The JSON-RPC messages of a live replay, one per line
    ///
    /// What an app-server client would receive if the session were replayed
    /// live (streaming deltas are never persisted, so they are not replayed).
    #[command(verbatim_doc_comment)]
    Notifications {
        /// Rollout file, thread id or unique id prefix (4+ hex digits, looked up under the
        /// Codex home), or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
    },
    /// A transcript to read and share (Markdown or HTML; `--json` for structured)
    ///
    /// Messages, tool calls paired with their outputs (command, exit code,
    /// duration), reasoning summaries, images, times and one section per turn;
    /// rolled-back turns are kept and marked. `--format html` writes one
    /// self-contained page that loads nothing and runs no session content.
    /// `--redact` masks emails, tokens and keys, home paths, host names and
    /// every `--redact-pattern`, and says how many of each it masked.
    #[command(verbatim_doc_comment)]
    Export {
        /// Rollout file, thread id or unique id prefix (4+ hex digits, looked up under the
        /// Codex home), or `-` for standard input (default: the bundled sample).
        file: Option<PathBuf>,
        /// Transcript format.
        #[arg(long, value_enum, default_value_t = ExportFormat::Markdown)]
        format: ExportFormat,
        /// Write to OUT instead of standard output (replaced if it exists).
        #[arg(short = 'o', long = "output", value_name = "OUT")]
        output: Option<PathBuf>,
        /// Mask secrets and personal details before sharing (see docs/export.md).
        #[arg(long)]
        redact: bool,
        /// Also mask matches of REGEX (repeatable; implies --redact).
        #[arg(long = "redact-pattern", value_name = "REGEX")]
        redact_patterns: Vec<String>,
        /// Codex home whose thread names describe FILE and resolve its history base (default:
        /// the home FILE lies in, else `$CODEX_HOME`, else `~/.codex`).
        #[arg(long, value_name = "DIR")]
        home: Option<PathBuf>,
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
        /// Rollout file, thread id or unique id prefix (4+ hex digits, looked up under the
        /// Codex home), or `-` for standard input (default: the bundled sample).
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
    ///
    /// With FILE/DIR arguments (and `--home` for a whole home besides), every
    /// named session instead, in the order given, read in parallel; `--json`
    /// prints one session per line.
    #[command(verbatim_doc_comment)]
    List(crate::commands::list::ListArgs),
    /// Tokens and cost per day, week, month, session, model or project
    ///
    /// REPORT is daily (default), weekly, monthly, session, model or project
    /// (also --by REPORT). Reads the given files and folders, else every session
    /// of the Codex home (plain and .jsonl.zst, live and archived). Each model
    /// response is counted once whatever files hold it, for the model in force
    /// then; a forked or subagent child never counts what it copied from its
    /// parent. Days are in --timezone, else TZ, else the system's zone. See
    /// docs/usage.md.
    #[command(verbatim_doc_comment)]
    Usage(crate::commands::usage::UsageArgs),
    /// Where the bytes of a Codex home (or of files) go
    ///
    /// By kind (images, encrypted content, tool outputs, compacted records,
    /// metas...), copied parent prefixes, images stored many times, per day, the
    /// largest files, and what `compress` would save. PATHs and --home mix.
    #[command(verbatim_doc_comment)]
    Du(crate::commands::du::DuArgs),
    /// Compress old rollouts to Codex-readable .jsonl.zst, in place
    ///
    /// Files older than --older-than that no running Codex holds: each copy is
    /// decoded and compared byte for byte before the plain file is removed, and
    /// keeps its modification time. A run killed at any moment leaves every
    /// session readable.
    #[command(verbatim_doc_comment)]
    Compress(crate::commands::compress::CompressArgs),
    /// Compress, archive or delete the threads a policy picks (dry run by default)
    ///
    /// Prints the plan; --apply does it. Never touches a thread a running Codex
    /// holds or one written in the last --idle. Archive and delete go through
    /// Codex's own `codex archive` / `codex delete` so its state stays in step;
    /// deleted sessions wait in HOME/trash until --empty-trash after --grace.
    #[command(verbatim_doc_comment)]
    Prune(crate::commands::prune::PruneArgs),
    /// Bring sessions from another home, a backup or a folder into a home so that Codex sees them
    ///
    /// Each file is copied where Codex expects it under its own name (nothing
    /// in the home is replaced), then Codex's own app-server registers every
    /// thread and projects a paginated thread's history, which a copied file
    /// lacks (it would open empty). Names come from the source home's index.
    /// --plan prints what would be done.
    #[command(verbatim_doc_comment)]
    Import(crate::commands::import::ImportArgs),
    /// Find what Codex would show wrongly in a home, and with --apply fix it through Codex
    ///
    /// Threads Codex has no row for, paginated threads whose history it never
    /// projected (they open empty) or projected only in part, names its rows
    /// lost, rows whose file is gone, forks without their parent, ordinals out
    /// of order; each with its reason. --apply has Codex's own app-server fix
    /// what it can. Exit 1 when something is left.
    #[command(verbatim_doc_comment)]
    Repair(crate::commands::repair::RepairArgs),
    /// Write a session too large to resume again as a new thread with only what resume needs
    ///
    /// The new thread starts from the newest compaction (the live suffix,
    /// copied byte for byte); `codex resume` of it sends the model the same
    /// history as the original. The original is left as it is.
    #[command(verbatim_doc_comment)]
    Rescue(crate::commands::rescue::RescueArgs),
    /// Full-text search over every session of a home
    ///
    /// Messages, reasoning summaries, tool calls and outputs (capped) and
    /// patched paths, through an index kept in the cache directory and brought
    /// up to date before each query. Each hit says how to resume its thread.
    #[command(verbatim_doc_comment)]
    Search(SearchArgs),
    /// List the secrets written in sessions (API keys, tokens, private keys)
    ///
    /// Every line of every file, by the rule set `export --redact` masks with:
    /// file, line and kind of each, the secret shown by its first characters.
    /// Exit 1 when something was found, 0 when nothing was.
    #[command(verbatim_doc_comment)]
    Secrets(crate::commands::secrets::SecretsArgs),
    /// Serve a home read-only through Codex's app-server protocol
    ///
    /// Answers thread/list, thread/read, thread/turns/list, thread/items/list
    /// and thread/resume (a pure read) from the home's session files, as
    /// Codex's own server answers them; refuses every method that would change
    /// anything. The Codex TUI connects with `codex resume --remote ADDR`.
    #[command(verbatim_doc_comment)]
    Serve(crate::commands::serve::ServeArgs),
    /// The home's sessions as the tools of an MCP server on standard input and output
    ///
    /// list_sessions, search_sessions, read_thread, usage and
    /// sessions_touching_file, each answering what the matching command's
    /// --json answers. Configure it in Codex's config.toml as an MCP server.
    #[command(verbatim_doc_comment)]
    Mcp(crate::commands::mcp::McpArgs),
    /// Browse, read and follow sessions in the terminal
    ///
    /// A session list (newest first; `a` shows archived ones) with a search box
    /// over the full-text index, a thread as history cells (commands, diffs,
    /// Markdown; Enter folds), and `--follow` to watch a session Codex is
    /// writing. Without a terminal (piped, TERM=dumb) it prints the same cells.
    #[command(verbatim_doc_comment)]
    View(crate::commands::view::ViewArgs),
    /// Write a home's sessions as Parquet tables for DuckDB, Spark and Trino
    ///
    /// threads, turns, items and token_usage, partitioned by day
    /// (`DIR/TABLE/day=YYYY-MM-DD/part-0.parquet`), with a documented, versioned
    /// schema. A second run writes only what changed; each partition is replaced
    /// atomically. Token rows are exactly what `usage` counts. See docs/tables.md.
    #[command(verbatim_doc_comment)]
    Table(crate::commands::table::TableArgs),
}

/// The arguments of `search`.
#[derive(Debug, clap::Args)]
pub(crate) struct SearchArgs {
    /// Text to find: every word must appear, as typed or inside a longer word, any case
    /// (with --fts: an FTS5 query).
    pub query: String,
    /// Read QUERY as FTS5 syntax: "a phrase", OR, NOT, NEAR(a b, 5), parentheses; each
    /// string at least 3 characters (docs/search.md).
    #[arg(long)]
    pub fts: bool,
    /// Codex home (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The index file (default: `<cache dir>/codex-thread/index.sqlite`); a cache,
    /// rebuilt from the session files whenever needed.
    #[arg(long, value_name = "PATH")]
    pub index: Option<PathBuf>,
    /// Only texts from this role (tool: calls, outputs and patched paths).
    #[arg(long, value_enum)]
    pub role: Option<SearchRole>,
    /// Only texts recorded in this working directory or below it.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Only texts recorded at or after this time (2025-09-25, a day in --timezone, or RFC
    /// 3339).
    #[arg(long, value_name = "TIME")]
    pub since: Option<String>,
    /// Only texts recorded before this time (a day counts whole).
    #[arg(long, value_name = "TIME")]
    pub until: Option<String>,
    /// IANA time zone a day of --since/--until is read in (default: the local zone, from TZ,
    /// else the system's), as `usage` counts days.
    #[arg(long, value_name = "ZONE")]
    pub timezone: Option<String>,
    /// Also texts a fork or sub-agent copied from its parent (left out by default:
    /// the parent's own file has them).
    #[arg(long)]
    pub copied: bool,
    /// At most this many hits.
    #[arg(long, default_value_t = 20, value_name = "N")]
    pub limit: usize,
    /// Order of the hits.
    #[arg(long, value_enum, default_value_t = SearchSort::Newest)]
    pub sort: SearchSort,
}

/// Roles `search --role` filters on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SearchRole {
    User,
    Assistant,
    Tool,
}

/// Orders of `search` hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum SearchSort {
    /// Newest first.
    Newest,
    /// Best match first (BM25).
    Rank,
}

/// An input modality of the model the prompt is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(crate) enum Modality {
    Text,
    Image,
    Audio,
}

/// Formats of `export` (public for the `testing` hooks).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, ValueEnum)]
#[cfg_attr(not(feature = "testing"), allow(unreachable_pub))]
pub enum ExportFormat {
    /// Markdown transcript.
    #[default]
    Markdown,
    /// One self-contained HTML page (inline style, images as data URLs, no requests).
    Html,
}
