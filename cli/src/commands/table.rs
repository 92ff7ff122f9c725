//! `codex-thread table [--home DIR] -o DIR [--person NAME] [--with-text] [--redact]`: a home's
//! sessions as Parquet tables (threads, turns, items, token usage) partitioned by day (and by
//! person in a team's shared folder), for DuckDB, Spark and Trino.
//!
//! codex-home decides everything (`write_tables`: the rows, the incremental rule, the atomic
//! partitions; see docs/tables.md); this module draws a spinner and prints what the run
//! wrote, or one JSON object with `--json`.

use std::path::PathBuf;

use clap::Args;
use codex_home::{TableOptions, TableRun, write_tables};
use serde::Serialize;

use crate::damaged::DamagedFiles;
use crate::error::{CommandResult, Failure, Status};
use crate::output::{Output, note};
use crate::progress::Progress;

/// `table`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct TableArgs {
    /// Codex home (default: `$CODEX_HOME`, else `~/.codex`).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Output folder: `threads/`, `turns/`, `items/`, `token_usage/` and `manifest.json`.
    #[arg(
        short = 'o',
        long = "output",
        visible_alias = "out",
        value_name = "DIR"
    )]
    pub output: PathBuf,
    /// Write a team's layout, as this person: `DIR/<table>/person=NAME/day=…`, so that many
    /// people export into one shared folder or bucket, each into their own partitions.
    #[arg(long, value_name = "NAME")]
    pub person: Option<String>,
    /// Keep each item's text in `items.text` (otherwise only its length).
    #[arg(long)]
    pub with_text: bool,
    /// Mask secrets, e-mail addresses, home paths and host names in text, commands, paths
    /// and names, with `export --redact`'s rules.
    #[arg(long)]
    pub redact: bool,
}

#[derive(Serialize)]
struct Summary<'a> {
    output: String,
    person: Option<&'a str>,
    threads: usize,
    changed: usize,
    reread: usize,
    recognised: usize,
    removed: usize,
    partitions_written: usize,
    partitions_removed: usize,
    rows: &'a std::collections::BTreeMap<&'static str, u64>,
    redacted: Option<Vec<(String, usize)>>,
    damaged: serde_json::Value,
}

/// Runs `table`.
pub(crate) fn run(args: &TableArgs, out: &mut Output) -> CommandResult {
    // Checked before anything is written: a bad home gets no manifest.
    let home = crate::input::resolve_home(args.home.as_deref())?;
    let options = TableOptions {
        with_text: args.with_text,
        redact: args.redact,
        person: args.person.clone(),
    };
    let progress = Progress::spinner(u64::MAX, "writing tables");
    let run = write_tables(&home, &args.output, &options, &|bytes| progress.inc(bytes))
        .map_err(|error| Failure::Unreadable(error.to_string()))?;
    drop(progress);
    if let Some(report) = &run.redaction {
        note(&format!("redacted: {}", report.summary()));
    }
    let mut damaged = DamagedFiles::default();
    for (path, damage) in &run.damaged {
        damaged.note(&path.display().to_string(), damage);
    }
    if out.is_json() {
        out.json_line(&summary(args, &run, &damaged))?;
    } else {
        render(args, &run, out)?;
    }
    Ok(damaged.status(Status::Ok))
}

fn summary<'a>(args: &'a TableArgs, run: &'a TableRun, damaged: &DamagedFiles) -> Summary<'a> {
    Summary {
        output: args.output.display().to_string(),
        person: args.person.as_deref(),
        threads: run.threads,
        changed: run.changed,
        reread: run.reread,
        recognised: run.recognised,
        removed: run.removed,
        partitions_written: run.partitions.written,
        partitions_removed: run.partitions.removed,
        rows: &run.rows,
        redacted: run.redaction.as_ref().map(|report| report.counts.clone()),
        damaged: damaged.to_json(),
    }
}

fn render(args: &TableArgs, run: &TableRun, out: &mut Output) -> Result<(), Failure> {
    let output = args.output.display();
    if run.wrote_nothing() {
        let moved = match run.recognised {
            0 => String::new(),
            moved => format!("; {moved} recognised as moved or compressed"),
        };
        out.line(&format!(
            "{output}: up to date ({} thread(s), nothing changed{moved})",
            run.threads
        ))?;
        return Ok(());
    }
    out.line(&format!(
        "{output}: {} thread(s); {} new or changed, {} read again for shared days, {} \
         recognised as moved or compressed, {} removed",
        run.threads, run.changed, run.reread, run.recognised, run.removed
    ))?;
    out.line(&format!(
        "partitions: {} written, {} removed",
        run.partitions.written, run.partitions.removed
    ))?;
    for (table, rows) in &run.rows {
        out.line(&format!("  {table:<12}{rows:>10} row(s)"))?;
    }
    Ok(())
}
