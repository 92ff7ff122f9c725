//! `cargo xtask codegen [--check]`: regenerates the committed JSON Schema, TypeScript and
//! TypeScript-client fixtures of `codex-app-server-protocol`, and its npm package, or, with
//! `--check`, fails with a unified diff when the committed files drifted from what the Rust
//! types generate.
//!
//! The library renders the files in memory (`codex_app_server_protocol::export::generate`);
//! the client's fixtures come from its `scenarios` (feature `testing`), whose replay side is
//! what codex-rollout's persistence policy keeps in a paginated file; the npm layout
//! ([`npm`]), the comparison with the disk and the writes ([`drift`]) are here, so clients of
//! the types compile none of it. The `codegen_is_up_to_date` test runs the
//! check on every `cargo test`.

pub(crate) mod drift;
pub(crate) mod npm;

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::{Result, bail};
use codex_app_server_protocol::export;
use codex_app_server_protocol::scenarios::client_fixture_files;
use codex_protocol::rollout::{HistoryMode, RolloutItem};
use codex_rollout::persisted_rollout_items;

use crate::log;

/// Writes the generated files (`check == false`) or verifies them (`check == true`). The
/// npm package's copies ([`npm::is_copy`]) are not committed: they are written with the rest,
/// and never compared.
pub(crate) fn run(check: bool) -> Result<()> {
    let root = crate_root()?;
    let (generated, copies) = split_copies(generate()?);
    let dirs = generated_dirs();
    if check {
        let drifts = drift::check(&root, &dirs, &generated)?;
        if !drifts.is_empty() {
            bail!("{}", drift::render_drift(&drifts));
        }
        log(&format!(
            "codegen --check: {} generated files under {} are up to date",
            generated.len(),
            root.display()
        ));
        return Ok(());
    }
    let summary = drift::write(&root, &dirs, &generated)?;
    drift::write_all(&root, &copies)?;
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

/// Every generated file, relative to the crate root: the library's, the client's fixtures and
/// the npm package's.
pub(crate) fn generate() -> Result<BTreeMap<String, String>> {
    let mut files = export::generate()?;
    let package = npm::package_files(&files)?;
    files.extend(package);
    files.extend(client_fixture_files(&kept_in_a_paginated_file)?);
    Ok(files)
}

/// Writes the npm package's copies of the generated declarations and schema bundle into
/// `npm/`, as they are never committed: what `npm pack` and an install from the folder
/// (`file:…/npm`) need first.
pub(crate) fn write_npm_copies() -> Result<()> {
    let root = crate_root()?;
    let (_, copies) = split_copies(generate()?);
    log(&format!(
        "npm package: {} generated copies written under {}",
        copies.len(),
        root.join(npm::NPM_DIR).display()
    ));
    drift::write_all(&root, &copies)
}

/// The generated files split into the committed ones and the npm package's copies.
fn split_copies(
    generated: BTreeMap<String, String>,
) -> (BTreeMap<String, String>, BTreeMap<String, String>) {
    generated
        .into_iter()
        .partition(|(path, _)| !npm::is_copy(path))
}

/// What a paginated session file keeps of `items` (codex-rollout's policy).
fn kept_in_a_paginated_file(items: &[RolloutItem]) -> Vec<RolloutItem> {
    persisted_rollout_items(items, &HistoryMode::Paginated)
}

/// The folders whose whole content codegen owns.
fn generated_dirs() -> Vec<&'static str> {
    let mut dirs = export::GENERATED_DIRS.to_vec();
    dirs.push(npm::NPM_DIR);
    dirs
}

/// `app-server-protocol/`, where the generated folders are.
pub(crate) fn crate_root() -> Result<PathBuf> {
    Ok(crate::ci::workspace_root()?.join("app-server-protocol"))
}

#[cfg(test)]
mod tests {
    /// The committed `schema/`, client fixtures and npm package (less its copies of
    /// `schema/`) are what the Rust types generate, so plain `cargo test` catches a type change that was not regenerated (fix:
    /// `cargo xtask codegen`).
    #[test]
    fn codegen_is_up_to_date() -> anyhow::Result<()> {
        super::run(true)
    }
}
