//! The one way a test or tool starts a headless browser: the flags that keep it to itself.

use std::path::Path;
use std::process::Command;

/// `browser` (Chromium or Chrome) headless with a fresh profile at `profile`, no sandbox (CI
/// containers run as root), no GPU, and no network of its own (no QUIC, background fetches,
/// component updates, sync or extensions). Callers add what their run needs (the page, a time
/// budget, a screenshot).
pub fn headless_browser(browser: &Path, profile: &Path) -> Command {
    let mut command = Command::new(browser);
    command
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-extensions",
        ])
        .arg(format!("--user-data-dir={}", profile.display()));
    command
}
