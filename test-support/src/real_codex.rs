//! The real Codex CLI: the version the project tests against, where its binary is, and the
//! skip-or-fail rule when it is missing.
//!
//! `cargo xtask real-codex install` puts the pinned version from the npm registry under the
//! target folder; `cargo xtask ci` installs it and sets [`REQUIRE_REAL_CODEX_ENV`], so the
//! tests that run it can never pass in CI without running. [`PINNED_CODEX_VERSION`] is the
//! one place the version is written: the xtask reads it from here.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The Codex version the tests run against (npm package `@openai/codex`).
pub const PINNED_CODEX_VERSION: &str = "0.171.0";

/// A path to a `codex` binary to use instead of the installed pin (how
/// `cargo xtask real-codex diff --version V` runs the tests against another version).
pub const REAL_CODEX_BIN_ENV: &str = "CODEX_REAL_BIN";

/// The environment variable that turns a missing real Codex from a skip into a failure.
pub const REQUIRE_REAL_CODEX_ENV: &str = "CODEX_REQUIRE_REAL_CODEX";

/// The binary inside an npm install prefix: the `@openai/codex-linux-x64` package that
/// `@openai/codex` pulls in on x86-64 Linux.
/// Where the native binary lies in an npm install prefix, newest layout first: from 0.146 in
/// the platform package's `bin/`, for 0.100 to 0.125 in its `codex/`, and before 0.100 in the
/// main package (which then held every platform's binary).
const BINS_IN_PREFIX: [&str; 3] = [
    "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex",
    "node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/codex/codex",
    "node_modules/@openai/codex/vendor/x86_64-unknown-linux-musl/codex/codex",
];

/// A real Codex binary that exists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RealCodex {
    bin: PathBuf,
}

impl RealCodex {
    /// The binary.
    pub fn bin(&self) -> &Path {
        &self.bin
    }

    /// A command running the binary, nothing else set.
    pub fn command(&self) -> Command {
        Command::new(&self.bin)
    }

    /// The version it reports (`codex --version` prints `codex-cli 0.169.0`); `None` when it
    /// cannot be run or says something else.
    pub fn version(&self) -> Option<String> {
        let output = self.command().arg("--version").output().ok()?;
        let text = String::from_utf8(output.stdout).ok()?;
        let version = text.split_whitespace().last()?;
        version
            .chars()
            .next()
            .is_some_and(|first| first.is_ascii_digit())
            .then(|| version.to_owned())
    }
}

/// The real Codex for `test_name`: `Some` when the binary ([`real_codex_bin`]) exists;
/// otherwise a panic when `CODEX_REQUIRE_REAL_CODEX=1`, else `None` after a loud message on
/// stderr (the rule of the real fixtures, shared with them).
///
/// # Panics
///
/// When the binary is missing and `CODEX_REQUIRE_REAL_CODEX=1`; the message says how to
/// install it.
pub fn real_codex_or_skip(test_name: &str) -> Option<RealCodex> {
    real_codex_at(
        &real_codex_bin(),
        crate::skip::required_by(REQUIRE_REAL_CODEX_ENV),
        test_name,
    )
}

/// Where the version matrix's writer is: an older release that writes the sessions today's
/// pinned Codex then reads (`cargo xtask real-codex matrix` sets it for each release it runs;
/// `cargo xtask ci` for [`CI_WRITER_CODEX_VERSION`]).
pub const WRITER_CODEX_BIN_ENV: &str = "CODEX_WRITER_BIN";

/// The older release CI has write the matrix's scenarios: the richest old shape (no turn ids,
/// `shell` with an argv, compactions that keep only a message, classic turn contexts, ghost
/// snapshots).
pub const CI_WRITER_CODEX_VERSION: &str = "0.58.0";

/// The releases `cargo xtask real-codex matrix` runs by default: a spread from 0.47 to the
/// pin, each a shape of its own (`../shared/reference/old-codex-versions.md`).
pub const MATRIX_CODEX_VERSIONS: [&str; 10] = [
    "0.47.0",
    "0.58.0",
    "0.77.0",
    "0.100.0",
    "0.125.0",
    "0.146.0",
    "0.151.0",
    "0.159.0",
    "0.169.0",
    PINNED_CODEX_VERSION,
];

/// The older Codex that writes the version matrix's sessions for `test_name`:
/// [`WRITER_CODEX_BIN_ENV`] when set, else [`CI_WRITER_CODEX_VERSION`] where
/// `cargo xtask real-codex install --version` puts it; skipped or failed as
/// [`real_codex_or_skip`] is.
///
/// # Panics
///
/// When the binary is missing and `CODEX_REQUIRE_REAL_CODEX=1`.
pub fn writer_codex_or_skip(test_name: &str) -> Option<RealCodex> {
    let bin = match std::env::var_os(WRITER_CODEX_BIN_ENV) {
        Some(bin) if !bin.is_empty() => PathBuf::from(bin),
        _ => bin_in_install_dir(&real_codex_install_dir(CI_WRITER_CODEX_VERSION)),
    };
    if bin.is_file() {
        return Some(RealCodex { bin });
    }
    let missing = format!(
        "the older Codex that writes {test_name}'s sessions is missing at {}",
        bin.display()
    );
    let remedy = format!(
        "; install it with `cargo xtask real-codex install --version {CI_WRITER_CODEX_VERSION}`, \
         or point {WRITER_CODEX_BIN_ENV} at a codex binary"
    );
    crate::skip::skip_or_fail(
        REQUIRE_REAL_CODEX_ENV,
        crate::skip::required_by(REQUIRE_REAL_CODEX_ENV),
        &missing,
        &remedy,
    );
    None
}

/// The rule with the binary and the requirement injected (see [`real_codex_or_skip`]).
///
/// # Panics
///
/// When `bin` is not a file and `required` is true.
pub fn real_codex_at(bin: &Path, required: bool, test_name: &str) -> Option<RealCodex> {
    if bin.is_file() {
        return Some(RealCodex {
            bin: bin.to_path_buf(),
        });
    }
    let missing = format!(
        "the real Codex for {test_name} is missing at {}",
        bin.display()
    );
    let remedy = format!(
        "; install Codex {PINNED_CODEX_VERSION} with `cargo xtask real-codex install`, or \
         point {REAL_CODEX_BIN_ENV} at a codex binary"
    );
    crate::skip::skip_or_fail(REQUIRE_REAL_CODEX_ENV, required, &missing, &remedy);
    None
}

/// Where the tests look for the binary: `CODEX_REAL_BIN` when set (and not empty), else
/// where `cargo xtask real-codex install` puts the pinned version
/// ([`real_codex_install_dir`]).
pub fn real_codex_bin() -> PathBuf {
    match std::env::var_os(REAL_CODEX_BIN_ENV) {
        Some(bin) if !bin.is_empty() => PathBuf::from(bin),
        _ => bin_in_install_dir(&real_codex_install_dir(PINNED_CODEX_VERSION)),
    }
}

/// The npm install prefix of a Codex version: `<target>/real-codex/<version>`, where
/// `<target>` is `CARGO_TARGET_DIR` when set (relative to the workspace root when relative),
/// else the workspace root's `target/`. Outside the sources, and removed by `cargo clean`.
pub fn real_codex_install_dir(version: &str) -> PathBuf {
    target_dir().join("real-codex").join(version)
}

/// The workspace's target folder: `CARGO_TARGET_DIR` when set (relative to the workspace
/// root when relative), else the workspace root's `target/`.
pub(crate) fn target_dir() -> PathBuf {
    let root = workspace_root();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(dir) if !dir.is_empty() => root.join(dir),
        _ => root.join("target"),
    }
}

/// The `codex` binary inside an npm install prefix made by `npm install --prefix DIR
/// @openai/codex@V` on x86-64 Linux: the first of the releases' layouts that exists there,
/// else where today's releases put it.
pub fn bin_in_install_dir(prefix: &Path) -> PathBuf {
    BINS_IN_PREFIX
        .iter()
        .map(|bin| prefix.join(bin))
        .find(|bin| bin.is_file())
        .unwrap_or_else(|| prefix.join(BINS_IN_PREFIX[0]))
}

/// The workspace root: the parent of this crate's folder.
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_binary_is_skipped_when_not_required() {
        let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-codex");
        assert_eq!(real_codex_at(&missing, false, "a_test"), None);
    }

    #[test]
    #[should_panic(expected = "cargo xtask real-codex install")]
    fn missing_binary_fails_when_required_and_says_how_to_install() {
        let missing = Path::new(env!("CARGO_MANIFEST_DIR")).join("no-such-codex");
        let _ = real_codex_at(&missing, true, "a_test");
    }

    #[test]
    fn install_dir_is_under_the_target_folder() {
        let dir = real_codex_install_dir("1.2.3");
        assert!(dir.ends_with("real-codex/1.2.3"), "{}", dir.display());
        assert!(
            bin_in_install_dir(&dir).ends_with("x86_64-unknown-linux-musl/bin/codex"),
            "{}",
            dir.display()
        );
    }
}
