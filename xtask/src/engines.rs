//! The query engines of the Parquet table tests (`cli/tests/it/table.rs`,
//! `cli/tests/it/table_engines.rs`): DuckDB and PySpark from PyPI at the pinned versions
//! (`codex_test_support::DUCKDB`, `PYSPARK`), each installed with pip into a virtual
//! environment under `<target>/<package>/<version>`, and for Spark a Java runtime (Debian's
//! `openjdk-17-jre-headless`, installed with apt-get when `java` is missing).
//!
//! `cargo xtask duckdb` and `cargo xtask spark` create them when missing and print the Python;
//! `cargo xtask ci` does the same before its test step and sets each package's Python and
//! `CODEX_REQUIRE_*=1`, so the table tests run there or fail.

use std::path::PathBuf;
use std::process::Command;

use anyhow::{Context, Result, bail};
use codex_test_support::{PYSPARK, PythonPackage, python_in_venv};

/// The Debian package of the Java runtime Spark runs on.
const JAVA_PACKAGE: &str = "openjdk-17-jre-headless";

/// `cargo xtask duckdb` / `cargo xtask spark`: installs the package when missing, prints the
/// Python that imports it.
pub(crate) fn install(package: &PythonPackage) -> Result<()> {
    let python = ensure(package)?;
    #[allow(clippy::print_stdout)] // xtask is a command-line tool; stdout is its answer.
    {
        println!("{}", python.display());
    }
    Ok(())
}

/// The Python of the package's virtual environment, created first when missing (for
/// PySpark, with a Java runtime).
pub(crate) fn ensure(package: &PythonPackage) -> Result<PathBuf> {
    if package.name == PYSPARK.name {
        ensure_java()?;
    }
    let venv = package.venv_dir();
    let python = python_in_venv(&venv);
    if package.is_importable_by(&python) {
        return Ok(python);
    }
    let wanted = format!("{}=={}", package.name, package.version);
    crate::ci::banner(&format!(
        "{}: python3 -m venv {} && pip install {wanted} (the table tests query with it)",
        package.name,
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
        .arg(&wanted)
        .status()
        .context("could not run pip in the virtual environment")?;
    if !installed.success() || !package.is_importable_by(&python) {
        bail!(
            "could not install {wanted} from PyPI into {} ({installed}); the table tests need \
             it: check the network, or point {} at a Python that imports it",
            venv.display(),
            package.python_env
        );
    }
    Ok(python)
}

/// A `java` that runs, installed from Debian's packages when there is none.
fn ensure_java() -> Result<()> {
    if java_runs() {
        return Ok(());
    }
    crate::ci::banner(&format!(
        "Java: apt-get install -y {JAVA_PACKAGE} (Spark runs on it)"
    ));
    // A fresh machine's package lists may be missing or old: update them once on failure.
    let mut installed = crate::browser::apt_install(JAVA_PACKAGE);
    if !installed.as_ref().is_ok_and(|status| status.success()) {
        let _ = Command::new("apt-get").arg("update").status();
        installed = crate::browser::apt_install(JAVA_PACKAGE);
    }
    match installed {
        Ok(status) if status.success() && java_runs() => Ok(()),
        Ok(status) => bail!(
            "could not install {JAVA_PACKAGE} (apt-get: {status}); the Spark table tests need a \
             Java runtime (17 or newer) as `java` on PATH: install one as root"
        ),
        Err(err) => bail!(
            "could not run apt-get to install {JAVA_PACKAGE} ({err}); the Spark table tests \
             need a Java runtime (17 or newer) as `java` on PATH"
        ),
    }
}

fn java_runs() -> bool {
    Command::new("java")
        .arg("-version")
        .output()
        .is_ok_and(|output| output.status.success())
}
