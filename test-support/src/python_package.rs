//! The query engines the table tests read their Parquet with, each a Python package from PyPI
//! at one pinned version in a virtual environment under the target folder, that `cargo xtask
//! ci` (and `cargo xtask duckdb` / `cargo xtask spark` for a local run) creates: DuckDB, and
//! PySpark (Spark itself, run in local mode on the Java runtime from Debian's packages).

use std::path::{Path, PathBuf};
use std::process::Command;

/// One pinned Python package and how a test finds a Python that imports it.
#[derive(Debug, Clone, Copy)]
pub struct PythonPackage {
    /// The name pip installs (`duckdb`, `pyspark`); also the module imported.
    pub name: &'static str,
    /// The pinned version.
    pub version: &'static str,
    /// The environment variable naming a Python that imports it (`cargo xtask ci` sets it to
    /// the virtual environment's).
    pub python_env: &'static str,
    /// The environment variable that turns a missing package from a loud skip into a failure
    /// (`cargo xtask ci` sets it to `1`; so does `CI=true`).
    pub require_env: &'static str,
    /// The `cargo xtask` command that installs it.
    pub xtask: &'static str,
}

/// DuckDB, the engine of `cli/tests/it/table.rs` and the DuckDB half of the engine test.
pub const DUCKDB: PythonPackage = PythonPackage {
    name: "duckdb",
    version: "1.5.6",
    python_env: "CODEX_DUCKDB_PYTHON",
    require_env: "CODEX_REQUIRE_DUCKDB",
    xtask: "cargo xtask duckdb",
};

/// PySpark: Spark in local mode, the engine a team reads many people's tables with.
pub const PYSPARK: PythonPackage = PythonPackage {
    name: "pyspark",
    version: "4.3.0",
    python_env: "CODEX_SPARK_PYTHON",
    require_env: "CODEX_REQUIRE_SPARK",
    xtask: "cargo xtask spark",
};

impl PythonPackage {
    /// The virtual environment: `<target>/<name>/<version>` (the target folder as the real
    /// Codex's install finds it).
    pub fn venv_dir(&self) -> PathBuf {
        crate::real_codex::target_dir()
            .join(self.name)
            .join(self.version)
    }

    /// Whether `python` imports the package at the pinned version (for PySpark, that alone:
    /// whether Java runs is asked when a session starts).
    pub fn is_importable_by(&self, python: &Path) -> bool {
        let script = format!(
            "import {0}, sys; sys.stdout.write({0}.__version__)",
            self.name
        );
        Command::new(python)
            .args(["-c", &script])
            .output()
            .is_ok_and(|output| {
                output.status.success()
                    && String::from_utf8_lossy(&output.stdout).trim() == self.version
            })
    }

    /// A Python that imports the package: the one [`Self::python_env`] names, else the
    /// virtual environment's; `None` after a loud message when neither does and it is not
    /// required.
    ///
    /// # Panics
    ///
    /// When neither does and [`Self::require_env`] is `1` or `CI=true`.
    pub fn python_or_skip(&self) -> Option<PathBuf> {
        let python = match std::env::var_os(self.python_env) {
            Some(python) if !python.is_empty() => PathBuf::from(python),
            _ => python_in_venv(&self.venv_dir()),
        };
        if self.is_importable_by(&python) {
            return Some(python);
        }
        let required = crate::skip::required_by(self.require_env)
            || std::env::var("CI").is_ok_and(|value| value == "true");
        crate::skip::skip_or_fail(
            self.require_env,
            required,
            &format!(
                "no Python with {} {} at {}",
                self.name,
                self.version,
                python.display()
            ),
            &format!(
                "; run `{}` (cargo xtask ci does) or point {} at one",
                self.xtask, self.python_env
            ),
        );
        None
    }
}

/// The Python inside a virtual environment.
pub fn python_in_venv(venv: &Path) -> PathBuf {
    venv.join("bin").join("python")
}
