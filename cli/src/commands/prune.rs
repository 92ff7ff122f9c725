//! `codex-thread prune [--home DIR] [--action compress|archive|delete|rescue] [POLICY...] [--apply]
//! [--codex PATH]` and `prune --empty-trash [--grace AGE]`: the plan of a policy (dry run by
//! default), or its application, with one progress bar.
//!
//! `codex-home`'s `prune` decides and does everything (which threads, what is held, the
//! moves, the calls to Codex); this module turns the arguments into its policy and prints
//! the plan or the outcomes (`--json`: one JSON line per thread, then a summary line).

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use clap::{Args, ValueEnum};
use codex_home::{
    Action, ApplyOptions, CodexCli, CompressOptions, Policy, PruneLock, SourceFilter, apply_prune,
    empty_trash, parse_age, parse_size, plan_prune,
};

use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::Output;
use crate::output::size::human_bytes;
use crate::progress::Progress;

/// `prune`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct PruneArgs {
    /// Codex home (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// What to do to each thread the policy picks.
    #[arg(long, value_enum, default_value = "compress")]
    pub action: ActionArg,
    /// Only threads last written at least this long ago (`30d`, `12h`).
    #[arg(long, value_name = "AGE", value_parser = parse_age)]
    pub older_than: Option<Duration>,
    /// Only threads whose files are larger than this (`500M`, `2G`).
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub larger_than: Option<u64>,
    /// Only threads recorded in this directory or below it.
    #[arg(long, value_name = "DIR")]
    pub cwd: Option<PathBuf>,
    /// Only archived threads.
    #[arg(long, conflicts_with = "live")]
    pub archived: bool,
    /// Only live (not archived) threads.
    #[arg(long)]
    pub live: bool,
    /// Keep the newest N threads of each working directory.
    #[arg(long, value_name = "N")]
    pub keep_last: Option<usize>,
    /// Only threads recorded by this source.
    #[arg(long, value_enum)]
    pub source: Option<SourceArg>,
    /// Never touch a thread written more recently than this.
    #[arg(long, value_name = "AGE", default_value = "10m", value_parser = parse_age)]
    pub idle: Duration,
    /// Do it (without: print the plan, change nothing).
    #[arg(long)]
    pub apply: bool,
    /// The Codex executable that archives and deletes, keeping its state in step.
    #[arg(long, value_name = "PATH", default_value = "codex")]
    pub codex: PathBuf,
    /// Remove trash folders older than --grace (with --apply; else say which).
    #[arg(long)]
    pub empty_trash: bool,
    /// How long deleted sessions stay in the trash.
    #[arg(long, value_name = "AGE", default_value = "7d", value_parser = parse_age)]
    pub grace: Duration,
}

/// `--action`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum ActionArg {
    /// Replace each file by its verified .jsonl.zst.
    Compress,
    /// Archive as Codex archives (`codex archive`).
    Archive,
    /// Move into the home's trash and let Codex forget it (`codex delete`).
    Delete,
    /// Write a new session holding only what resume needs (see `rescue`).
    Rescue,
}

/// `--source`.
#[derive(Debug, Clone, Copy, ValueEnum)]
pub(crate) enum SourceArg {
    /// The terminal UI.
    Cli,
    /// The IDE extension.
    Vscode,
    /// `codex exec`.
    Exec,
    /// Codex as an MCP server.
    Mcp,
    /// Sub-agents.
    Subagent,
}

/// The policy the arguments describe.
pub(crate) fn policy_of(args: &PruneArgs) -> Policy {
    let mut policy = Policy::new(match args.action {
        ActionArg::Compress => Action::Compress,
        ActionArg::Archive => Action::Archive,
        ActionArg::Delete => Action::Delete,
        ActionArg::Rescue => Action::Rescue,
    });
    policy.older_than = args.older_than;
    policy.larger_than = args.larger_than;
    policy.cwd = args.cwd.clone();
    policy.archived = if args.archived {
        Some(true)
    } else if args.live {
        Some(false)
    } else {
        None
    };
    policy.keep_last = args.keep_last;
    policy.source = args.source.map(|source| {
        let word = match source {
            SourceArg::Cli => "cli",
            SourceArg::Vscode => "vscode",
            SourceArg::Exec => "exec",
            SourceArg::Mcp => "mcp",
            SourceArg::Subagent => "subagent",
        };
        // Every word above is a kind the filter knows.
        SourceFilter::of_policy_word(word).unwrap_or_default()
    });
    policy.min_idle = args.idle;
    policy
}

/// Runs `prune`.
pub(crate) fn run(args: &PruneArgs, out: &mut Output) -> CommandResult {
    let home = resolve_home(args.home.as_deref())?;
    // Changing the home: one prune at a time, the plan made under the lock too.
    let lock = if args.apply {
        let lock = PruneLock::acquire(&home, |path| {
            crate::output::note(&format!(
                "waiting for another prune of this home to finish (it holds {})",
                path.display()
            ));
        })
        .map_err(|err| Failure::Unreadable(err.to_string()))?;
        Some(lock)
    } else {
        None
    };
    if args.empty_trash {
        let report = empty_trash(&home, args.grace, SystemTime::now(), lock.as_ref())
            .map_err(|err| Failure::Unreadable(err.to_string()))?;
        if out.is_json() {
            out.json_line(&report)?;
        } else {
            for folder in &report.folders {
                let verb = match (folder.expired, args.apply) {
                    (true, true) => "removed",
                    (true, false) => "would remove",
                    (false, _) => "kept",
                };
                out.line(&format!(
                    "{verb:>12} {:>10}  {}",
                    human_bytes(folder.bytes),
                    folder.path.display()
                ))?;
            }
        }
        return Ok(Status::Ok);
    }
    let policy = policy_of(args);
    let plan = plan_prune(&home, &policy, SystemTime::now())
        .map_err(|err| Failure::Unreadable(err.to_string()))?;
    let applied = if let Some(lock) = &lock {
        let progress = Progress::for_bytes(plan.acting_bytes(), "prune");
        let options = ApplyOptions {
            codex: Some(CodexCli::new(args.codex.as_os_str())),
            compress: CompressOptions::default(),
            min_idle: args.idle,
        };
        let applied = apply_prune(&home, &plan, &options, lock, &|bytes| {
            progress.inc(bytes);
        });
        drop(progress);
        Some(applied)
    } else {
        None
    };
    crate::output::plan::print_plan(&plan, applied.as_deref(), out)
}
