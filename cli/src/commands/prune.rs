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
    Action, AppliedThread, ApplyOptions, CodexCli, CompressOptions, Outcome, PlannedThread, Policy,
    PruneLock, PrunePlan, SourceFilter, apply_prune, empty_trash, parse_age, parse_size,
    plan_prune,
};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::inputs::resolve_home;
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

#[derive(Serialize)]
struct ThreadRecord<'a> {
    #[serde(rename = "type")]
    record: &'static str,
    #[serde(flatten)]
    planned: &'a PlannedThread,
    #[serde(skip_serializing_if = "Option::is_none")]
    applied: Option<&'a AppliedThread>,
}

#[derive(Serialize, Default)]
struct Summary {
    #[serde(rename = "type")]
    record: &'static str,
    applied: bool,
    threads_in_home: usize,
    picked: usize,
    acting: usize,
    acting_bytes: u64,
    held: usize,
    done: usize,
    failed: usize,
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
    print_plan(&plan, applied.as_deref(), out)
}

/// Prints `plan` (one line per thread, then a summary), with the outcomes when it was
/// applied; the status says whether any failed. `list --plan` prints the same.
pub(crate) fn print_plan(
    plan: &PrunePlan,
    applied: Option<&[AppliedThread]>,
    out: &mut Output,
) -> CommandResult {
    let apply = applied.is_some();
    let mut summary = Summary {
        record: "summary",
        applied: apply,
        threads_in_home: plan.threads_in_home,
        picked: plan.threads.len(),
        acting: plan.acting().count(),
        acting_bytes: plan.acting_bytes(),
        ..Summary::default()
    };
    for (index, planned) in plan.threads.iter().enumerate() {
        let result = applied.and_then(|all| all.get(index));
        match result.map(|result| &result.outcome) {
            Some(Outcome::Done) => summary.done += 1,
            Some(Outcome::Failed { .. }) => summary.failed += 1,
            Some(Outcome::Held { .. }) => summary.held += 1,
            None if planned.hold.is_some() => summary.held += 1,
            None => {}
        }
        if out.is_json() {
            out.json_line(&ThreadRecord {
                record: "thread",
                planned,
                applied: result,
            })?;
        } else {
            out.line(&human_line(planned, result))?;
        }
    }
    if out.is_json() {
        out.json_line(&summary)?;
    } else {
        let verb = if apply { "acted on" } else { "would act on" };
        out.line(&format!(
            "{verb} {} of {} threads ({}); {} held{}",
            summary.acting,
            summary.threads_in_home,
            human_bytes(summary.acting_bytes),
            summary.held,
            if summary.failed > 0 {
                format!(", {} failed", summary.failed)
            } else {
                String::new()
            }
        ))?;
    }
    Ok(if summary.failed > 0 {
        Status::ContentProblems
    } else {
        Status::Ok
    })
}

/// `du --plan POLICY`: bytes per working directory and per month, with the policy's share.
pub(crate) fn print_storage(
    home: Option<&std::path::Path>,
    policy: &Policy,
    out: &mut Output,
) -> CommandResult {
    let home = resolve_home(home)?;
    let summary = codex_home::storage_summary(&home, policy, SystemTime::now())
        .map_err(|err| Failure::Unreadable(err.to_string()))?;
    if out.is_json() {
        out.json_document(&summary)?;
        return Ok(Status::Ok);
    }
    let verb = policy.action.name();
    let row = |name: &str, row: &codex_home::StorageRow| {
        format!(
            "{:>7} {:>10}  {:>7} {:>10}  {name}",
            row.threads,
            human_bytes(row.bytes),
            row.acting,
            human_bytes(row.acting_bytes)
        )
    };
    for (title, rows) in [
        (
            "working directory",
            summary
                .per_cwd
                .iter()
                .map(|(cwd, r)| (cwd.display().to_string(), r))
                .collect::<Vec<_>>(),
        ),
        (
            "month",
            summary
                .per_month
                .iter()
                .map(|(month, r)| (month.clone(), r))
                .collect(),
        ),
    ] {
        out.line(&format!(
            "{:>7} {:>10}  {:>18}  {title}",
            "threads",
            "bytes",
            format!("would {verb}")
        ))?;
        for (name, r) in rows {
            out.line(&row(&name, r))?;
        }
        out.line(&row("total", &summary.total))?;
        out.line("")?;
    }
    Ok(Status::Ok)
}

fn human_line(planned: &PlannedThread, applied: Option<&AppliedThread>) -> String {
    let action = planned.action.name();
    let hold = |hold: codex_home::Hold| match hold {
        codex_home::Hold::OpenInCodex => "held: open in Codex".to_owned(),
        codex_home::Hold::RecentlyWritten => "held: written recently".to_owned(),
        codex_home::Hold::AlreadyDone => "already done".to_owned(),
        codex_home::Hold::BaseOfFork => "held: a fork's base".to_owned(),
    };
    let state = match (applied.map(|applied| applied.outcome.clone()), planned.hold) {
        (Some(Outcome::Done), _) => match planned.action {
            Action::Compress => "compressed".to_owned(),
            Action::Archive => "archived".to_owned(),
            Action::Delete => "deleted (in the trash)".to_owned(),
            Action::Rescue => match applied.and_then(|applied| applied.moved_to.as_ref()) {
                Some(rescued) => format!("rescued into {}", rescued.display()),
                None => "rescued".to_owned(),
            },
        },
        (Some(Outcome::Failed { error }), _) => format!("{action} failed: {error}"),
        (Some(Outcome::Held { hold: why }), _) | (None, Some(why)) => hold(why),
        (None, None) => format!("would {action}"),
    };
    format!(
        "{state:<22} {:>10}  {}  {}",
        human_bytes(planned.bytes),
        planned.thread_id,
        planned.cwd.display()
    )
}
