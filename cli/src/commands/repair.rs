//! `codex-thread repair [--home DIR] [--apply] [--codex PATH]`: what Codex would show wrongly
//! in a home, each with its reason, and with `--apply` the fixes Codex's own app-server can
//! make. Finding and fixing are codex-home's (`find_repairs`, `apply_repairs`); this module
//! prints (`--json`: one JSON line per finding, then the summary). Exit 1 when something is
//! left to repair.

use std::path::PathBuf;

use clap::Args;
use codex_home::{Finding, Problem, apply_repairs, find_repairs};
use serde_json::json;

use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::Output;

/// `repair`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct RepairArgs {
    /// The Codex home (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Fix what Codex's own app-server can (without: only say what is wrong).
    #[arg(long)]
    pub apply: bool,
    /// The Codex executable whose app-server makes the fixes.
    #[arg(long, value_name = "PATH", default_value = "codex")]
    pub codex: PathBuf,
}

/// What is wrong, in words.
fn described(problem: &Problem) -> String {
    match problem {
        Problem::NoRow => "not in Codex's state: lists that read only its state omit it".to_owned(),
        Problem::Unprojected => "history not projected: Codex opens it empty".to_owned(),
        Problem::ProjectedBehind { projected, size } => {
            format!("history projected to byte {projected} of {size}: the later turns are missing")
        }
        Problem::StaleProjection {
            projected,
            recorded,
        } => {
            format!("projection says complete but holds {projected} of the file's {recorded} items")
        }
        Problem::NameLost { name } => format!("name {name:?} lost from Codex's row"),
        Problem::RowWithoutFile => {
            "Codex's row names a file that is gone: Codex hides it".to_owned()
        }
        Problem::ParentMissing { parent } => {
            format!("continues thread {parent}, which the home lacks: Codex cannot show it")
        }
        Problem::OrdinalsOutOfOrder { line } => {
            format!("ordinals repeat or go backwards at line {line}: Codex skips from there")
        }
        Problem::LastLineWithoutOrdinal => {
            "the last line has no ordinal: Codex cannot resume it".to_owned()
        }
    }
}

fn line_of(finding: &Finding, apply: bool) -> String {
    let fix = match (finding.problem.fixable(), apply) {
        (true, true) => "fixed by Codex",
        (true, false) => "--apply: Codex fixes it",
        (false, _) => "left",
    };
    format!(
        "{}  {}  [{fix}]\n    {}",
        finding.thread_id,
        described(&finding.problem),
        finding.path.display()
    )
}

/// Runs `repair`.
pub(crate) fn run(args: &RepairArgs, out: &mut Output) -> CommandResult {
    let home = resolve_home(args.home.as_deref())?;
    let report = find_repairs(&home).map_err(|error| Failure::Unreadable(error.to_string()))?;
    let registered = match args.apply {
        true => apply_repairs(&report, &home, args.codex.as_os_str())
            .map_err(|error| Failure::Unreadable(error.to_string()))?,
        false => Vec::new(),
    };
    let left = report
        .findings
        .iter()
        .filter(|finding| !(args.apply && finding.problem.fixable()))
        .count();
    for finding in &report.findings {
        match out.is_json() {
            true => out.json_line(finding)?,
            false => out.line(&line_of(finding, args.apply))?,
        }
    }
    if out.is_json() {
        out.json_line(&json!({
            "has_state": report.has_state,
            "schema": report.schema,
            "threads": report.threads,
            "findings": report.findings.len(),
            "registered": registered,
            "left": left,
        }))?;
    } else if !report.has_state {
        out.line("no Codex state in this home: Codex builds it from the files when it starts")?;
    } else {
        out.line(&format!(
            "{} thread(s) looked at, {} finding(s); Codex registered {} thread(s); {left} left",
            report.threads,
            report.findings.len(),
            registered.len()
        ))?;
    }
    Ok(match left {
        0 => Status::Ok,
        _ => Status::ContentProblems,
    })
}
