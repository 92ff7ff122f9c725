//! The CI job: the one command (`cargo xtask ci`) that README.md tells a new user to run and
//! that `.ci/run` calls, so what CI proves is what a user can run.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};

/// Runs every check in order and stops at the first failure.
pub(crate) fn run() -> Result<()> {
    let root = workspace_root()?;
    // The HTML export's safety test needs a real browser: have one, and fail without it.
    let browser = crate::browser::ensure_chromium()?.display().to_string();
    // The differential tests need the real Codex: have the pinned one, and fail without it.
    let codex = crate::real_codex::ensure(codex_test_support::PINNED_CODEX_VERSION)?
        .display()
        .to_string();
    // The version matrix's test has an older release write what the pinned one reads.
    let writer = crate::real_codex::ensure(codex_test_support::CI_WRITER_CODEX_VERSION)?
        .display()
        .to_string();
    // The terminal UI tests drive `codex-thread view` in tmux: have it, and fail without it.
    crate::view_screens::ensure_tmux()?;
    // The Parquet table tests query with DuckDB and Spark: have the pinned ones, and fail
    // without them.
    let duckdb = crate::engines::ensure(&codex_test_support::DUCKDB)?
        .display()
        .to_string();
    let spark = crate::engines::ensure(&codex_test_support::PYSPARK)?
        .display()
        .to_string();
    let test_env = [
        (crate::browser::REQUIRE_BROWSER_ENV, "1"),
        ("CODEX_CHROMIUM", browser.as_str()),
        (codex_test_support::REQUIRE_REAL_CODEX_ENV, "1"),
        (codex_test_support::REAL_CODEX_BIN_ENV, codex.as_str()),
        (codex_test_support::WRITER_CODEX_BIN_ENV, writer.as_str()),
        (codex_test_support::DUCKDB.require_env, "1"),
        (codex_test_support::DUCKDB.python_env, duckdb.as_str()),
        (codex_test_support::PYSPARK.require_env, "1"),
        (codex_test_support::PYSPARK.python_env, spark.as_str()),
    ];
    step(&root, "format", "cargo", &["fmt", "--all", "--", "--check"])?;
    step(
        &root,
        "clippy",
        "cargo",
        &[
            "clippy",
            "--workspace",
            "--all-targets",
            "--locked",
            "--",
            "-D",
            "warnings",
        ],
    )?;
    step_with_env(
        &root,
        "tests",
        "cargo",
        &["test", "--workspace", "--all-targets", "--locked"],
        &test_env,
    )?;
    step(
        &root,
        "doc tests",
        "cargo",
        &["test", "--workspace", "--doc", "--locked"],
    )?;
    banner("generated schema drift: cargo xtask codegen --check");
    crate::codegen::run(true)?;
    banner("TypeScript client: npm ci, tsc --strict, node --test");
    crate::ts_client::test()?;
    doc(&root)?;
    crate::package::run()?;
    banner("all checks passed");
    Ok(())
}

/// `cargo doc --no-deps` of the published crates, every rustdoc warning (broken or private
/// intra-doc links included) an error: the docs are what a downstream user reads first.
fn doc(root: &Path) -> Result<()> {
    let mut args = vec!["doc", "--no-deps", "--locked"];
    for name in crate::package::PUBLISHED {
        args.extend(["-p", name]);
    }
    banner(&format!(
        "docs: RUSTDOCFLAGS=\"-D warnings\" cargo {}",
        args.join(" ")
    ));
    let status = Command::new("cargo")
        .args(&args)
        .env("RUSTDOCFLAGS", "-D warnings")
        .current_dir(root)
        .status()
        .context("could not start `cargo doc`")?;
    if !status.success() {
        bail!("step `docs` failed ({status})");
    }
    Ok(())
}

/// The workspace root: the parent of this crate's manifest directory.
pub(crate) fn workspace_root() -> Result<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(Path::to_path_buf)
        .context("xtask's manifest directory has no parent")
}

/// Runs one named step, echoing the command so a CI log shows what failed.
pub(crate) fn step(dir: &Path, name: &str, program: &str, args: &[&str]) -> Result<()> {
    step_with_env(dir, name, program, args, &[])
}

/// [`step`] with extra environment variables (echoed too).
pub(crate) fn step_with_env(
    dir: &Path,
    name: &str,
    program: &str,
    args: &[&str],
    env: &[(&str, &str)],
) -> Result<()> {
    let shown_env: String = env
        .iter()
        .map(|(key, value)| format!("{key}={value} "))
        .collect();
    banner(&format!("{name}: {shown_env}{program} {}", args.join(" ")));
    let status = Command::new(program)
        .args(args)
        .envs(env.iter().copied())
        .current_dir(dir)
        .status()
        .with_context(|| format!("could not start `{program}` for step `{name}`"))?;
    if !status.success() {
        bail!("step `{name}` failed ({status})");
    }
    Ok(())
}

#[allow(clippy::print_stderr)] // xtask is a command-line tool; stderr is its log.
pub(crate) fn banner(text: &str) {
    eprintln!("\n==> {text}");
}
