//! The TypeScript client's checks, run by `cargo xtask ci`: install its locked dependencies
//! (`npm ci`, which installs the generated npm package from `../npm` as a packed copy, its
//! copies of the generated declarations written there first),
//! compile it with `tsc` in strict mode against the package's types, and run its tests with
//! node's built-in runner, `CODEX_THREAD_BIN` naming the `codex-thread` binary its serve test
//! connects to (built first). Everything after `npm ci` runs offline.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

use crate::log;

/// Installs, builds and tests `app-server-protocol/typescript-client`.
pub(crate) fn test() -> Result<()> {
    let dir = crate::codegen::crate_root()?.join("typescript-client");
    crate::codegen::write_npm_copies()?;
    npm(&dir, &["ci", "--no-audit", "--no-fund"])?;
    npm(&dir, &["run", "build"])?;
    let root = crate::ci::workspace_root()?;
    let status = Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
        .args(["build", "-p", "codex-thread", "--bin", "codex-thread"])
        .current_dir(&root)
        .status()
        .context("could not start cargo")?;
    if !status.success() {
        bail!("building codex-thread for the client's tests failed ({status})");
    }
    let binary = crate::package::target_dir(&root)
        .join("debug")
        .join("codex-thread");
    npm_with(&dir, &["test"], &[("CODEX_THREAD_BIN", binary.as_os_str())])?;
    Ok(())
}

fn npm(dir: &Path, args: &[&str]) -> Result<()> {
    npm_with(dir, args, &[])
}

/// `npm ARGS` in `dir` with `env` set.
fn npm_with(dir: &Path, args: &[&str], env: &[(&str, &std::ffi::OsStr)]) -> Result<()> {
    log(&format!(
        "typescript client: npm {} (in {})",
        args.join(" "),
        dir.display()
    ));
    let status = Command::new("npm")
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .status()
        .with_context(|| {
            format!(
                "could not start `npm {}`; is Node.js installed?",
                args.join(" ")
            )
        })?;
    if !status.success() {
        bail!("`npm {}` failed ({status})", args.join(" "));
    }
    Ok(())
}
