//! The report of a differential run: what each check found when this project and a real
//! Codex were compared on one case.
//!
//! `cargo xtask real-codex diff --version V` runs the differential tests against Codex `V`
//! with `CODEX_DIFF_REPORT=FILE` set, then prints `FILE` as a table. The format is JSON
//! Lines, one object per comparison, appended as the tests go:
//!
//! ```text
//! {"check":"history","case":"exec_then_message","result":"equal"}
//! {"check":"thread/read","case":"fork","result":"documented: forks copy nothing (docs/x.md)"}
//! {"check":"thread/read","case":"compaction","result":"differs: $.turns: length ours 2 != theirs 3"}
//! ```
//!
//! `result` is `equal`, `documented: WHY` (a known, written-down difference) or
//! `differs: WHERE` ([`DiffOutcome`]). Without the variable, recording does nothing.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// The variable naming the report file.
pub const DIFF_REPORT_ENV: &str = "CODEX_DIFF_REPORT";

/// What one comparison found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DiffOutcome {
    /// The same.
    Equal,
    /// Different, in a way that is written down (the text says why or where).
    Documented(String),
    /// Different, unexplained (the text says where).
    Differs(String),
}

impl fmt::Display for DiffOutcome {
    /// `equal`, `documented: WHY`, `differs: WHERE`: the report's `result`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DiffOutcome::Equal => f.write_str("equal"),
            DiffOutcome::Documented(why) => write!(f, "documented: {why}"),
            DiffOutcome::Differs(what) => write!(f, "differs: {what}"),
        }
    }
}

/// One line of a report.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffRecord {
    /// What was compared (e.g. `history`, `thread/read`).
    pub check: String,
    /// On which scripted session.
    pub case: String,
    /// The outcome as written ([`DiffOutcome`]'s text).
    pub result: String,
}

/// Appends comparisons to the report file, when there is one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DiffReport {
    path: Option<PathBuf>,
}

impl DiffReport {
    /// The report `CODEX_DIFF_REPORT` names; a report that records nothing when it is unset
    /// or empty.
    pub fn from_env() -> DiffReport {
        DiffReport::at(
            std::env::var_os(DIFF_REPORT_ENV)
                .filter(|path| !path.is_empty())
                .map(PathBuf::from),
        )
    }

    /// A report written to `path` (nothing when `None`).
    pub fn at(path: Option<PathBuf>) -> DiffReport {
        DiffReport { path }
    }

    /// The file, if this report writes one.
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Appends `{"check","case","result"}` as one line (one write, so parallel tests do not
    /// interleave their lines).
    ///
    /// # Errors
    ///
    /// When the file cannot be opened or written.
    pub fn record(&self, check: &str, case: &str, outcome: &DiffOutcome) -> io::Result<()> {
        let Some(path) = &self.path else {
            return Ok(());
        };
        let mut line =
            json!({ "check": check, "case": case, "result": outcome.to_string() }).to_string();
        line.push('\n');
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?
            .write_all(line.as_bytes())
    }
}

/// The records of a report file, in order, and (second) the text of each non-empty line
/// that is not a record.
///
/// # Errors
///
/// When the file cannot be read.
pub fn read_diff_report(path: &Path) -> io::Result<(Vec<DiffRecord>, Vec<String>)> {
    let text = std::fs::read_to_string(path)?;
    let mut records = Vec::new();
    let mut bad = Vec::new();
    for line in text.lines().filter(|line| !line.trim().is_empty()) {
        let value: Option<Value> = serde_json::from_str(line).ok();
        let field = |name: &str| {
            value
                .as_ref()
                .and_then(|value| value.get(name))
                .and_then(Value::as_str)
                .map(str::to_owned)
        };
        match (field("check"), field("case"), field("result")) {
            (Some(check), Some(case), Some(result)) => records.push(DiffRecord {
                check,
                case,
                result,
            }),
            _ => bad.push(line.to_owned()),
        }
    }
    Ok((records, bad))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_are_appended_and_read_back() -> Result<(), Box<dyn std::error::Error>> {
        let dir = tempfile::tempdir()?;
        let path = dir.path().join("report.jsonl");
        let report = DiffReport::at(Some(path.clone()));
        report.record("history", "one", &DiffOutcome::Equal)?;
        report.record("thread/read", "two", &DiffOutcome::Differs("$.a".into()))?;
        std::fs::write(
            dir.path().join("other.jsonl"),
            std::fs::read_to_string(&path)? + "not json\n",
        )?;
        let (records, bad) = read_diff_report(&dir.path().join("other.jsonl"))?;
        assert_eq!(records.len(), 2);
        assert_eq!(records[1].result, "differs: $.a");
        assert_eq!(records[0].check, "history");
        assert_eq!(bad, vec!["not json".to_owned()]);
        Ok(())
    }

    #[test]
    fn without_a_file_nothing_is_recorded() -> io::Result<()> {
        let report = DiffReport::at(None);
        report.record("x", "y", &DiffOutcome::Documented("z".into()))?;
        assert_eq!(report.path(), None);
        Ok(())
    }
}
