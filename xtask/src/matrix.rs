//! `cargo xtask real-codex matrix [--versions V,…] [--reader V]`: the version matrix. Each
//! release in turn (installed under `<target>/real-codex/` when missing) writes the suite's
//! scenarios (a chat, a command with a resumed turn, a compaction and a turn after it) with
//! the scripted model answering in the shapes that release offers, and the reader (the pinned
//! Codex unless `--reader` names another) reads and resumes them; the test `version_matrix`
//! compares our `thread`, `usage`, `prompt` and `history` with it. The report of every release
//! is printed as one table, writer × scenario × check, each cell equal, documented or differs,
//! then the documented reasons. CI runs one old release (`CI_WRITER_CODEX_VERSION`) through
//! the same test; the whole matrix runs on demand, and its last table is in
//! `docs/compat-real-codex.md`.

use std::collections::BTreeMap;
use std::path::Path;

use anyhow::{Context, Result, bail};
use codex_test_support::{
    DIFF_REPORT_ENV, DiffRecord, REAL_CODEX_BIN_ENV, REQUIRE_REAL_CODEX_ENV, WRITER_CODEX_BIN_ENV,
    read_diff_report,
};

/// The test the matrix runs for each release.
const MATRIX_TEST: &str = "version_matrix";

/// The checks of a row, in the table's column order.
const CHECKS: [&str; 4] = ["thread", "thread, imported", "usage", "prompt, history"];

/// Runs the matrix over `versions`, each read by Codex `reader` (the pin by default); fails
/// when a release could not be installed or one of its answers differs.
pub(crate) fn run(versions: &[String], reader_version: &str) -> Result<()> {
    let reader = crate::real_codex::ensure(reader_version)?;
    let root = crate::ci::workspace_root()?;
    let report =
        crate::real_codex::fresh_report(&format!("matrix-read-by-{reader_version}.jsonl"))?;
    let reader_text = reader.display().to_string();
    let report_text = report.display().to_string();
    let mut failed = Vec::new();
    for version in versions {
        let writer = crate::real_codex::ensure(version)?.display().to_string();
        let ran = crate::ci::step_with_env(
            &root,
            &format!("Codex {version} writes, Codex {reader_version} reads"),
            "cargo",
            &["test", "-p", "codex-thread", "--test", "it", MATRIX_TEST],
            &[
                (WRITER_CODEX_BIN_ENV, writer.as_str()),
                (REAL_CODEX_BIN_ENV, reader_text.as_str()),
                (REQUIRE_REAL_CODEX_ENV, "1"),
                (DIFF_REPORT_ENV, report_text.as_str()),
            ],
        );
        if let Err(error) = ran {
            failed.push(format!("{version}: {error}"));
        }
    }
    print_matrix(&report)?;
    if !failed.is_empty() {
        bail!("the matrix failed for {}", failed.join("; "));
    }
    Ok(())
}

/// The report as a Markdown table (writer × scenario, a column per check), then each
/// documented reason once.
#[allow(clippy::print_stdout)] // The command's answer goes to stdout.
fn print_matrix(report: &Path) -> Result<()> {
    if !report.exists() {
        bail!("the matrix test recorded nothing in {}", report.display());
    }
    let (records, bad) = read_diff_report(report)
        .with_context(|| format!("could not read the report {}", report.display()))?;
    if let Some(line) = bad.first() {
        bail!("not a report line in {}: {line}", report.display());
    }
    for line in matrix_lines(&records) {
        println!("{line}");
    }
    Ok(())
}

/// The lines [`print_matrix`] prints.
fn matrix_lines(records: &[DiffRecord]) -> Vec<String> {
    // (writer, scenario) -> check -> result, in the order the report records them.
    let mut rows: Vec<((String, String), BTreeMap<String, String>)> = Vec::new();
    let mut reasons: Vec<String> = Vec::new();
    for record in records {
        let Some((writer, check)) = record
            .check
            .strip_prefix("matrix ")
            .and_then(|rest| rest.split_once(": "))
        else {
            continue;
        };
        let key = (writer.to_owned(), record.case.clone());
        let (kind, why) = match record.result.split_once(": ") {
            Some((kind, why)) => (kind, Some(why)),
            None => (record.result.as_str(), None),
        };
        if let (Some(why), "documented") = (why, kind) {
            for reason in why.split("; ") {
                if !reasons.iter().any(|known| known == reason) {
                    reasons.push(reason.to_owned());
                }
            }
        }
        let cell = match (kind, why) {
            ("differs", Some(why)) => format!("differs: {}", why.lines().next().unwrap_or("")),
            _ => kind.to_owned(),
        };
        match rows.iter_mut().find(|(known, _)| *known == key) {
            Some((_, checks)) => {
                checks.insert(check.to_owned(), cell);
            }
            None => rows.push((key, BTreeMap::from([(check.to_owned(), cell)]))),
        }
    }
    let mut lines = vec![
        format!("| writer | scenario | {} |", CHECKS.join(" | ")),
        format!("|---|---|{}", "---|".repeat(CHECKS.len())),
    ];
    for ((writer, scenario), checks) in &rows {
        let cells: Vec<&str> = CHECKS
            .iter()
            .map(|check| checks.get(*check).map_or("not run", String::as_str))
            .collect();
        lines.push(format!("| {writer} | {scenario} | {} |", cells.join(" | ")));
    }
    lines.push(String::new());
    lines.push("Documented:".to_owned());
    lines.extend(reasons.iter().map(|reason| format!("- {reason}")));
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(check: &str, case: &str, result: &str) -> DiffRecord {
        DiffRecord {
            check: check.into(),
            case: case.into(),
            result: result.into(),
        }
    }

    #[test]
    fn one_row_per_writer_and_scenario_with_each_reason_once() {
        let lines = matrix_lines(&[
            record("matrix 0.58.0: thread", "chat", "documented: a; b"),
            record("matrix 0.58.0: usage", "chat", "equal"),
            record("matrix 0.58.0: thread", "compaction", "documented: b"),
            record(
                "matrix 0.58.0: prompt, history",
                "compaction",
                "differs: x\ny",
            ),
            record("serve thread/list", "other", "equal"),
        ]);
        assert_eq!(
            lines,
            [
                "| writer | scenario | thread | thread, imported | usage | prompt, history |",
                "|---|---|---|---|---|---|",
                "| 0.58.0 | chat | documented | not run | equal | not run |",
                "| 0.58.0 | compaction | documented | not run | not run | differs: x |",
                "",
                "Documented:",
                "- a",
                "- b",
            ]
        );
    }
}
