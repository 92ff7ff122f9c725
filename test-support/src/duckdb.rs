//! DuckDB, the engine the table tests query their Parquet with: the Python package from PyPI
//! at one pinned version, in a virtual environment under the target folder that
//! `cargo xtask ci` (and `cargo xtask duckdb` for a local run) creates.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The DuckDB version the tests query with.
pub const DUCKDB_VERSION: &str = "1.5.6";

/// The environment variable naming the Python that can `import duckdb` (`cargo xtask ci`
/// sets it to the virtual environment's).
pub const DUCKDB_PYTHON_ENV: &str = "CODEX_DUCKDB_PYTHON";

/// The environment variable that turns a missing DuckDB from a loud skip into a failure
/// (`cargo xtask ci` sets it to `1`; so does `CI=true`).
pub const REQUIRE_DUCKDB_ENV: &str = "CODEX_REQUIRE_DUCKDB";

/// The virtual environment of [`DUCKDB_VERSION`]: `<target>/duckdb/<version>` (the target
/// folder as the real Codex's install finds it).
pub fn duckdb_venv_dir() -> PathBuf {
    crate::real_codex::target_dir()
        .join("duckdb")
        .join(DUCKDB_VERSION)
}

/// The Python inside a virtual environment.
pub fn python_in_venv(venv: &Path) -> PathBuf {
    venv.join("bin").join("python")
}

/// Whether `python` imports DuckDB at the pinned version.
pub fn has_duckdb(python: &Path) -> bool {
    Command::new(python)
        .args([
            "-c",
            "import duckdb, sys; sys.stdout.write(duckdb.__version__)",
        ])
        .output()
        .is_ok_and(|output| {
            output.status.success()
                && String::from_utf8_lossy(&output.stdout).trim() == DUCKDB_VERSION
        })
}

/// A Python that imports DuckDB: `$CODEX_DUCKDB_PYTHON`, else the virtual environment's;
/// `None` after a loud message when neither does and it is not required.
///
/// # Panics
///
/// When neither does and `CODEX_REQUIRE_DUCKDB=1` or `CI=true`.
pub fn duckdb_python_or_skip() -> Option<PathBuf> {
    let python = match std::env::var_os(DUCKDB_PYTHON_ENV) {
        Some(python) if !python.is_empty() => PathBuf::from(python),
        _ => python_in_venv(&duckdb_venv_dir()),
    };
    if has_duckdb(&python) {
        return Some(python);
    }
    let required = crate::skip::required_by(REQUIRE_DUCKDB_ENV)
        || std::env::var("CI").is_ok_and(|value| value == "true");
    crate::skip::skip_or_fail(
        REQUIRE_DUCKDB_ENV,
        required,
        &format!(
            "no Python with duckdb {DUCKDB_VERSION} at {}",
            python.display()
        ),
        "; run `cargo xtask duckdb` (cargo xtask ci does) or point CODEX_DUCKDB_PYTHON at one",
    );
    None
}
