//! Every problem of every line of a session file, as `codex-thread validate` reports them.
//!
//! A line is a problem when it could not be read as a rollout line (blank, not UTF-8, not
//! JSON, truncated, missing the envelope, a payload that does not fit its kind); the lines the
//! loader keeps without understanding them (a line or payload type newer than this tool) are
//! notes. A damaged compressed stream is the last problem, after those of the lines before the
//! damage. A file of blank lines only is one problem (`empty`) and no note; a file with items
//! but no session meta gets a note (`no_session_meta`, line 0: the whole file).

use codex_rollout::{ProblemKind, RolloutStream};

use crate::{ProblemReport, SessionInput};

/// What [`validate_input`] found in one input.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Validation {
    /// Lines in the input (those before the damage of a damaged compressed stream).
    pub lines: usize,
    /// Lines that could not be read, in order, and problems of the whole input (line 0).
    pub problems: Vec<ProblemReport>,
    /// Lines kept without being understood, and remarks on the whole input (line 0).
    pub notes: Vec<ProblemReport>,
}

/// Reads `input` as a stream (memory bounded by its longest line), parsing chunks of it in
/// parallel, and reports every problem and note of its lines. Fails only when the input could
/// not be opened or read.
pub fn validate_input(input: &dyn SessionInput) -> std::io::Result<Validation> {
    let stream = RolloutStream::new(input.open(None)?)?;
    let mut report = Validation::default();
    let mut blank = true;
    let mut damaged = false;
    let mut items = false;
    let mut session_meta = false;
    stream.for_each_line_parallel(|line| {
        if let Some(problem) = &line.problem {
            if problem.kind == ProblemKind::Damaged {
                damaged = true;
            } else {
                report.lines = line.number;
            }
            if problem.kind.is_unreadable() {
                report.problems.push(problem.into());
            } else {
                report.notes.push(problem.into());
            }
        } else {
            report.lines = line.number;
        }
        if !damaged {
            blank &= line.raw.iter().all(u8::is_ascii_whitespace);
        }
        if let Some(rollout_line) = line.line() {
            items = true;
            session_meta |= rollout_line.item.session_meta().is_some();
        }
    })?;
    if blank && !damaged {
        report.problems = vec![ProblemReport {
            line: 0,
            kind: "empty",
            message: "the file is empty: it holds no rollout lines".to_string(),
        }];
        report.notes.clear();
    } else if !session_meta && items {
        report.notes.push(ProblemReport {
            line: 0,
            kind: "no_session_meta",
            message: "no session_meta line: the thread id is unknown, so the file cannot be \
                      resumed or forked"
                .to_string(),
        });
    }
    Ok(report)
}

#[cfg(test)]
#[path = "validate_tests.rs"]
mod tests;
