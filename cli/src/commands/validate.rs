//! `codex-thread validate [FILE|DIR|-]... [--home DIR]`: every problem of every line, with file
//! and line number.
//!
//! A line is a problem when it could not be read as a rollout line (blank, not UTF-8, not
//! JSON, truncated, missing the envelope, a payload that does not fit its kind). Lines the
//! loader keeps without understanding them (a line or payload type newer than this tool) are
//! not problems: they are listed as notes, and so is a file without a session meta. A
//! compressed file (`.jsonl.zst`) is checked as the plain one; when its compressed stream is
//! damaged, the lines before the damage are checked and the damage is the last problem
//! (`damaged`). Files are read as streams (memory bounded by the longest line) and checked
//! in parallel, with one progress bar for the run on a terminal. Exit code: 0 when every line
//! of every file was read, 1 when some line had a problem (or a file was empty or damaged), 2
//! when some file could not be read at all.

use serde::Serialize;

use rayon::prelude::*;

use crate::error::{CommandResult, Failure, Status};
use crate::input::Source;
use crate::output::{Output, sanitize_text};
use crate::progress::Progress;
use crate::streamed::{SourceInput, source_size, unreadable};
use codex_home::{ProblemReport, validate_input};

/// The report of one file, as `--json` prints it (one object per line).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct FileReport {
    /// The file as given (`<stdin>` for `-`).
    pub file: String,
    /// Lines in the file; `null` when it could not be read.
    pub lines: Option<usize>,
    /// Lines that could not be read, in order.
    pub problems: Vec<ProblemReport>,
    /// Lines kept without being understood, and file-level remarks (line 0).
    pub notes: Vec<ProblemReport>,
    /// Why the file could not be read, when it could not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

impl FileReport {
    fn status(&self) -> Status {
        if self.error.is_some() {
            Status::Unreadable
        } else if self.problems.is_empty() {
            Status::Ok
        } else {
            Status::ContentProblems
        }
    }
}

/// Checks one source ([`validate_input`]), advancing `progress` by its bytes.
pub(crate) fn validate_source(source: &Source, progress: &Progress) -> FileReport {
    let file = source.name();
    match validate_input(&SourceInput::new(source, progress)) {
        Ok(found) => FileReport {
            file,
            lines: Some(found.lines),
            problems: found.problems,
            notes: found.notes,
            error: None,
        },
        Err(err) => FileReport {
            error: Some(unreadable(&file, &err).to_string()),
            file,
            lines: None,
            problems: Vec::new(),
            notes: Vec::new(),
        },
    }
}

/// Runs `validate` over `sources`, in parallel, reporting in the order given; the worst
/// status wins (unreadable over problems).
pub(crate) fn run(sources: &[Source], out: &mut Output) -> CommandResult {
    let total = sources.iter().map(source_size).sum();
    let progress = Progress::for_bytes(total, "validating");
    let reports: Vec<FileReport> = sources
        .par_iter()
        .map(|source| validate_source(source, &progress))
        .collect();
    drop(progress);
    let mut status = Status::Ok;
    let mut with_problems = 0;
    for report in &reports {
        status = status.max(report.status());
        if report.status() != Status::Ok {
            with_problems += 1;
        }
        if out.is_json() {
            out.json_line(report)?;
        } else {
            render(report, out)?;
        }
    }
    if !out.is_json() && sources.len() > 1 {
        out.line(&format!(
            "{} file(s) checked, {with_problems} with problems",
            sources.len()
        ))?;
    }
    Ok(status)
}

/// Human report of one file: each problem and note as one `FILE:LINE: kind: message` line
/// (the form editors, `grep -n` users and compilers share, so it is never wrapped; a problem
/// of the whole file has no line number), then the file's verdict.
fn render(report: &FileReport, out: &mut Output) -> Result<(), Failure> {
    let file = &report.file;
    if let Some(error) = &report.error {
        return out.line(&format!("{file}: unreadable: {error}"));
    }
    let notes = report.notes.iter().map(|note| (note, "note: "));
    for (problem, prefix) in report.problems.iter().map(|p| (p, "")).chain(notes) {
        let at = match problem.line {
            0 => file.clone(),
            line => format!("{file}:{line}"),
        };
        let cause = format!("{prefix}{}: {}", problem.kind, problem.message);
        out.line(&sanitize_text(&format!("{at}: {cause}")))?;
    }
    let lines = report.lines.unwrap_or_default();
    let verdict = match report.problems.len() {
        0 => "every line read".to_string(),
        n => format!("{n} problem(s)"),
    };
    out.line(&format!("{file}: {lines} line(s), {verdict}"))
}
