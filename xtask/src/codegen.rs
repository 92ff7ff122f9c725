//! `cargo xtask codegen [--check]`: regenerates the committed JSON Schema, TypeScript and
//! TypeScript-client fixtures of `codex-app-server-protocol`, or, with `--check`, fails with
//! a unified diff when the committed files drifted from what the Rust types generate.
//!
//! The generator itself is library code (`codex_app_server_protocol::export`), shared with
//! the crate's own drift test, so CI and `cargo test` can never disagree.

use anyhow::{Result, bail};
use codex_app_server_protocol::export;

/// Writes the generated files (`check == false`) or verifies them (`check == true`).
pub fn run(check: bool) -> Result<()> {
    let root = export::crate_root();
    let generated = export::generate()?;
    if check {
        let drifts = export::check(&root, &generated)?;
        if !drifts.is_empty() {
            bail!("{}", export::render_drift(&drifts));
        }
        log(&format!(
            "codegen --check: {} generated files under {} are up to date",
            generated.len(),
            root.display()
        ));
        return Ok(());
    }
    let summary = export::write(&root, &generated)?;
    for path in &summary.written {
        log(&format!("wrote   {path}"));
    }
    for path in &summary.removed {
        log(&format!("removed {path}"));
    }
    log(&format!(
        "codegen: {} written, {} removed, {} unchanged",
        summary.written.len(),
        summary.removed.len(),
        summary.unchanged
    ));
    Ok(())
}

#[allow(clippy::print_stderr)] // xtask is a command-line tool; stderr is its log.
fn log(line: &str) {
    eprintln!("{line}");
}
