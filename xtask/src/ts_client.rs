//! The TypeScript client's checks, run by `cargo xtask ci`: install its locked dependencies
//! (`npm ci`, which installs the generated npm package from `../npm` as a packed copy, its
//! copies of the generated declarations written there first),
//! compile it with `tsc` in strict mode against the package's types, and run its tests with
//! node's built-in runner. Everything after `npm ci` runs offline.

use std::path::Path;
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Installs, builds and tests `app-server-protocol/typescript-client`.
pub(crate) fn test() -> Result<()> {
    let dir = crate::codegen::crate_root()?.join("typescript-client");
    crate::codegen::write_npm_copies()?;
    npm(&dir, &["ci", "--no-audit", "--no-fund"])?;
    npm(&dir, &["run", "build"])?;
    npm(&dir, &["test"])?;
    Ok(())
}

fn npm(dir: &Path, args: &[&str]) -> Result<()> {
    log(&format!(
        "typescript client: npm {} (in {})",
        args.join(" "),
        dir.display()
    ));
    let status = Command::new("npm")
        .args(args)
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

#[allow(clippy::print_stderr)] // xtask is a command-line tool; stderr is its log.
fn log(line: &str) {
    eprintln!("{line}");
}
