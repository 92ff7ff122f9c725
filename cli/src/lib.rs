//! `codex-thread`: read, check, replay and export Codex session files.
//!
//! The binary is a thin shell over this library, whose one public entry point is
//! [`main_exit_code`]; [`sample`] is the bundled session and its generator. Layout (private
//! modules): `cli` (arguments), `input` (where a rollout comes from), `streamed` (a source as
//! codex-home's one forward reader reads it), `output` (JSON or human text, always terminal-safe), `progress` (a bar on standard error
//! for large inputs), `commands` (one module per subcommand) and `error` (exit codes). The
//! package's own tests reach a few internals through `testing` (feature `testing`).
//!
//! Layering: this crate only composes the others. Reading and writing session files, user
//! turns and fork points are codex-rollout's, turn and history decisions are codex-core's,
//! the client view is codex-app-server-protocol's; nothing here re-decides any of them.

mod cli;
mod commands;
mod damaged;
mod error;
mod home_files;
mod home_threads;
mod input;
mod inputs;
mod output;
mod progress;
pub mod sample;
mod session_history;
mod streamed;

/// What this package's own tests and benchmarks reach inside the binary (feature `testing`,
/// turned on for them by the package's dev-dependency on itself); never a program's API.
#[cfg(feature = "testing")]
pub mod testing {
    use std::io::Write;
    use std::path::Path;

    use codex_app_server_protocol::{BuiltThread, TranscriptMode};

    pub use crate::cli::ExportFormat;
    use crate::commands::export::{self, ExportOptions};
    use crate::input::Source;
    use crate::output::Output;

    /// What `export` writes of the file at `path` in `format`, written to `sink`.
    pub fn export_file(
        path: &Path,
        format: ExportFormat,
        sink: Box<dyn Write>,
    ) -> Result<(), String> {
        let options = ExportOptions {
            format,
            ..ExportOptions::default()
        };
        let mut out = Output::to_writer(false, sink);
        export::run(&Source::File(path.to_path_buf()), &options, &mut out)
            .map(|_| ())
            .map_err(|failure| failure.to_string())
    }

    /// The thread of the file at `path` as `thread` builds it, streamed, showing `mode`'s
    /// items.
    pub fn thread_of_file(path: &Path, mode: TranscriptMode) -> Result<BuiltThread, String> {
        let input = codex_home::FileInput(path.to_path_buf());
        let new = || codex_app_server_protocol::ThreadBuilder::in_mode(mode);
        codex_home::stream_client_view(&input, new, |builder, item| {
            builder.handle_rollout_item(item);
        })
        .map(codex_app_server_protocol::ThreadBuilder::finish)
        .map_err(|error| error.to_string())
    }
}

use crate::error::Failure;

/// Parses the process arguments, runs the command and returns the process exit code.
pub fn main_exit_code() -> u8 {
    let parsed = cli::command()
        .try_get_matches()
        .and_then(|matches| <cli::Cli as clap::FromArgMatches>::from_arg_matches(&matches));
    let cli = match parsed {
        Ok(cli) => cli,
        Err(err) => {
            // Help and version go to stdout with exit 0; usage errors to stderr with exit 2,
            // as JSON when `--json` was among the arguments.
            let code = u8::try_from(err.exit_code()).unwrap_or(error::EXIT_UNREADABLE);
            if code != error::EXIT_OK && std::env::args().any(|arg| arg == "--json") {
                output::error_json(&usage_message(&err.to_string()), code);
            } else {
                let _ = err.print();
            }
            return code;
        }
    };
    init_tracing();
    let mut out = output::Output::stdout(cli.json);
    let result = commands::run(cli.command, &mut out).and_then(|status| {
        out.finish()?;
        Ok(status)
    });
    match result {
        Ok(status) => status.exit_code(),
        Err(Failure::BrokenPipe) => error::EXIT_OK,
        Err(failure) if cli.json => {
            output::error_json(&failure.to_string(), failure.exit_code());
            failure.exit_code()
        }
        Err(failure) => {
            output::error(&failure.to_string());
            failure.exit_code()
        }
    }
}

/// Clap's usage error as one line: its message and tips, without the `error: ` prefix and
/// the usage and help lines.
fn usage_message(message: &str) -> String {
    message
        .lines()
        .map(str::trim)
        .filter(|line| {
            !line.is_empty() && !line.starts_with("Usage:") && !line.starts_with("For more")
        })
        .map(|line| line.strip_prefix("error: ").unwrap_or(line))
        .collect::<Vec<_>>()
        .join("; ")
}

/// Library logs go to standard error, quiet unless `RUST_LOG` asks: the tool reports problems
/// itself, and real files would otherwise flood the terminal with per-line warnings.
fn init_tracing() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("off"));
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}
