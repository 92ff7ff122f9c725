//! Architecture invariants of `docs/architecture.md` that can be checked by reading the
//! source, checked on every `cargo test` (as rust-analyzer's tidy tests do), so they cannot
//! silently become false.
//!
//! [`layers`] checks every workspace member's `Cargo.toml` against the diagram of
//! `docs/architecture.md`: dependencies, dev-dependencies included, point up it only.
//! [`commands`] checks that no command module of the binary imports another.
//! [`circles`] checks that no files of a crate name each other in a circle.
//!
//! Each rule names the files it covers and the text those files must not contain (outside
//! comments). A rule may list files that still break it, each with the reason it is
//! tolerated; an allowance that is no longer needed is itself a failure, so the list only
//! shrinks.

mod circles;
mod commands;
mod layers;

use std::path::{Path, PathBuf};

/// One invariant.
pub(crate) struct Rule {
    /// What `docs/architecture.md` says, in short.
    pub(crate) name: &'static str,
    /// The folder (relative to the workspace root) whose `.rs` files the rule covers; test
    /// files (`*_tests.rs`, `tests/`, `test_support`) are not covered.
    pub(crate) folder: &'static str,
    /// Text a covered file must not contain outside comments and its test module; a text
    /// ending in [`UPPER`] stands for that text followed by an upper-case letter (a
    /// variant, not a function, of the type it names).
    pub(crate) forbidden: &'static [&'static str],
    /// Files (relative to the root) that still break the rule, and why.
    pub(crate) tolerated: &'static [(&'static str, &'static str)],
}

/// The rules of this workspace.
pub(crate) const RULES: &[Rule] = &[
    Rule {
        name: "codex-protocol does no IO and has no async runtime",
        folder: "protocol/src",
        forbidden: &[
            "std::fs",
            "std::net",
            "std::process",
            "tokio",
            "OpenOptions",
        ],
        tolerated: &[],
    },
    Rule {
        name: "codex-core opens no files",
        folder: "core/src",
        forbidden: &[
            "std::fs",
            "tokio::fs",
            "File::open",
            "File::create",
            "OpenOptions",
        ],
        tolerated: &[],
    },
    Rule {
        name: "codex-app-server-protocol reads and writes no files (codegen's IO is xtask's)",
        folder: "app-server-protocol/src",
        forbidden: &[
            "std::fs",
            "tokio::fs",
            "File::open",
            "File::create",
            "OpenOptions",
            "similar::",
        ],
        tolerated: &[],
    },
    Rule {
        name: "cli/src decides no turns (it asks codex-rollout's turn index)",
        folder: "cli/src",
        forbidden: &[
            "is_user_turn_boundary",
            "user_message_positions_in_rollout",
            "drop_last_n_user_turns",
        ],
        tolerated: &[],
    },
    Rule {
        name: "cli/src matches no calls to outputs",
        folder: "cli/src",
        forbidden: &["pair_key", "PairKey"],
        tolerated: &[],
    },
    Rule {
        name: "cli/src totals no tokens (it asks codex-home's UsageScan, the one usage rule)",
        folder: "cli/src",
        forbidden: &[
            "total_token_usage",
            "last_token_usage",
            "thread_token_usage",
        ],
        tolerated: &[],
    },
    Rule {
        name: "cli/src prices nothing and reads no whole session (codex-home's Pricing; the one \
               forward reader)",
        folder: "cli/src",
        forbidden: &[
            "cached_input_tokens as f64",
            "litellm_prices.json",
            "RolloutContents::parse",
            "RolloutContents::read",
            "load_rollout_items",
            "read_rollout_file",
        ],
        tolerated: &[],
    },
    Rule {
        name: "cli/src names no wire variant (it renders what the libraries answer)",
        folder: "cli/src",
        forbidden: &[
            "ResponseItem::{Upper}",
            "EventMsg::{Upper}",
            "RolloutItem::{Upper}",
        ],
        tolerated: &[],
    },
    Rule {
        name: "cli/src rebuilds no history (it asks codex-rollout's reconstruction and tail)",
        folder: "cli/src",
        forbidden: &[
            "replacement_history",
            "ContextManager::new",
            "record_owned_items",
        ],
        tolerated: &[],
    },
];

/// Most lines a hand-written source file may have.
pub(crate) const MAX_LINES: usize = 600;

/// Folders whose files are generated or vendored, not written by hand.
const GENERATED: &[&str] = &["target", "node_modules", "schema", "npm", ".git"];

/// A broken invariant.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Violation {
    pub(crate) rule: String,
    pub(crate) file: String,
    pub(crate) detail: String,
}

/// Every violation of this workspace's [`RULES`] and of the layer rule ([`layers`]) under
/// `root` (a workspace checkout).
pub(crate) fn check(root: &Path) -> std::io::Result<Vec<Violation>> {
    let mut violations = check_rules(root, RULES)?;
    violations.extend(layers::check(root)?);
    violations.extend(commands::check(root)?);
    violations.extend(circles::check(root)?);
    Ok(violations)
}

/// Every violation of `rules` (and of the line limit) under `root`.
pub(crate) fn check_rules(root: &Path, rules: &[Rule]) -> std::io::Result<Vec<Violation>> {
    let mut violations = Vec::new();
    let files = source_files(root)?;
    for rule in rules {
        let mut broken = Vec::new();
        for file in files.iter().filter(|file| covered(rule, file)) {
            let text = std::fs::read_to_string(root.join(file))?;
            if let Some(found) = find_forbidden(&text, rule.forbidden) {
                broken.push(file.clone());
                if !rule.tolerated.iter().any(|(name, _)| *name == file) {
                    violations.push(Violation {
                        rule: rule.name.to_string(),
                        file: file.clone(),
                        detail: format!("contains `{found}`"),
                    });
                }
            }
        }
        for (name, reason) in rule.tolerated {
            if !broken.iter().any(|file| file == name) {
                violations.push(Violation {
                    rule: rule.name.to_string(),
                    file: (*name).to_string(),
                    detail: format!("tolerated ({reason}) but no longer breaks it: remove it"),
                });
            }
        }
    }
    for file in files.iter().filter(|file| is_bench_main(file)) {
        let text = std::fs::read_to_string(root.join(file))?;
        let measures_in_tests = text.contains("criterion_main!")
            || (text.contains("fn main()") && !text.contains("under_cargo_bench("));
        if measures_in_tests {
            violations.push(Violation {
                rule: "benchmarks measure under `cargo bench` only".to_string(),
                file: file.clone(),
                detail: "its `main` does not ask `codex_test_support::under_cargo_bench` first \
                         (or use `codex_test_support::bench_main!`, which does)"
                    .to_string(),
            });
        }
    }
    for file in &files {
        let lines = std::fs::read_to_string(root.join(file))?.lines().count();
        if lines > MAX_LINES {
            violations.push(Violation {
                rule: format!("no hand-written source file over {MAX_LINES} lines"),
                file: file.clone(),
                detail: format!("{lines} lines"),
            });
        }
    }
    Ok(violations)
}

fn covered(rule: &Rule, file: &str) -> bool {
    file.starts_with(rule.folder)
        && !file.ends_with("_tests.rs")
        && !file.contains("/tests/")
        && !file.contains("test_support")
}

/// A bench target's own file (`<crate>/benches/<name>.rs`; not its support modules), which
/// `cargo test --all-targets` runs as a test.
fn is_bench_main(file: &str) -> bool {
    let mut parts = file.split('/');
    matches!(
        (parts.next(), parts.next(), parts.next(), parts.next()),
        (Some(_), Some("benches"), Some(name), None) if name.ends_with(".rs")
    )
}

/// The end of a forbidden text that stands for an upper-case letter.
pub(crate) const UPPER: &str = "{Upper}";

/// The first forbidden text found on a line that is not a comment, before the file's test
/// module (`#[cfg(test)]` then `mod tests`).
fn find_forbidden(text: &str, forbidden: &[&'static str]) -> Option<&'static str> {
    code_lines(text).into_iter().find_map(|line| {
        forbidden
            .iter()
            .copied()
            .find(|word| contains_forbidden(line, word))
    })
}

/// The lines of `text` that are code: trimmed at the start, comments left out, up to the
/// file's test module (`#[cfg(test)]` then `mod tests`).
pub(crate) fn code_lines(text: &str) -> Vec<&str> {
    let lines: Vec<&str> = text.lines().map(str::trim_start).collect();
    let end = lines
        .windows(2)
        .position(|pair| pair[0] == "#[cfg(test)]" && pair[1].starts_with("mod tests"))
        .unwrap_or(lines.len());
    lines[..end]
        .iter()
        .copied()
        .filter(|line| !line.starts_with("//"))
        .collect()
}

/// Whether `line` contains `word` ([`UPPER`] at its end standing for an upper-case letter).
fn contains_forbidden(line: &str, word: &str) -> bool {
    let Some(prefix) = word.strip_suffix(UPPER) else {
        return line.contains(word);
    };
    line.match_indices(prefix).any(|(at, _)| {
        line[at + prefix.len()..]
            .chars()
            .next()
            .is_some_and(|next| next.is_ascii_uppercase())
    })
}

/// The hand-written `.rs` and `.ts` files under `root`, relative, with `/` separators.
fn source_files(root: &Path) -> std::io::Result<Vec<String>> {
    let mut found = Vec::new();
    let mut pending = vec![PathBuf::new()];
    while let Some(relative) = pending.pop() {
        for entry in std::fs::read_dir(root.join(&relative))? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let path = relative.join(&name);
            if entry.file_type()?.is_dir() {
                if !GENERATED.contains(&name.as_str()) {
                    pending.push(path);
                }
            } else if name.ends_with(".rs") || (name.ends_with(".ts") && !name.ends_with(".d.ts")) {
                found.push(path.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    found.sort();
    Ok(found)
}

#[cfg(test)]
#[path = "tidy_tests.rs"]
mod tests;
