//! The real Codex CLI the differential tests run: installed from the npm registry into the
//! target folder, and compared across versions.
//!
//! - `cargo xtask real-codex install [--version V]`: `npm install` of `@openai/codex@V`
//!   (default the pin, `codex_test_support::PINNED_CODEX_VERSION`) under
//!   `<target>/real-codex/V` when its binary is missing; prints the binary's path.
//!   `cargo xtask ci` does the same before its test step and sets `CODEX_REAL_BIN` and
//!   `CODEX_REQUIRE_REAL_CODEX=1`, so the real-Codex tests run there or fail.
//! - `cargo xtask real-codex diff --version V`: installs `V` and runs the differential tests
//!   (`cargo test -p codex-thread --test it real_codex`) against it with
//!   `CODEX_DIFF_REPORT` set, then prints the report (`codex_test_support::DiffReport`'s
//!   format) as a table: what a new Codex release changes, before the pin moves.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use codex_test_support::{
    DIFF_REPORT_ENV, DiffRecord, REAL_CODEX_BIN_ENV, REQUIRE_REAL_CODEX_ENV, bin_in_install_dir,
    read_diff_report, real_codex_install_dir,
};

/// The differential tests: the tests of `codex-thread`'s one test binary whose paths hold
/// `real_codex` (a test-name filter matching the modules `real_codex_thread`,
/// `serve_real_codex`, `import_real_codex`, ...).
const DIFFERENTIAL_TESTS: &str = "real_codex";

/// `cargo xtask real-codex install`: installs `version` when missing, prints its binary.
pub(crate) fn install(version: &str) -> Result<()> {
    let bin = ensure(version)?;
    print_line(&bin.display().to_string());
    Ok(())
}

/// The binary of Codex `version`, installed with npm first when it is missing (or reports
/// another version).
pub(crate) fn ensure(version: &str) -> Result<PathBuf> {
    let prefix = real_codex_install_dir(version);
    let bin = bin_in_install_dir(&prefix);
    if reports_version(&bin, version) {
        return Ok(bin);
    }
    let package = format!("@openai/codex@{version}");
    crate::ci::banner(&format!(
        "real Codex: npm install --prefix {} --no-save {package} (the differential tests run it)",
        prefix.display()
    ));
    std::fs::create_dir_all(&prefix)
        .with_context(|| format!("could not create {}", prefix.display()))?;
    let installed = Command::new("npm")
        .arg("install")
        .arg("--prefix")
        .arg(&prefix)
        .args(["--no-save", "--no-audit", "--no-fund", &package])
        .status();
    match installed {
        Ok(status) if status.success() => {}
        Ok(status) => bail!(
            "could not install Codex {version} (npm install {package}: {status}); the \
             real-Codex tests need it: check the network and the npm registry, or point \
             {REAL_CODEX_BIN_ENV} at a codex binary"
        ),
        Err(err) => bail!(
            "could not run npm to install Codex {version} ({err}); the real-Codex tests need \
             Node.js and npm, or {REAL_CODEX_BIN_ENV} pointing at a codex binary"
        ),
    }
    // The layout inside the package depends on the release.
    let bin = bin_in_install_dir(&prefix);
    if !reports_version(&bin, version) {
        bail!(
            "npm installed {package}, but {} is missing or does not report version {version} \
             (the npm package ships a binary for x86-64 Linux at one of the paths releases use)",
            bin.display()
        );
    }
    Ok(bin)
}

/// `cargo xtask real-codex diff --version V`.
pub(crate) fn diff(version: &str) -> Result<()> {
    let bin = ensure(version)?;
    let root = crate::ci::workspace_root()?;
    let report = fresh_report(&format!("diff-{version}.jsonl"))?;
    let bin_text = bin.display().to_string();
    let report_text = report.display().to_string();
    let tests = crate::ci::step_with_env(
        &root,
        &format!("differential tests against Codex {version}"),
        "cargo",
        &[
            "test",
            "-p",
            "codex-thread",
            "--test",
            "it",
            DIFFERENTIAL_TESTS,
        ],
        &[
            (REAL_CODEX_BIN_ENV, bin_text.as_str()),
            (REQUIRE_REAL_CODEX_ENV, "1"),
            (DIFF_REPORT_ENV, report_text.as_str()),
        ],
    );
    print_report(&report, version)?;
    tests
}

/// Where a differential report named `name` is written, beside the install folders
/// (`<target>/real-codex/NAME`), an earlier run's report removed.
pub(crate) fn fresh_report(name: &str) -> Result<PathBuf> {
    let install_dir = real_codex_install_dir(codex_test_support::PINNED_CODEX_VERSION);
    let report = install_dir.parent().unwrap_or(&install_dir).join(name);
    if report.exists() {
        std::fs::remove_file(&report)
            .with_context(|| format!("could not remove the old report {}", report.display()))?;
    }
    Ok(report)
}

/// The report as a table on stdout, then a count of each kind of result.
fn print_report(report: &Path, version: &str) -> Result<()> {
    crate::ci::banner(&format!("report: {}", report.display()));
    if !report.exists() {
        print_line("(no report: the tests recorded nothing)");
        return Ok(());
    }
    let (records, bad) = read_diff_report(report)
        .with_context(|| format!("could not read the report {}", report.display()))?;
    for line in table(&records) {
        print_line(&line);
    }
    for line in &bad {
        print_line(&format!("(not a report line: {line})"));
    }
    let count = |prefix: &str| {
        records
            .iter()
            .filter(|record| record.result.starts_with(prefix))
            .count()
    };
    print_line(&format!(
        "Codex {version}: {} equal, {} documented, {} differ",
        count("equal"),
        count("documented"),
        count("differs")
    ));
    Ok(())
}

/// `CHECK  CASE  RESULT` rows, the first two columns padded to their widest cell.
fn table(records: &[DiffRecord]) -> Vec<String> {
    let header = DiffRecord {
        check: "CHECK".into(),
        case: "CASE".into(),
        result: "RESULT".into(),
    };
    let rows: Vec<&DiffRecord> = std::iter::once(&header).chain(records).collect();
    let width = |cell: fn(&DiffRecord) -> &str| {
        rows.iter()
            .map(|row| cell(row).chars().count())
            .max()
            .unwrap_or_default()
    };
    let check_width = width(|row| &row.check);
    let case_width = width(|row| &row.case);
    rows.iter()
        .map(|row| {
            format!(
                "{:check_width$}  {:case_width$}  {}",
                row.check, row.case, row.result
            )
        })
        .collect()
}

/// Whether `bin` runs and says it is `version` (`codex --version`: `codex-cli 0.169.0`).
fn reports_version(bin: &Path, version: &str) -> bool {
    bin.is_file()
        && Command::new(bin)
            .arg("--version")
            .output()
            .is_ok_and(|output| {
                String::from_utf8_lossy(&output.stdout)
                    .split_whitespace()
                    .last()
                    == Some(version)
            })
}

#[allow(clippy::print_stdout)] // The command's answer (a path, a table) goes to stdout.
fn print_line(line: &str) {
    println!("{line}");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_pads_the_first_two_columns() {
        let record = |check: &str, case: &str, result: &str| DiffRecord {
            check: check.into(),
            case: case.into(),
            result: result.into(),
        };
        let rows = table(&[
            record("history", "exec_then_message", "equal"),
            record("thread/read", "fork", "differs: $.turns"),
        ]);
        assert_eq!(
            rows,
            [
                "CHECK        CASE               RESULT",
                "history      exec_then_message  equal",
                "thread/read  fork               differs: $.turns",
            ]
        );
    }
}
