//! `cargo xtask package`: what a downstream user takes, built and tried as they would.
//!
//! - `cargo package` of every published crate, bottom layer first, verified (each tarball
//!   builds on its own against the others, through cargo's temporary local registry), then
//!   `cargo publish --dry-run` of the same set;
//! - the layering proof: `codex-app-server-protocol`'s dependencies (normal and dev) hold no
//!   `similar`;
//! - the npm package of the generated types packed twice, byte-identical;
//! - [`npm_consumer`]: a fresh TypeScript project installs the packed tarball and reduces real
//!   notification streams with its types and validator;
//! - [`cargo_consumer`]: a fresh Cargo project depends on the packaged `codex-rollout` and
//!   `codex-protocol` and runs `rollout/README.md`'s example on real session files.
//!
//! `cargo xtask ci` runs all of it after the tests. The installs need the npm registry and
//! crates.io index; everything else is local.

mod cargo_consumer;
mod fixtures;
mod npm_consumer;

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail, ensure};

use crate::log;

use crate::ci::{banner, step, workspace_root};

/// The published crates, bottom layer first (the order `cargo publish` needs).
pub(crate) const PUBLISHED: &[&str] = &[
    "codex-protocol",
    "codex-core",
    "codex-app-server-protocol",
    "codex-rollout",
    "codex-home",
    "codex-thread",
];

/// Runs every packaging step.
pub(crate) fn run() -> Result<()> {
    let root = workspace_root()?;
    let mut package = vec!["package", "--locked", "--allow-dirty"];
    let mut publish = vec![
        "publish",
        "--dry-run",
        "--locked",
        "--allow-dirty",
        // The tarballs are the ones `cargo package` just verified, byte for byte; building
        // them a second time would prove nothing more and cost minutes.
        "--no-verify",
    ];
    for name in PUBLISHED {
        package.extend(["-p", name]);
        publish.extend(["-p", name]);
    }
    forget_extracted_packages()?;
    forget_built_packages(&root)?;
    step(&root, "cargo package (verified)", "cargo", &package)?;
    step(&root, "cargo publish --dry-run", "cargo", &publish)?;
    report_crate_sizes(&root)?;
    check_no_similar(&root)?;
    check_home_features(&root)?;

    let scratch = tempfile::tempdir().context("creating a scratch folder")?;
    let tarball = npm_pack_reproducibly(scratch.path())?;
    let streams = fixtures::notification_streams(&root, scratch.path())?;
    banner("fresh TypeScript project: install the packed types, reduce real notifications");
    npm_consumer::run(&scratch.path().join("ts-consumer"), &tarball, &streams)?;
    banner("fresh Cargo project: the packaged crates run rollout/README.md's example");
    cargo_consumer::run(&root, &scratch.path().join("cargo-consumer"))?;
    Ok(())
}

/// Removes cargo's extracted copies of our own packages
/// (`$CARGO_HOME/registry/src/*/NAME-VERSION`).
///
/// Verifying a package builds it against the others through a temporary local registry, and
/// cargo extracts each `.crate` there once per name and version: a copy extracted by an
/// earlier run of the same version is reused as it is, so the packages would be verified
/// against an earlier run's sources (see also [`forget_built_packages`]).
fn forget_extracted_packages() -> Result<()> {
    let cargo_home = std::env::var_os("CARGO_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cargo")));
    let Some(sources) = cargo_home.map(|home| home.join("registry").join("src")) else {
        return Ok(());
    };
    let Ok(registries) = std::fs::read_dir(&sources) else {
        return Ok(());
    };
    for registry in registries.flatten() {
        for name in PUBLISHED {
            let extracted = registry
                .path()
                .join(format!("{name}-{}", crate::codegen::npm::VERSION));
            if extracted.exists() {
                std::fs::remove_dir_all(&extracted)
                    .with_context(|| format!("removing {}", extracted.display()))?;
            }
        }
    }
    Ok(())
}

/// Removes the build fingerprints of our own packages (`<target>/debug/.fingerprint/NAME-*`),
/// so the verification rebuilds them.
///
/// The verification builds into the workspace's target directory, and a package from a
/// registry is taken as unchanging: its build of an earlier run, of the same name and version,
/// is reused without looking at its sources (seen: `codex-home` verified against a
/// `codex-rollout` built before `next_line_where` existed). Our path builds are rebuilt too,
/// once; dependencies are not touched.
fn forget_built_packages(root: &Path) -> Result<()> {
    let fingerprints = target_dir(root).join("debug").join(".fingerprint");
    let Ok(entries) = std::fs::read_dir(&fingerprints) else {
        return Ok(());
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let ours = PUBLISHED.iter().any(|package| {
            name.strip_prefix(package)
                .and_then(|rest| rest.strip_prefix('-'))
                .is_some_and(|hash| hash.bytes().all(|byte| byte.is_ascii_hexdigit()))
        });
        if ours {
            std::fs::remove_dir_all(entry.path())
                .with_context(|| format!("removing {}", entry.path().display()))?;
        }
    }
    Ok(())
}

/// Where cargo builds: `CARGO_TARGET_DIR` when set, else the workspace's `target/`.
pub(crate) fn target_dir(root: &Path) -> PathBuf {
    std::env::var_os("CARGO_TARGET_DIR").map_or_else(|| root.join("target"), PathBuf::from)
}

fn crate_file(root: &Path, name: &str) -> PathBuf {
    target_dir(root)
        .join("package")
        .join(format!("{name}-{}.crate", crate::codegen::npm::VERSION))
}

fn report_crate_sizes(root: &Path) -> Result<()> {
    for name in PUBLISHED {
        let path = crate_file(root, name);
        let size = std::fs::metadata(&path)
            .with_context(|| format!("cargo package wrote no {}", path.display()))?
            .len();
        log(&format!("{name}: {:.1} KiB packaged", size as f64 / 1024.0));
    }
    Ok(())
}

/// The proof of the layering issue 12 asks for: no diff library in what a client of the
/// types compiles, nor in the crate's own tests (`similar` is xtask's; insta's copy belongs
/// to the wire-shape snapshots of `app-server-protocol/wire-tests`, a crate of its own).
fn check_no_similar(root: &Path) -> Result<()> {
    for (edges, what) in [
        ("normal,build", "what a client compiles"),
        (
            "normal,build,dev",
            "dev-dependencies included, as plain `cargo tree`",
        ),
    ] {
        banner(&format!(
            "layering: cargo tree -p codex-app-server-protocol -e {edges} has no similar"
        ));
        let tree = cargo_tree(root, "codex-app-server-protocol", edges)?;
        if let Some(line) = tree.lines().find(|line| line.starts_with("similar ")) {
            bail!(
                "codex-app-server-protocol ({what}) depends on {line}: the drift check belongs \
                 in xtask, insta snapshots in app-server-protocol/wire-tests"
            );
        }
        log(&format!(
            "codex-app-server-protocol ({what}): {} crates in its tree, no similar",
            tree.lines().count()
        ));
    }
    Ok(())
}

/// The crates `cargo tree -p package -e edges` lists, one per line.
fn cargo_tree(root: &Path, package: &str, edges: &str) -> Result<String> {
    let output = Command::new("cargo")
        .args([
            "tree", "--locked", "-p", package, "-e", edges, "--prefix", "none",
        ])
        .current_dir(root)
        .output()
        .context("could not start `cargo tree`")?;
    ensure!(
        output.status.success(),
        "`cargo tree` failed ({})",
        output.status
    );
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

/// codex-home without features compiles neither SQLite nor Parquet: a crate that wants
/// listings, usage or pruning pays for neither (`search` and `tables` bring them).
fn check_home_features(root: &Path) -> Result<()> {
    banner(
        "layering: cargo tree -p codex-home -e normal has no rusqlite, arrow, parquet or tungstenite",
    );
    let output = Command::new("cargo")
        .args([
            "tree",
            "--locked",
            "-p",
            "codex-home",
            "-e",
            "normal",
            "--prefix",
            "none",
        ])
        .current_dir(root)
        .output()
        .context("could not start `cargo tree`")?;
    ensure!(
        output.status.success(),
        "`cargo tree` failed ({})",
        output.status
    );
    let tree = String::from_utf8_lossy(&output.stdout);
    let heavy = [
        "rusqlite ",
        "libsqlite3-sys ",
        "parquet ",
        "arrow-array ",
        "arrow-schema ",
        "tungstenite ",
    ];
    if let Some(line) = tree
        .lines()
        .find(|line| heavy.iter().any(|name| line.starts_with(name)))
    {
        bail!(
            "codex-home without features depends on {line}: it belongs behind `search`, `state`, \
             `tables` or `serve`"
        );
    }
    log(&format!(
        "codex-home without features: {} crates in its tree, no SQLite, Parquet or WebSocket",
        tree.lines().count()
    ));
    Ok(())
}

/// Packs `app-server-protocol/npm` twice into separate folders and demands identical bytes;
/// returns the first tarball.
fn npm_pack_reproducibly(scratch: &Path) -> Result<PathBuf> {
    banner("npm pack app-server-protocol/npm (twice: the tarball must be reproducible)");
    crate::codegen::write_npm_copies()?;
    let dir = crate::codegen::crate_root()?.join(crate::codegen::npm::NPM_DIR);
    let mut tarballs = Vec::new();
    for attempt in ["pack-1", "pack-2"] {
        let destination = scratch.join(attempt);
        std::fs::create_dir_all(&destination)
            .with_context(|| format!("creating {}", destination.display()))?;
        let output = Command::new("npm")
            .args(["pack", "--silent", "--pack-destination"])
            .arg(&destination)
            .current_dir(&dir)
            .output()
            .context("could not start `npm pack`; is Node.js installed?")?;
        ensure!(
            output.status.success(),
            "`npm pack` failed ({})",
            output.status
        );
        let name = String::from_utf8_lossy(&output.stdout).trim().to_owned();
        tarballs.push(destination.join(name));
    }
    let first = std::fs::read(&tarballs[0]).context("reading the first tarball")?;
    let second = std::fs::read(&tarballs[1]).context("reading the second tarball")?;
    ensure!(
        first == second,
        "npm pack is not reproducible: two packs of the same tree differ"
    );
    log(&format!(
        "{}: {:.1} KiB, identical across two packs",
        tarballs[0].display(),
        first.len() as f64 / 1024.0
    ));
    Ok(tarballs.swap_remove(0))
}

/// Runs `program` in `dir`, failing with its output when it fails; returns its stdout.
pub(crate) fn run_captured(dir: &Path, program: &str, args: &[&str]) -> Result<String> {
    let output = Command::new(program)
        .args(args)
        .current_dir(dir)
        .output()
        .with_context(|| format!("could not start `{program}`"))?;
    if !output.status.success() {
        bail!(
            "`{program} {}` failed ({}):\n{}{}",
            args.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }
    Ok(String::from_utf8_lossy(&output.stdout).into_owned())
}

#[cfg(test)]
mod tests {
    /// The layering proof on every `cargo test`, not only in `cargo xtask package` (two
    /// `cargo tree` runs over the lock file: about a second).
    #[test]
    fn codex_app_server_protocol_tree_has_no_similar() -> anyhow::Result<()> {
        super::check_no_similar(&crate::ci::workspace_root()?)
    }

    #[test]
    fn codex_home_without_features_has_no_sqlite_or_parquet() -> anyhow::Result<()> {
        super::check_home_features(&crate::ci::workspace_root()?)
    }
}
