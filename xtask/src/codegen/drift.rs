//! Comparing generated files with the committed tree, and rewriting it.
//!
//! Why here and not in `codex-app-server-protocol`: the library renders the files in memory;
//! reading and writing the tree and diffing it are build tooling, and a crate that depends on
//! the types should compile neither a file writer nor `similar`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use similar::TextDiff;

/// One difference between the generated files and the disk.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Drift {
    /// The file, relative to the crate root.
    pub path: String,
    /// What differs.
    pub kind: DriftKind,
}

/// How a committed file differs from what the types generate.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum DriftKind {
    /// Generated but not on disk.
    Missing,
    /// On disk in a generated folder but no longer generated.
    Stale,
    /// Both exist; the unified diff (committed -> generated).
    Changed(String),
}

/// What [`write()`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct WriteSummary {
    /// Files written because they were missing or different.
    pub written: Vec<String>,
    /// Stale files removed.
    pub removed: Vec<String>,
    /// Files already up to date.
    pub unchanged: usize,
}

/// Compares `generated` with the files under `crate_root`'s generated folders `dirs` (every
/// file in them is the generator's); empty means no drift.
pub(crate) fn check(
    crate_root: &Path,
    dirs: &[&str],
    generated: &BTreeMap<String, String>,
) -> Result<Vec<Drift>> {
    let on_disk = committed_files(crate_root, dirs)?;
    let mut drifts = Vec::new();
    for (path, contents) in generated {
        let full = crate_root.join(path);
        match on_disk.contains(path) {
            false => drifts.push(Drift {
                path: path.clone(),
                kind: DriftKind::Missing,
            }),
            true => {
                let committed = read(&full)?;
                // Tolerate CRLF checkouts: compare with normalized line endings.
                if committed.replace("\r\n", "\n") != *contents {
                    drifts.push(Drift {
                        path: path.clone(),
                        kind: DriftKind::Changed(unified_diff(path, &committed, contents)),
                    });
                }
            }
        }
    }
    for path in on_disk {
        if !generated.contains_key(&path) {
            drifts.push(Drift {
                path,
                kind: DriftKind::Stale,
            });
        }
    }
    Ok(drifts)
}

/// Makes the disk match `generated`: writes missing or changed files, removes stale ones.
pub(crate) fn write(
    crate_root: &Path,
    dirs: &[&str],
    generated: &BTreeMap<String, String>,
) -> Result<WriteSummary> {
    let mut summary = WriteSummary::default();
    for drift in check(crate_root, dirs, generated)? {
        let full = crate_root.join(&drift.path);
        match drift.kind {
            DriftKind::Stale => {
                fs::remove_file(&full).with_context(|| format!("removing {}", full.display()))?;
                summary.removed.push(drift.path);
            }
            DriftKind::Missing | DriftKind::Changed(_) => {
                if let Some(parent) = full.parent() {
                    fs::create_dir_all(parent)
                        .with_context(|| format!("creating {}", parent.display()))?;
                }
                let contents = generated.get(&drift.path).map_or("", String::as_str);
                fs::write(&full, contents)
                    .with_context(|| format!("writing {}", full.display()))?;
                summary.written.push(drift.path);
            }
        }
    }
    summary.unchanged = generated.len() - summary.written.len();
    Ok(summary)
}

/// Writes every file of `files` under `crate_root` whose contents differ (the npm package's
/// copies, which are never compared with a commit).
pub(crate) fn write_all(crate_root: &Path, files: &BTreeMap<String, String>) -> Result<()> {
    for (path, contents) in files {
        let full = crate_root.join(path);
        if fs::read_to_string(&full).is_ok_and(|on_disk| on_disk == *contents) {
            continue;
        }
        if let Some(parent) = full.parent() {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        fs::write(&full, contents).with_context(|| format!("writing {}", full.display()))?;
    }
    Ok(())
}

/// A readable report: one line per missing/stale file, a unified diff per changed file, and
/// the command that fixes it.
pub(crate) fn render_drift(drifts: &[Drift]) -> String {
    let mut out = String::new();
    for drift in drifts {
        match &drift.kind {
            DriftKind::Missing => {
                out.push_str(&format!("missing (not committed): {}\n", drift.path))
            }
            DriftKind::Stale => {
                out.push_str(&format!("stale (no longer generated): {}\n", drift.path))
            }
            DriftKind::Changed(diff) => out.push_str(diff),
        }
    }
    if !drifts.is_empty() {
        out.push_str(&format!(
            "\n{} generated file(s) drifted from the Rust types. Run `cargo xtask codegen` and \
             commit the result.\n",
            drifts.len()
        ));
    }
    out
}

fn unified_diff(path: &str, committed: &str, generated: &str) -> String {
    TextDiff::from_lines(committed, generated)
        .unified_diff()
        .context_radius(3)
        .header(&format!("committed/{path}"), &format!("generated/{path}"))
        .to_string()
}

/// Every file under the generated folders, relative to `crate_root`, `/`-separated. An npm
/// install's `node_modules` is not the generator's, and the npm package's copies of
/// `schema/` are not committed: both are skipped.
fn committed_files(crate_root: &Path, dirs: &[&str]) -> Result<BTreeSet<String>> {
    let mut out = BTreeSet::new();
    for dir in dirs {
        let mut pending: Vec<PathBuf> = vec![crate_root.join(dir)];
        while let Some(current) = pending.pop() {
            if !current.exists() {
                continue;
            }
            let listing = || format!("listing {}", current.display());
            for entry in fs::read_dir(&current).with_context(listing)? {
                let path = entry.with_context(listing)?.path();
                if path.is_dir() {
                    if path.file_name().is_some_and(|name| name != "node_modules") {
                        pending.push(path);
                    }
                } else if let Ok(relative) = path.strip_prefix(crate_root) {
                    let parts: Vec<String> = relative
                        .components()
                        .map(|part| part.as_os_str().to_string_lossy().into_owned())
                        .collect();
                    let path = parts.join("/");
                    if !super::npm::is_copy(&path) {
                        out.insert(path);
                    }
                }
            }
        }
    }
    Ok(out)
}

fn read(path: &Path) -> Result<String> {
    fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))
}
