//! The real session files folder and the skip-or-fail rule for it.

use std::io;
use std::path::{Path, PathBuf};

/// Where the real Codex session files live: `../shared/fixtures/real` relative to the
/// workspace root (this crate sits one level below the root, like every other crate).
pub const REAL_FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../shared/fixtures/real");

/// The environment variable that turns a missing fixtures folder from a skip into a failure
/// (CI sets it to `1`, so real-fixture tests can never pass there without running).
pub const REQUIRE_REAL_FIXTURES_ENV: &str = "CODEX_REQUIRE_REAL_FIXTURES";

/// Whether this process requires the real fixtures (`CODEX_REQUIRE_REAL_FIXTURES=1`).
pub fn required_by_env() -> bool {
    crate::skip::required_by(REQUIRE_REAL_FIXTURES_ENV)
}

/// The rule, with the folder and the requirement injected: `Some(dir)` when `dir` is a
/// folder; otherwise a panic when `required`, else `None` after a loud message on stderr.
///
/// # Panics
///
/// When `dir` is not a folder and `required` is true: that is how a required fixture fails
/// its test.
pub fn fixtures_dir_at(dir: &Path, required: bool) -> Option<PathBuf> {
    if dir.is_dir() {
        return Some(dir.to_path_buf());
    }
    let missing = format!("the real fixtures folder {} is missing", dir.display());
    crate::skip::skip_or_fail(REQUIRE_REAL_FIXTURES_ENV, required, &missing, "");
    None
}

/// The real fixtures folder, or `None` (after a loud message) when it is missing and not
/// required.
///
/// # Panics
///
/// When the folder is missing and `CODEX_REQUIRE_REAL_FIXTURES=1`.
pub fn real_fixtures_dir() -> Option<PathBuf> {
    fixtures_dir_at(Path::new(REAL_FIXTURES), required_by_env())
}

/// The `*.jsonl` files directly in `dir`, sorted by path so tests and reports are stable.
pub fn jsonl_files_in(dir: &Path) -> io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().is_some_and(|ext| ext == "jsonl") && path.is_file() {
            files.push(path);
        }
    }
    files.sort();
    Ok(files)
}

/// The real session files, sorted; `None` (after a loud message) when the folder is missing
/// and not required.
///
/// # Panics
///
/// When the folder is missing and `CODEX_REQUIRE_REAL_FIXTURES=1`.
pub fn real_jsonl_files() -> io::Result<Option<Vec<PathBuf>>> {
    real_fixtures_dir()
        .map(|dir| jsonl_files_in(&dir))
        .transpose()
}

/// The first real session file whose name starts with `prefix`; `None` when the folder is
/// skipped or no file matches.
///
/// # Panics
///
/// When the folder is missing and `CODEX_REQUIRE_REAL_FIXTURES=1`.
pub fn real_file(prefix: &str) -> io::Result<Option<PathBuf>> {
    Ok(real_jsonl_files()?.and_then(|files| {
        files.into_iter().find(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with(prefix))
        })
    }))
}

/// The non-empty lines of a JSON Lines file, as bytes (the newline removed, nothing else).
pub fn non_empty_lines(path: &Path) -> io::Result<Vec<Vec<u8>>> {
    let bytes = std::fs::read(path)?;
    Ok(bytes
        .split(|byte| *byte == b'\n')
        .filter(|line| !line.is_empty())
        .map(<[u8]>::to_vec)
        .collect())
}

#[cfg(test)]
#[path = "real_fixtures_tests.rs"]
mod tests;
