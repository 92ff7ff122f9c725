//! `codex-thread serve [--home DIR] [--listen ADDR] [--auth-token-env VAR]`: a home served
//! read-only through Codex's app-server protocol, to the Codex TUI (`codex resume --remote
//! ADDR`), TypeScript clients of the generated types, and agents.
//!
//! Everything is codex-home's (`serve_home`): what each request is answered, the threads a
//! client resumed followed as Codex appends to them, and the transport in the address forms
//! of `codex app-server --listen` (`stdio://`, the default, `ws://HOST:PORT`, `unix://PATH`).
//! A WebSocket address that is not loopback needs a bearer token (`--auth-token-env VAR`: the
//! token is VAR's value), which every connection must then send as `Authorization: Bearer
//! TOKEN`, as the TUI's `--remote-auth-token-env` does. This module reads the arguments and
//! says on standard error where it listens and what it could not serve.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;
use codex_home::{Listen, ListenError, ServeNote, ServedHome, serve_home};

use crate::error::{CommandResult, Failure, Status};
use crate::input::resolve_home;
use crate::output::{Output, note, warn};

/// `serve`'s arguments.
#[derive(Debug, Clone, Args)]
pub(crate) struct ServeArgs {
    /// The Codex home to serve (default: $CODEX_HOME, else ~/.codex).
    #[arg(long, value_name = "DIR")]
    pub home: Option<PathBuf>,
    /// Where to listen: stdio://, ws://HOST:PORT or unix://PATH.
    #[arg(long, value_name = "ADDR", default_value = "stdio://")]
    pub listen: String,
    /// The environment variable holding the bearer token WebSocket clients must send
    /// (required for an address that is not loopback).
    #[arg(long, value_name = "VAR")]
    pub auth_token_env: Option<String>,
}

/// Runs `serve` until its input ends (stdio) or it is stopped.
pub(crate) fn run(args: &ServeArgs, _out: &mut Output) -> CommandResult {
    let listen = Listen::parse(&args.listen).map_err(failure)?;
    let home = resolve_home(args.home.as_deref())?;
    let token = match &args.auth_token_env {
        Some(variable) => Some(std::env::var(variable).map_err(|_| {
            Failure::Usage(format!(
                "--auth-token-env {variable}: the variable is not set"
            ))
        })?),
        None => None,
    };
    let root = home.root.display().to_string();
    let told = move |told| match told {
        ServeNote::Listening(address) => note(&format!("serving {root} on {address}")),
        ServeNote::Problem(problem) => warn(&problem),
    };
    serve_home(&Arc::new(ServedHome::new(home)), &listen, token, told).map_err(failure)?;
    Ok(Status::Ok)
}

/// A wrong address is the command line's fault; the rest cannot be read or bound.
fn failure(error: ListenError) -> Failure {
    match error {
        ListenError::Address { .. } | ListenError::NeedsToken(_) => {
            Failure::Usage(error.to_string())
        }
        _ => Failure::Unreadable(error.to_string()),
    }
}
