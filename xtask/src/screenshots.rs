//! `cargo xtask screenshots`: the pictures of `docs/export.md`, regenerated from real
//! sessions.
//!
//! Each listed real file (from `../shared/fixtures/real`) is exported with
//! `codex-thread export --format html` (a debug build: rendering a page is quick either way),
//! opened in headless Chromium at a fixed window size, and saved as a PNG under `docs/images/`.
//! The HTML pages themselves are not committed (they hold the sessions' text); the screenshots
//! show what a reader sees.

use std::path::Path;

use anyhow::{Context, Result, bail};

use crate::browser::{ensure_chromium, headless, run};

/// (real file, picture, window size, tool calls shown open): the first screen of a long
/// session with its table of contents, and a session whose first message holds an image,
/// with its first tool calls expanded (as a reader's click would).
const SHOTS: &[(&str, &str, &str, usize)] = &[
    (
        "LAF-US__IDAHO-VAULT__rollout-2026-03-30T19-22-40-019d417c-54dd-7ee3-b9e7-538a07d03f7a.jsonl",
        "export-long-session.png",
        "1100,1400",
        0,
    ),
    (
        "jnarowski__agentcmd__rollout-2025-09-24T20-12-23-01997ea4-a70d-7da3-8c20-c736db82a7c5.jsonl",
        "export-image-and-tools.png",
        "1100,2000",
        2,
    ),
];

/// Regenerates every screenshot.
pub(crate) fn run_all() -> Result<()> {
    let root = crate::ci::workspace_root()?;
    let fixtures = root.join("../shared/fixtures/real");
    if !fixtures.is_dir() {
        bail!("no real fixtures at {} (see README.md)", fixtures.display());
    }
    let browser = ensure_chromium()?;
    crate::ci::step(&root, "build", "cargo", &["build", "-p", "codex-thread"])?;
    let binary = root.join("target/debug/codex-thread");
    let scratch = root.join("target/screenshots");
    std::fs::create_dir_all(&scratch)
        .with_context(|| format!("cannot create {}", scratch.display()))?;
    let images = root.join("docs/images");
    std::fs::create_dir_all(&images)
        .with_context(|| format!("cannot create {}", images.display()))?;
    for (file, picture, size, open) in SHOTS {
        let session = fixtures.join(file);
        let page = scratch.join(picture.replace(".png", ".html"));
        run(
            std::process::Command::new(&binary)
                .args(["export", "--format", "html", "-o"])
                .arg(&page)
                .arg(&session),
            &format!("codex-thread export {file}"),
        )?;
        if *open > 0 {
            // Open the first tool calls, as a reader's click would.
            let html = std::fs::read_to_string(&page)?;
            let closed = r#"<details class="entry tool fold">"#;
            let opened = r#"<details class="entry tool fold" open>"#;
            std::fs::write(&page, html.replacen(closed, opened, *open))?;
        }
        shoot(&browser, &page, &images.join(picture), size, &scratch)?;
        crate::ci::banner(&format!("wrote docs/images/{picture}"));
    }
    Ok(())
}

fn shoot(browser: &Path, page: &Path, picture: &Path, size: &str, scratch: &Path) -> Result<()> {
    let profile = scratch.join("profile");
    let _ = std::fs::remove_dir_all(&profile);
    let url = format!("file://{}", page.canonicalize()?.display());
    run(
        headless(browser, &profile)
            .arg(format!("--window-size={size}"))
            .arg("--virtual-time-budget=2000")
            .arg(format!("--screenshot={}", picture.display()))
            .arg(url),
        "headless Chromium",
    )?;
    let _ = std::fs::remove_dir_all(&profile);
    Ok(())
}
