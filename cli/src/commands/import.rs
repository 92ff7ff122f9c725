//! `codex-thread import SOURCE... [--home DEST] [--codex PATH] [--new-copy] [--plan]`: sessions
//! from another home, a backup or a folder brought into a home so that Codex sees them.
//!
//! What is done with each file, and all of the doing (the copies, Codex's registration of
//! each thread through its own app-server), is codex-home's (`plan_import`, `apply_import`);
//! this module prints the plan and the outcome (`--json`: one JSON line per file, then the
//! report).

use std::path::PathBuf;

use clap::Args;
use codex_home::{ImportOptions, PlannedAction, PlannedFile, apply_import, plan_import};

use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::Output;

/// `import`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct ImportArgs {
    /// Session files, folders of them, Codex homes (live and archived sessions, and the
    /// names their `session_index.jsonl` gives), or `.tar` / `.tar.zst` archives of these.
    #[arg(value_name = "SOURCE", required = true)]
    pub sources: Vec<PathBuf>,
    /// The Codex home to import into (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// The Codex executable whose app-server registers the threads.
    #[arg(long, value_name = "PATH", default_value = "codex")]
    pub codex: PathBuf,
    /// Import a session whose thread the home already has as a new thread (a new id).
    #[arg(long)]
    pub new_copy: bool,
    /// Print what would be done, and do nothing.
    #[arg(long)]
    pub plan: bool,
}

/// What the plan says of a file, in words.
fn described(file: &PlannedFile) -> String {
    match &file.action {
        PlannedAction::Copy => format!("copy      -> {}", file.target.display()),
        PlannedAction::AlreadyThere => format!("there     {}", file.target.display()),
        PlannedAction::NewCopy { existing } => {
            format!("new copy  (thread in the home at {})", existing.display())
        }
        PlannedAction::InHome { existing } => {
            format!("left      (thread in the home at {})", existing.display())
        }
        PlannedAction::MissingParent { parent } => {
            format!("held      (it continues thread {parent}, in neither the sources nor the home)")
        }
        PlannedAction::BeingWritten => "held      (a running Codex is writing it)".to_owned(),
        PlannedAction::Unreadable { reason } => format!("left      (unreadable: {reason})"),
    }
}

/// Runs `import`.
pub(crate) fn run(args: &ImportArgs, out: &mut Output) -> CommandResult {
    let home = resolve_home(args.home.as_deref())?;
    let options = ImportOptions {
        new_copy_of_known: args.new_copy,
    };
    let plan = plan_import(&args.sources, &home, options)
        .map_err(|error| Failure::Unreadable(error.to_string()))?;
    for file in &plan.files {
        if out.is_json() {
            out.json_line(file)?;
        } else {
            out.line(&format!("{}  {}", file.source.display(), described(file)))?;
        }
    }
    if args.plan {
        return Ok(Status::Ok);
    }
    let report = apply_import(&plan, &home, args.codex.as_os_str(), &|_| {})
        .map_err(|error| Failure::Unreadable(error.to_string()))?;
    if out.is_json() {
        out.json_line(&report)?;
    } else {
        let projected = report
            .threads
            .iter()
            .filter(|thread| thread.projected)
            .count();
        let named = report
            .threads
            .iter()
            .filter(|thread| thread.named.is_some())
            .count();
        out.line(&format!(
            "imported {} file(s) ({} already there, {} new copies, {} left); Codex registered {} \
             thread(s): {projected} projected, {} read, {named} named",
            report.copied,
            report.already_there,
            report.new_copies,
            report.left,
            report.threads.len(),
            report.threads.len() - projected,
        ))?;
    }
    Ok(Status::Ok)
}
