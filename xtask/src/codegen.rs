//! `cargo xtask codegen [--check]`: regenerates the committed JSON Schema, TypeScript and
//! TypeScript-client fixtures of `codex-app-server-protocol`, or, with `--check`, fails with
//! a unified diff when the committed files drifted from what the Rust types generate.
//!
//! The generators are library code: the types' JSON Schema and TypeScript come from
//! `codex_app_server_protocol::export`, the client's fixtures from its `scenarios` (feature
//! `testing`), whose replay side is what codex-rollout's persistence policy keeps in a
//! paginated file. [`generated_files`] puts them together, for this command and for the drift
//! test that plain `cargo test` runs, so CI and `cargo test` can never disagree.

use std::collections::BTreeMap;

use anyhow::{Result, bail};
use codex_app_server_protocol::export;
use codex_app_server_protocol::scenarios::client_fixture_files;
use codex_protocol::rollout::{HistoryMode, RolloutItem};
use codex_rollout::policy::persisted_rollout_items;

/// Every generated file, by path relative to `codex-app-server-protocol`'s root.
pub fn generated_files() -> Result<BTreeMap<String, String>> {
    let mut files = export::generate()?;
    files.extend(client_fixture_files(&kept_in_a_paginated_file)?);
    Ok(files)
}

/// What a paginated session file keeps of `items` (codex-rollout's policy).
fn kept_in_a_paginated_file(items: &[RolloutItem]) -> Vec<RolloutItem> {
    persisted_rollout_items(items, &HistoryMode::Paginated)
}

/// Writes the generated files (`check == false`) or verifies them (`check == true`).
pub fn run(check: bool) -> Result<()> {
    let root = export::crate_root();
    let generated = generated_files()?;
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

#[cfg(test)]
#[path = "codegen_tests.rs"]
mod tests;
