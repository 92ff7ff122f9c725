//! ccusage, the token report people run on their Codex homes, installed from the npm
//! registry at one pinned version for the comparison test and the benchmark.
//!
//! It is installed once under the target directory (`target/tmp/ccusage-<version>`); when
//! npm or the registry is unavailable the caller skips loudly, unless
//! `CODEX_REQUIRE_REAL_FIXTURES=1` (what CI sets), where it fails.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The ccusage version compared against (20.0.24: the newest whose native Linux binary is
/// published; 20.0.26's is not).
pub(crate) const CCUSAGE_VERSION: &str = "20.0.24";

/// Where it is installed.
fn install_dir() -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("ccusage-{CCUSAGE_VERSION}"))
}

/// The ccusage executable, installed if needed; `None` (after saying why, loudly) when it
/// cannot be installed and CI does not require it.
///
/// # Panics
///
/// When it cannot be installed and `CODEX_REQUIRE_REAL_FIXTURES=1`.
pub(crate) fn ccusage() -> Option<PathBuf> {
    match install() {
        Ok(path) => Some(path),
        Err(why) => {
            let message =
                format!("ccusage {CCUSAGE_VERSION} is not available ({why}); needs node and npm");
            if codex_test_support::required_by_env() {
                panic!("{message}");
            }
            #[allow(clippy::print_stderr)]
            {
                eprintln!("SKIPPED (loudly): {message}");
            }
            None
        }
    }
}

fn install() -> Result<PathBuf, String> {
    let dir = install_dir();
    let binary = dir.join("node_modules").join(".bin").join("ccusage");
    if runs(&binary) {
        return Ok(binary);
    }
    // Installed into a fresh folder then moved into place, so that two test processes
    // never see a half-installed copy.
    let staging = dir.with_extension(format!("staging-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&staging);
    std::fs::create_dir_all(&staging).map_err(|err| err.to_string())?;
    let output = Command::new("npm")
        .args([
            "install",
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--prefix",
        ])
        .arg(&staging)
        .arg(format!("ccusage@{CCUSAGE_VERSION}"))
        .output()
        .map_err(|err| format!("cannot run npm: {err}"))?;
    if !output.status.success() {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(format!(
            "npm install failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    if std::fs::rename(&staging, &dir).is_err() {
        // Another process won the race; use its copy.
        let _ = std::fs::remove_dir_all(&staging);
    }
    if runs(&binary) {
        Ok(binary)
    } else {
        Err(format!("{} does not run", binary.display()))
    }
}

fn runs(binary: &Path) -> bool {
    Command::new(binary)
        .arg("--version")
        .output()
        .is_ok_and(|output| output.status.success())
}

/// `ccusage codex <report> --json --offline --timezone <zone>` over `home`, parsed.
pub(crate) fn report(
    binary: &Path,
    report: &str,
    home: &Path,
    zone: &str,
) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
    let scratch = tempfile::tempdir()?;
    let output = Command::new(binary)
        .args(["codex", report, "--json", "--offline", "--timezone", zone])
        .env("CODEX_HOME", home)
        // Its caches and config lookups stay out of the real home.
        .env("HOME", scratch.path())
        .env("NO_COLOR", "1")
        .output()?;
    if !output.status.success() {
        return Err(format!(
            "ccusage {report} failed: {}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(serde_json::from_slice(&output.stdout)?)
}

/// A ccusage row's counts in our terms (input including cached; output including reasoning):
/// `[input, cached, output, reasoning, total]`.
pub(crate) fn counts(row: &serde_json::Value) -> [u64; 5] {
    let get = |key: &str| row[key].as_u64().unwrap_or(u64::MAX);
    let cached = get("cacheReadTokens");
    [
        get("inputTokens").saturating_add(cached),
        cached,
        get("outputTokens"),
        get("reasoningOutputTokens"),
        get("totalTokens"),
    ]
}
