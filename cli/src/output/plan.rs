//! How a prune plan is printed (one line per thread, then a summary; `--json`: one JSON line
//! per thread, then a summary line) and a home's storage by what a policy would do: shared by
//! `prune`, `list --plan` and `du --plan`.

use std::time::SystemTime;

use codex_home::{Action, AppliedThread, Outcome, PlanSummary, PlannedThread, Policy, PrunePlan};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::Output;
use crate::output::size::human_bytes;

/// A thread of the plan, as `--json` prints it: with its outcome once applied.
#[derive(Serialize)]
struct ThreadRecord<'a> {
    #[serde(flatten)]
    planned: &'a PlannedThread,
    #[serde(skip_serializing_if = "Option::is_none")]
    applied: Option<&'a AppliedThread>,
}

/// Prints `plan` (one line per thread, then a summary), with the outcomes when it was
/// applied; the status says whether any failed. `list --plan` prints the same.
pub(crate) fn print_plan(
    plan: &PrunePlan,
    applied: Option<&[AppliedThread]>,
    out: &mut Output,
) -> CommandResult {
    let summary = PlanSummary::of(plan, applied);
    for (index, planned) in plan.threads.iter().enumerate() {
        let result = applied.and_then(|all| all.get(index));
        if out.is_json() {
            let record = ThreadRecord {
                planned,
                applied: result,
            };
            out.json_record("thread", &record)?;
        } else {
            out.line(&human_line(planned, result))?;
        }
    }
    if out.is_json() {
        out.json_record("summary", &summary)?;
    } else {
        let verb = if summary.applied {
            "acted on"
        } else {
            "would act on"
        };
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
