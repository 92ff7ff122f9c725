//! Project automation, run as `cargo xtask <command>` (an alias in `.cargo/config.toml`).
//!
//! - `cargo xtask ci`: everything CI checks, in the order a failure is cheapest to see:
//!   formatting, clippy on all targets with warnings denied, every test, the generated-schema
//!   drift check, and the TypeScript client's tests.
//! - `cargo xtask codegen [--check]`: regenerate the committed JSON Schema and TypeScript
//!   under `app-server-protocol/schema/`, or fail with a diff when they drift.
//!
//! Written in Rust rather than shell so that it runs the same on every machine that can build
//! the workspace.

mod ci;
mod codegen;
mod ts_client;

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
    /// Run every check CI runs: fmt, clippy, tests, schema drift, TypeScript client.
    Ci,
    /// Regenerate `app-server-protocol/schema/` from the Rust types.
    Codegen {
        /// Do not write; fail with a diff when the committed files drift.
        #[arg(long)]
        check: bool,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Command::Ci => ci::run(),
        Command::Codegen { check } => codegen::run(check),
    }
}
