//! The session files the consumer tests run on: the sample bundled in the binary (written by
//! our own recorder) and real Codex files from `../shared/fixtures/real`, one per era of the
//! format. Where that folder is missing the tests say so loudly and use the sample only,
//! unless `CODEX_REQUIRE_REAL_FIXTURES=1` (as in CI), which makes it a failure, the rule
//! `codex-test-support` applies to every crate's tests.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

use super::{run_captured, target_dir};
use crate::log;

/// Real files by name prefix: 0.40 legacy, 0.117 with an image output, 0.144 multi-agent
/// parent with a real rollback, 0.152 paginated, 0.155 paginated and redacted.
const REAL: &[&str] = &[
    "jnarowski__agentcmd__rollout-2025-09-24T19-22-20",
    "LAF-US__IDAHO-VAULT__",
    "doudouqie66__CommonTools__rollout-2026-07-11T10-22-29",
    "sandialabs__conin__",
    "vedntzz__The-Session__",
];

/// The session files: the bundled sample first, then the real ones found.
pub(super) fn sessions(root: &Path) -> Result<Vec<PathBuf>> {
    let mut out = vec![root.join("cli/sample/session.jsonl")];
    let dir = root.join("../shared/fixtures/real");
    let required = std::env::var("CODEX_REQUIRE_REAL_FIXTURES").as_deref() == Ok("1");
    if !dir.is_dir() {
        if required {
            bail!(
                "CODEX_REQUIRE_REAL_FIXTURES=1 but {} is missing",
                dir.display()
            );
        }
        log(&format!(
            "SKIPPED real session files: {} is missing; the package tests run on the bundled \
             sample only",
            dir.display()
        ));
        return Ok(out);
    }
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .with_context(|| format!("listing {}", dir.display()))?
        .filter_map(|entry| entry.ok())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for prefix in REAL {
        match names.iter().find(|name| name.starts_with(prefix)) {
            Some(name) => out.push(dir.join(name)),
            None if required => bail!(
                "real session file {prefix}* is missing in {}",
                dir.display()
            ),
            None => log(&format!(
                "SKIPPED real session file {prefix}*: not in {}",
                dir.display()
            )),
        }
    }
    Ok(out)
}

/// The `codex-thread` binary, built (debug, as the tests build it) if needed.
pub(super) fn codex_thread(root: &Path) -> Result<PathBuf> {
    run_captured(
        root,
        "cargo",
        &["build", "--locked", "--quiet", "-p", "codex-thread"],
    )?;
    let binary = target_dir(root).join("debug").join("codex-thread");
    Ok(binary.with_extension(std::env::consts::EXE_EXTENSION))
}

/// One `codex-thread notifications` stream per session, written under `scratch/streams/`.
pub(super) fn notification_streams(root: &Path, scratch: &Path) -> Result<Vec<PathBuf>> {
    let binary = codex_thread(root)?;
    let binary = binary.to_string_lossy().into_owned();
    let dir = scratch.join("streams");
    std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let mut out = Vec::new();
    for session in sessions(root)? {
        let session_arg = session.to_string_lossy().into_owned();
        let stream = run_captured(root, &binary, &["notifications", &session_arg])?;
        let name = session.file_stem().map_or_else(
            || "session".into(),
            |stem| stem.to_string_lossy().into_owned(),
        );
        let path = dir.join(format!("{name}.notifications.jsonl"));
        std::fs::write(&path, stream).with_context(|| format!("writing {}", path.display()))?;
        out.push(path);
    }
    Ok(out)
}
