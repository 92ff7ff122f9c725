//! `codex-thread inspect [FILE|DIR|-]... [--home DIR]`: what session files hold, at a glance.
//!
//! Each file is read as a stream ([`crate::streamed`]): lines are parsed and counted one at
//! a time, so memory is bounded by the longest line whatever the file's size. Several files
//! are inspected in parallel, with one progress bar for the whole run on a terminal; `--json`
//! prints one object per file (JSON Lines), in the order the files were named.

use std::collections::BTreeMap;

use rayon::prelude::*;
use serde::Serialize;

use codex_home::{Inspection, inspect_input};

use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, one_line};
use crate::progress::Progress;
use crate::streamed::{SourceInput, source_size};

/// One file's line of `inspect --json`: its name, then the inspection's keys.
#[derive(Debug, Serialize)]
struct FileInspection<'a> {
    file: &'a str,
    #[serde(flatten)]
    inspection: &'a Inspection,
}

/// Inspects `source` as a stream ([`inspect_input`]), advancing `progress`; a second count
/// of its turns, when one is needed, shows none.
pub(crate) fn inspect_source(source: &Source, progress: &Progress) -> Result<Inspection, Failure> {
    let hidden = Progress::hidden();
    let recount = SourceInput::new(source, &hidden);
    Ok(inspect_input(
        &SourceInput::new(source, progress),
        &recount,
    )?)
}

/// Runs `inspect` over `sources`. One source that cannot be inspected is the command's
/// failure; with several, each failure is reported in its place and the worst status wins.
pub(crate) fn run(sources: &[Source], out: &mut Output) -> CommandResult {
    let total = sources.iter().map(source_size).sum();
    let progress = Progress::for_bytes(total, "inspecting");
    let results: Vec<Result<Inspection, Failure>> = sources
        .par_iter()
        .map(|source| inspect_source(source, &progress))
        .collect();
    drop(progress);
    let single = sources.len() == 1;
    let mut status = Status::Ok;
    for (source, result) in sources.iter().zip(results) {
        let name = source.name();
        match result {
            Ok(inspection) if out.is_json() => out.json_line(&FileInspection {
                file: &name,
                inspection: &inspection,
            })?,
            Ok(inspection) => {
                if !single {
                    out.line("")?;
                }
                render(&name, &inspection, out)?;
            }
            Err(failure) if single => return Err(failure),
            Err(failure) => {
                status = crate::output::report_failure(out, status, "file", &name, &failure)?
            }
        }
    }
    Ok(status)
}

/// Widest label column, so values start at the same column.
const LABEL: usize = 14;

fn render(
    name: &str,
    inspection: &Inspection,
    out: &mut Output,
) -> Result<(), crate::error::Failure> {
    out.line(&one_line(name, 78))?;
    let field = |label: &str, value: String| format!("  {label:<LABEL$}{value}");
    let unknown = || "(unknown)".to_string();
    out.line(&field(
        "thread id",
        inspection.thread_id.clone().unwrap_or_else(unknown),
    ))?;
    out.line(&field(
        "cli version",
        inspection.cli_version.clone().unwrap_or_else(unknown),
    ))?;
    let problems = match inspection.problems.len() {
        0 => "no problems".to_string(),
        n => format!("{n} problem line(s)"),
    };
    out.line(&field("lines", format!("{}, {problems}", inspection.lines)))?;
    out.line(&field("turns", inspection.turns.to_string()))?;
    if inspection.user_messages != inspection.turns {
        out.line(&field(
            "user messages",
            inspection.user_messages.to_string(),
        ))?;
    }
    if let Some(mode) = &inspection.history_mode {
        out.line(&field("history mode", mode.clone()))?;
    }
    if let Some(base) = &inspection.history_base {
        let end = match (base.end_byte_offset, base.end_ordinal_exclusive) {
            (Some(bytes), _) => format!("its first {bytes} bytes"),
            (None, Some(ordinal)) => format!("ordinals below {ordinal}"),
            (None, None) => "(no end given)".to_string(),
        };
        out.line(&one_line(
            &field("based on", format!("{} ({end})", base.thread_id)),
            78,
        ))?;
    }
    if let Some(copied) = &inspection.copied_from_parent {
        out.line(&field(
            "copied",
            format!(
                "lines {}-{} of parent {}",
                copied.lines[0], copied.lines[1], copied.thread_id
            ),
        ))?;
    }
    match &inspection.tokens {
        Some(tokens) => {
            out.line(&field("tokens", format!("{} total", tokens.total)))?;
            out.line(&field(
                "",
                format!(
                    "{} in ({} cached), {} out ({} reasoning)",
                    tokens.input, tokens.cached_input, tokens.output, tokens.reasoning_output
                ),
            ))?;
        }
        None => out.line(&field("tokens", "(not recorded)".to_string()))?,
    }
    out.line(&field("compactions", inspection.compactions.to_string()))?;
    out.line(&field("rollbacks", inspection.rollbacks.to_string()))?;

    counts(out, "lines by type", &inspection.line_types)?;
    let mut items = BTreeMap::new();
    for (line_type, types) in &inspection.item_types {
        for (item_type, count) in types {
            items.insert(format!("{line_type}/{item_type}"), *count);
        }
    }
    counts(out, "items by type", &items)?;
    counts(out, "tool calls", &inspection.tool_calls)?;
    if !inspection.unanswered_calls.is_empty() {
        out.line("")?;
        out.line("calls without output")?;
        for call in &inspection.unanswered_calls {
            let call_text = one_line(&format!("{}  {}", call.name, call.call_id), 64);
            out.line(&format!("  line {:<8}{call_text}", call.line))?;
        }
    }
    if !inspection.problems.is_empty() {
        out.line("")?;
        out.line("problems")?;
        for problem in &inspection.problems {
            let text = one_line(&format!("{}: {}", problem.kind, problem.message), 64);
            out.line(&format!("  line {:<8}{text}", problem.line))?;
        }
    }
    Ok(())
}

fn counts(
    out: &mut Output,
    title: &str,
    counts: &BTreeMap<String, usize>,
) -> Result<(), crate::error::Failure> {
    if counts.is_empty() {
        return Ok(());
    }
    out.line("")?;
    out.line(title)?;
    for (name, count) in counts {
        out.line(&format!("  {:<64}{count:>8}", one_line(name, 63)))?;
    }
    Ok(())
}
