//! `cargo xtask sample [--check]`: records the sample session `codex-thread` bundles
//! (`cli/sample/session.jsonl`, what every command shows when it is given no file) afresh
//! through core's turn driver and codex-rollout's recorder ([`script`]), and writes it, or,
//! with `--check`, fails when the committed file differs from a fresh recording. The
//! `sample_is_up_to_date` test runs the check on every `cargo test`, so the sample always
//! matches what the current code writes; the binary carries the file, not its generator.

mod script;

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::log;

/// The committed sample, relative to the workspace root.
const SAMPLE_PATH: &str = "cli/sample/session.jsonl";

/// Writes the sample (`check == false`) or verifies it (`check == true`).
pub(crate) fn run(check: bool) -> Result<()> {
    let target = sample_path()?;
    let fresh = record()?;
    if check {
        let committed = std::fs::read_to_string(&target)?;
        if committed != fresh {
            bail!(
                "{SAMPLE_PATH} is stale: run `cargo xtask sample`\n{}",
                first_difference(&fresh, &committed)
            );
        }
        log(&format!("sample --check: {SAMPLE_PATH} is up to date"));
        return Ok(());
    }
    std::fs::write(&target, &fresh)?;
    log(&format!(
        "wrote {} ({} lines)",
        target.display(),
        fresh.lines().count()
    ));
    Ok(())
}

fn sample_path() -> Result<PathBuf> {
    Ok(crate::ci::workspace_root()?.join(SAMPLE_PATH))
}

/// Records the sample session afresh and returns its text: reproducible, because the session
/// and the recorder take their time and ids from the script's deterministic sources.
fn record() -> Result<String> {
    let scratch = tempfile::tempdir()?;
    let path = scratch.path().join("session.jsonl");
    record_at(&path)?;
    Ok(std::fs::read_to_string(&path)?)
}

fn record_at(path: &Path) -> Result<()> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(script::record(path))
}

fn first_difference(fresh: &str, committed: &str) -> String {
    for (number, (a, b)) in fresh.lines().zip(committed.lines()).enumerate() {
        if a != b {
            return format!(
                "first difference at line {}:\n fresh:     {a}\n committed: {b}",
                number + 1
            );
        }
    }
    format!(
        "{} fresh lines vs {} committed lines",
        fresh.lines().count(),
        committed.lines().count()
    )
}

#[cfg(test)]
mod tests {
    /// The committed sample is what the recorder writes today (fix: `cargo xtask sample`), and
    /// two recordings in a row are the same bytes (the generator is deterministic).
    #[test]
    fn sample_is_up_to_date() -> anyhow::Result<()> {
        super::run(true)?;
        assert_eq!(super::record()?, super::record()?);
        Ok(())
    }
}
