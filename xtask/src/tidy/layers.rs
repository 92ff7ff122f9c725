//! The layer rule of `docs/architecture.md`: every workspace member's dependencies (normal,
//! dev and build) point up the diagram in its "Bird's-eye view", never to a crate on the
//! same line or below.
//!
//! The order is read from the document itself (the crate names of the first code block after
//! the heading, one layer per line that names any), so the picture and the check cannot
//! drift apart. A few crates are outside the order, each with its reason. A package's
//! dev-dependency on itself (its `testing` feature for its own tests) is allowed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::Violation;

/// The document the order is read from, relative to the workspace root.
pub(crate) const ARCHITECTURE: &str = "docs/architecture.md";

/// The heading whose first code block is the diagram.
const DIAGRAM_HEADING: &str = "## Bird's-eye view";

/// Members outside the order, and why.
pub(crate) const OUTSIDE: &[(&str, &str)] = &[
    (
        "codex-test-support",
        "a dev-dependency of every crate that depends on none of them",
    ),
    ("xtask", "project automation over the whole workspace"),
    (
        "codex-app-server-protocol-wire-tests",
        "tests only, never published: the wire snapshots of codex-app-server-protocol",
    ),
];

/// The crate every layered crate may take as a dev-dependency.
const TEST_SUPPORT: &str = "codex-test-support";

const RULE: &str = "dependencies point up the diagram of docs/architecture.md";

/// One dependency of a member on another member.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Edge {
    /// `dependencies`, `dev-dependencies` or `build-dependencies`.
    kind: String,
    /// The package depended on.
    to: String,
}

/// Every violation of the layer rule under `root`, a workspace checkout.
pub(crate) fn check(root: &Path) -> std::io::Result<Vec<Violation>> {
    let mut violations = Vec::new();
    let architecture = std::fs::read_to_string(root.join(ARCHITECTURE))?;
    let layers = diagram_layers(&architecture);
    if layers.is_empty() {
        violations.push(violation(
            ARCHITECTURE,
            format!("no crate names in the first code block after `{DIAGRAM_HEADING}`"),
        ));
    }
    let members = members(root)?;
    let names: BTreeSet<&str> = members.values().map(|(name, _)| name.as_str()).collect();
    for name in layers.keys() {
        if !names.contains(name.as_str()) {
            violations.push(violation(
                ARCHITECTURE,
                format!("the diagram names `{name}`, which is no workspace member"),
            ));
        }
    }
    for (manifest, (name, edges)) in &members {
        let outside = OUTSIDE.iter().any(|(crate_name, _)| crate_name == name);
        let Some(&layer) = layers.get(name) else {
            if !outside {
                violations.push(violation(
                    manifest,
                    format!("`{name}` is neither in the diagram nor outside the order"),
                ));
            }
            continue;
        };
        if outside {
            violations.push(violation(
                manifest,
                format!("`{name}` is in the diagram and listed as outside the order"),
            ));
        }
        for edge in edges.iter().filter(|edge| names.contains(edge.to.as_str())) {
            // A dev-dependency of a package on itself turns on its `testing` feature for its
            // own tests; it points nowhere in the diagram.
            let own_tests = edge.to == *name && edge.kind == "dev-dependencies";
            let allowed = own_tests
                || match layers.get(&edge.to) {
                    Some(&to) => to < layer,
                    None => edge.to == TEST_SUPPORT,
                };
            if !allowed {
                violations.push(violation(
                    manifest,
                    format!(
                        "`{name}` has `{}` in [{}], which is not on a line above it",
                        edge.to, edge.kind
                    ),
                ));
            }
        }
    }
    Ok(violations)
}

fn violation(file: impl Into<String>, detail: String) -> Violation {
    Violation {
        rule: RULE.to_string(),
        file: file.into(),
        detail,
    }
}

/// The layer of each crate the diagram names: the index of its line among the lines that
/// name a crate (`codex-…` words), top first.
fn diagram_layers(architecture: &str) -> BTreeMap<String, usize> {
    let mut layers = BTreeMap::new();
    let Some(section) = architecture
        .split_once(DIAGRAM_HEADING)
        .map(|(_, rest)| rest)
    else {
        return layers;
    };
    let Some(block) = section
        .split("```")
        .nth(1)
        .map(|block| block.split_once('\n').map_or(block, |(_, body)| body))
    else {
        return layers;
    };
    let mut layer = 0;
    for line in block.lines() {
        let crates: Vec<&str> = line
            .split_whitespace()
            .filter(|word| word.starts_with("codex-") && !word.contains('/'))
            .collect();
        if crates.is_empty() {
            continue;
        }
        for name in crates {
            layers.insert(name.to_string(), layer);
        }
        layer += 1;
    }
    layers
}

/// Each member's manifest (relative path) with its package name and its dependencies.
fn members(root: &Path) -> std::io::Result<BTreeMap<String, (String, Vec<Edge>)>> {
    let workspace = read_toml(root, "Cargo.toml")?;
    let folders: Vec<String> = workspace
        .get("workspace")
        .and_then(|workspace| workspace.get("members"))
        .and_then(toml::Value::as_array)
        .map(|members| {
            members
                .iter()
                .filter_map(|member| member.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default();
    let mut found = BTreeMap::new();
    for folder in folders {
        let manifest = format!("{folder}/Cargo.toml");
        let table = read_toml(root, &manifest)?;
        let name = table
            .get("package")
            .and_then(|package| package.get("name"))
            .and_then(toml::Value::as_str)
            .unwrap_or(&folder)
            .to_string();
        let mut edges = Vec::new();
        let mut tables = vec![&table];
        if let Some(targets) = table.get("target").and_then(toml::Value::as_table) {
            tables.extend(targets.values().filter_map(toml::Value::as_table));
        }
        for table in tables {
            for kind in ["dependencies", "dev-dependencies", "build-dependencies"] {
                let Some(deps) = table.get(kind).and_then(toml::Value::as_table) else {
                    continue;
                };
                for (key, value) in deps {
                    let to = value
                        .get("package")
                        .and_then(toml::Value::as_str)
                        .unwrap_or(key);
                    edges.push(Edge {
                        kind: kind.to_string(),
                        to: to.to_string(),
                    });
                }
            }
        }
        found.insert(manifest, (name, edges));
    }
    Ok(found)
}

fn read_toml(root: &Path, file: &str) -> std::io::Result<toml::Table> {
    let text = std::fs::read_to_string(root.join(file))?;
    toml::from_str(&text).map_err(|err| {
        std::io::Error::new(std::io::ErrorKind::InvalidData, format!("{file}: {err}"))
    })
}
