//! The headless browser the export's tests and screenshots need: Chromium from Debian's
//! packages.
//!
//! `cargo xtask ci` makes sure it is there (installing it with apt-get when
//! `/usr/bin/chromium` is missing) and sets `CODEX_REQUIRE_BROWSER=1`, under which the
//! browser tests fail instead of skipping; `cargo xtask screenshots` drives it to picture
//! real sessions for `docs/export.md`.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Where Debian puts Chromium.
pub(crate) const CHROMIUM: &str = "/usr/bin/chromium";
/// Set to `1` by `cargo xtask ci`: the browser tests fail when there is no browser.
pub(crate) const REQUIRE_BROWSER_ENV: &str = "CODEX_REQUIRE_BROWSER";

/// The browser, installed with apt-get first when it is missing.
pub(crate) fn ensure_chromium() -> Result<PathBuf> {
    let path = PathBuf::from(CHROMIUM);
    if path.is_file() {
        return Ok(path);
    }
    crate::ci::banner(
        "browser: apt-get install -y chromium (the HTML export's browser tests need it)",
    );
    match apt_install("chromium") {
        Ok(status) if status.success() && path.is_file() => Ok(path),
        Ok(status) => bail!(
            "could not install Chromium (apt-get install chromium: {status}); the HTML export's \
             browser tests need {CHROMIUM}: install it as root, or point CODEX_CHROMIUM at a \
             Chromium or Chrome binary"
        ),
        Err(err) => bail!(
            "could not run apt-get to install Chromium ({err}); the HTML export's browser tests \
             need {CHROMIUM}: install it, or point CODEX_CHROMIUM at a Chromium or Chrome binary"
        ),
    }
}

/// `apt-get install -y --no-install-recommends PACKAGE`, without questions: its exit status.
pub(crate) fn apt_install(package: &str) -> std::io::Result<std::process::ExitStatus> {
    Command::new("apt-get")
        .args(["install", "-y", "--no-install-recommends", package])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status()
}

/// The shared headless flags (`codex_test_support::headless_browser`), scrollbars hidden for
/// screenshots.
pub(crate) fn headless(browser: &Path, profile: &Path) -> Command {
    let mut command = codex_test_support::headless_browser(browser, profile);
    command.arg("--hide-scrollbars");
    command
}

/// Runs `command`, failing with its name when it does not succeed.
pub(crate) fn run(command: &mut Command, what: &str) -> Result<()> {
    let output = command
        .output()
        .with_context(|| format!("could not start {what}"))?;
    if !output.status.success() {
        bail!(
            "{what} failed ({}): {}",
            output.status,
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(())
}
