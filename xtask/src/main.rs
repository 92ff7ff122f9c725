//! Project automation, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).
//!
//! - `cargo xtask ci`: everything CI checks, in the order a failure is cheapest to see:
//!   formatting, clippy on all targets with warnings denied, every test, the generated-schema
//!   drift check, the TypeScript client's tests, `cargo doc` with warnings denied, and
//!   `cargo xtask package`.
//! - `cargo xtask codegen [--check]`: regenerate the committed JSON Schema and TypeScript
//!   under `app-server-protocol/schema/` and the npm package under `app-server-protocol/npm/`,
//!   or fail with a diff when they drift.
//! - `cargo xtask package`: `cargo package` and `cargo publish --dry-run` of the published
//!   crates, the npm package packed reproducibly, and fresh TypeScript and Cargo projects
//!   that use them as a downstream user would (also part of `ci`).
//! - `cargo xtask tidy`: the architecture invariants checked from the source (also a test,
//!   so `cargo test` and CI run it).
//! - `cargo xtask screenshots`: the pictures of `docs/export.md`, regenerated from real
//!   sessions in headless Chromium.
//! - `cargo xtask view-screens`: the captured screens of `docs/view.md`, `codex-thread view`
//!   driven in tmux.
//! - `cargo xtask real-codex install [--version V]`: the real Codex CLI the differential tests
//!   run (default the pinned version), from the npm registry into `<target>/real-codex/V`
//!   (also part of `ci`); `cargo xtask real-codex diff --version V`: those tests against
//!   another version, their report printed as a table; `cargo xtask real-codex matrix
//!   [--versions V,…]`: the version matrix (each release writes the scenarios, the pinned one
//!   reads them), one table of writer × scenario × check.
//!
//! - `cargo xtask duckdb`, `cargo xtask spark`: DuckDB and PySpark from PyPI (pinned), each
//!   in a virtual environment under `<target>/duckdb/` or `<target>/pyspark/` (Spark with a
//!   Java runtime from Debian's packages), what the Parquet table tests query with (also part
//!   of `ci`); print the Python.
//! - `cargo xtask bench-input [--dir DIR] [--mib N] [--shape NAME]...`: the benchmarks' large
//!   inputs (real lines repeated in every hard shape: `generate::named_shapes`), written for
//!   running the commands on by hand.
//! - `cargo xtask pricing [--version V] [--from FILE]`: the price table `usage` ships
//!   (`home/data/litellm_prices.json`), regenerated from LiteLLM's model price data.
//!
//! Written in Rust rather than shell so that it runs the same on every machine that can build
//! the workspace.

mod bench_input;
mod browser;
mod ci;
mod codegen;
mod engines;
mod matrix;
mod package;
mod pricing;
mod real_codex;
mod sample;
mod screenshots;
mod tidy;
mod ts_client;
mod view_screens;

use anyhow::Result;
use clap::{Parser, Subcommand};

#[derive(Debug, Parser)]
#[command(
    name = "xtask",
    about = "Project automation for the codex-thread workspace"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Run every check CI runs: fmt, clippy, tests, schema drift, TypeScript client, docs,
    /// packages.
    Ci,
    /// Regenerate `app-server-protocol/schema/` and `npm/` from the Rust types.
    Codegen {
        /// Do not write; fail with a diff when the committed files drift.
        #[arg(long)]
        check: bool,
    },
    /// Record `cli/sample/session.jsonl`, the sample session the binary bundles, afresh.
    Sample {
        /// Do not write; fail when the committed file differs from a fresh recording.
        #[arg(long)]
        check: bool,
    },
    /// Check the architecture invariants that can be read from the source.
    Tidy,
    /// Package what downstream users take (crates, npm package) and try it as they would.
    Package,
    /// Regenerate `docs/images/` (HTML exports of real sessions in headless Chromium).
    Screenshots,
    /// Regenerate the captured screens of `docs/view.md` (`codex-thread view` in tmux).
    ViewScreens,
    /// Install DuckDB (PyPI, pinned) for the table tests under `<target>/duckdb/`; print its
    /// Python.
    Duckdb,
    /// Install PySpark (PyPI, pinned; Java from Debian's packages when missing) for the table
    /// tests under `<target>/pyspark/`; print its Python.
    Spark,
    /// Regenerate `home/data/litellm_prices.json`, the prices `usage` ships, from LiteLLM's
    /// model price data (its PyPI wheel).
    Pricing {
        /// The litellm version to take (default: the newest on PyPI).
        #[arg(long)]
        version: Option<String>,
        /// Read LiteLLM's `model_prices_and_context_window.json` from this file instead.
        #[arg(long)]
        from: Option<std::path::PathBuf>,
    },
    /// Write the benchmarks' large inputs (real lines repeated, in every hard shape) to a
    /// folder, to run the commands on by hand.
    BenchInput {
        /// The folder to write them to.
        #[arg(long, default_value = "target/bench-input")]
        dir: std::path::PathBuf,
        /// Size of each file in MiB (10240 for the 10 GiB variant).
        #[arg(long, default_value_t = 1024)]
        mib: u64,
        /// Only these shapes (default: all of them).
        #[arg(long = "shape")]
        shapes: Vec<String>,
    },
    /// The real Codex CLI the differential tests run against.
    RealCodex {
        #[command(subcommand)]
        command: RealCodexCommand,
    },
}

#[derive(Debug, Subcommand)]
enum RealCodexCommand {
    /// Install `@openai/codex@VERSION` under `<target>/real-codex/` when missing; print the
    /// binary's path.
    Install {
        /// The version (default: the pinned one).
        #[arg(long, default_value = codex_test_support::PINNED_CODEX_VERSION)]
        version: String,
    },
    /// Run the differential tests against VERSION and print their report as a table.
    Diff {
        /// The Codex version to compare with.
        #[arg(long)]
        version: String,
    },
    /// The version matrix: each release writes the scenarios, the pinned one reads them;
    /// prints writer x scenario x check.
    Matrix {
        /// The releases that write (default: a spread from 0.47 to the pin).
        #[arg(long, value_delimiter = ',', default_values_t = codex_test_support::MATRIX_CODEX_VERSIONS.map(String::from))]
        versions: Vec<String>,
        /// The release that reads what they wrote (default: the pinned one).
        #[arg(long, default_value = codex_test_support::PINNED_CODEX_VERSION)]
        reader: String,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Ci => ci::run(),
        Command::Codegen { check } => codegen::run(check),
        Command::Sample { check } => sample::run(check),
        Command::Tidy => tidy_run(),
        Command::Package => package::run(),
        Command::Screenshots => screenshots::run_all(),
        Command::ViewScreens => view_screens::run(),
        Command::Duckdb => engines::install(&codex_test_support::DUCKDB),
        Command::Spark => engines::install(&codex_test_support::PYSPARK),
        Command::Pricing { version, from } => pricing::run(version.as_deref(), from.as_deref()),
        Command::BenchInput { dir, mib, shapes } => bench_input::run(&dir, mib, &shapes),
        Command::RealCodex {
            command: RealCodexCommand::Install { version },
        } => real_codex::install(&version),
        Command::RealCodex {
            command: RealCodexCommand::Diff { version },
        } => real_codex::diff(&version),
        Command::RealCodex {
            command: RealCodexCommand::Matrix { versions, reader },
        } => matrix::run(&versions, &reader),
    }
}

/// One line of xtask's log: xtask is a command-line tool, and standard error is its log.
#[allow(clippy::print_stderr)]
pub(crate) fn log(line: &str) {
    eprintln!("{line}");
}

/// `cargo xtask tidy`: lists every broken invariant; fails when there is one.
fn tidy_run() -> Result<()> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let violations = tidy::check(&root)?;
    for violation in &violations {
        report(violation);
    }
    anyhow::ensure!(
        violations.is_empty(),
        "{} architecture invariant(s) broken",
        violations.len()
    );
    Ok(())
}

#[allow(clippy::print_stderr)] // xtask is a command-line tool; stderr is its log.
fn report(violation: &tidy::Violation) {
    eprintln!(
        "{}: {} ({})",
        violation.file, violation.rule, violation.detail
    );
}
