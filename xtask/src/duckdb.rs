//! DuckDB for the Parquet table tests (`cli/tests/table.rs`): the `duckdb` package from PyPI
//! at the pinned version (`codex_test_support::DUCKDB_VERSION`), installed with pip into a
//! virtual environment under `<target>/duckdb/<version>`.
//!
//! `cargo xtask duckdb` creates it when missing and prints its Python; `cargo xtask ci` does
//! the same before its test step and sets `CODEX_DUCKDB_PYTHON` and `CODEX_REQUIRE_DUCKDB=1`,
//! so the table tests run there or fail.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};
use codex_test_support::{DUCKDB_VERSION, duckdb_venv_dir, has_duckdb, python_in_venv};

/// `cargo xtask duckdb`: installs DuckDB when missing, prints the Python that imports it.
pub fn install() -> Result<()> {
    let python = ensure()?;
    #[allow(clippy::print_stdout)] // xtask is a command-line tool; stdout is its answer.
    {
        println!("{}", python.display());
    }
    Ok(())
}

/// The Python of the virtual environment with DuckDB, created first when missing.
pub fn ensure() -> Result<PathBuf> {
    let venv = duckdb_venv_dir();
    let python = python_in_venv(&venv);
    if has_duckdb(&python) {
        return Ok(python);
    }
    crate::ci::banner(&format!(
        "DuckDB: python3 -m venv {} && pip install duckdb=={DUCKDB_VERSION} (the table tests query with it)",
        venv.display()
    ));
    let created = Command::new("python3")
        .args(["-m", "venv"])
        .arg(&venv)
        .status()
        .context("could not run python3 -m venv (the table tests need Python 3 with venv)")?;
    if !created.success() {
        bail!("python3 -m venv {} failed ({created})", venv.display());
    }
    let installed = Command::new(&python)
        .args([
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
        ])
        .arg(format!("duckdb=={DUCKDB_VERSION}"))
        .status()
        .context("could not run pip in the DuckDB virtual environment")?;
    if !installed.success() || !has_duckdb(&python) {
        bail!(
            "could not install duckdb {DUCKDB_VERSION} from PyPI into {} ({installed}); the \
             table tests need it: check the network, or point CODEX_DUCKDB_PYTHON at a Python \
             that imports it",
            venv.display()
        );
    }
    Ok(python)
}
