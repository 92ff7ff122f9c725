//! `codex-thread serve [--home DIR] [--listen ADDR] [--auth-token-env VAR]`: a home served
//! read-only through Codex's app-server protocol, to the Codex TUI (`codex resume --remote
//! ADDR`), TypeScript clients of the generated types, and agents.
//!
//! What each request is answered is codex-home's (a `ServedConnection` per client: its
//! answers, and the notifications of the threads it resumed, as Codex appends to them); this
//! module is the transport, in the address forms of `codex app-server --listen`: `stdio://` (one JSON
//! message per line on standard input and output, the default), `ws://HOST:PORT` (WebSocket,
//! one connection per thread) and `unix://PATH` (WebSocket over a unix socket, as Codex's
//! server speaks it there). A WebSocket address that is not loopback needs a bearer token
//! (`--auth-token-env VAR`: the token is VAR's value), which every connection must then send
//! as `Authorization: Bearer TOKEN`, as the TUI's `--remote-auth-token-env` does.

use std::io::{BufRead, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use clap::Args;
use codex_home::{FOLLOW_EVERY, ServedConnection, ServedHome};
use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::http::StatusCode;
use tungstenite::{Message, WebSocket};

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

/// Where the server listens.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Listen {
    Stdio,
    WebSocket(SocketAddr),
    Unix(PathBuf),
}

/// The address `text` names, in the forms `codex app-server --listen` takes.
fn listen_address(text: &str) -> Result<Listen, Failure> {
    let bad = |why: &str| {
        Failure::Usage(format!(
            "--listen {text}: {why} (stdio://, ws://HOST:PORT or unix://PATH)"
        ))
    };
    if text == "stdio://" {
        return Ok(Listen::Stdio);
    }
    if let Some(path) = text.strip_prefix("unix://") {
        return match path.is_empty() {
            true => Err(bad("a unix socket needs a path")),
            false => Ok(Listen::Unix(PathBuf::from(path))),
        };
    }
    let Some(host_port) = text.strip_prefix("ws://") else {
        return Err(bad("unknown address form"));
    };
    let host_port = host_port.trim_end_matches('/');
    host_port
        .to_socket_addrs()
        .ok()
        .and_then(|mut addresses| addresses.next())
        .map(Listen::WebSocket)
        .ok_or_else(|| bad("not a HOST:PORT"))
}

/// Runs `serve` until its input ends (stdio) or it is stopped.
pub(crate) fn run(args: &ServeArgs, _out: &mut Output) -> CommandResult {
    let listen = listen_address(&args.listen)?;
    let home = resolve_home(args.home.as_deref())?;
    let token = match &args.auth_token_env {
        Some(variable) => Some(std::env::var(variable).map_err(|_| {
            Failure::Usage(format!(
                "--auth-token-env {variable}: the variable is not set"
            ))
        })?),
        None => None,
    };
    let served = Arc::new(ServedHome::new(home));
    match listen {
        Listen::Stdio => serve_lines(&served),
        Listen::WebSocket(address) => {
            if !address.ip().is_loopback() && token.is_none() {
                return Err(Failure::Usage(format!(
                    "--listen {}: an address that is not loopback needs --auth-token-env",
                    args.listen
                )));
            }
            let listener = TcpListener::bind(address).map_err(|error| {
                Failure::Unreadable(format!("cannot listen on {}: {error}", args.listen))
            })?;
            let bound = listener.local_addr().unwrap_or(address);
            note(&format!(
                "serving {} on ws://{bound}",
                served.home().root.display()
            ));
            serve_each(&served, token, listener.incoming())
        }
        Listen::Unix(path) => {
            let listener = UnixListener::bind(&path).map_err(|error| {
                Failure::Unreadable(format!("cannot listen on {}: {error}", path.display()))
            })?;
            note(&format!(
                "serving {} on unix://{}",
                served.home().root.display(),
                path.display()
            ));
            serve_each(&served, token, listener.incoming())
        }
    }
}

/// Serves one JSON message per line of standard input, answering on standard output, where
/// the notifications of the threads followed go too.
fn serve_lines(served: &Arc<ServedHome>) -> CommandResult {
    let stdin = std::io::stdin();
    let stdout = Arc::new(Mutex::new(std::io::stdout()));
    let written = Arc::clone(&stdout);
    let mut connection = ServedConnection::new(Arc::clone(served), move |notification| {
        send_line(&written, &notification.to_string())
    });
    for line in stdin.lock().lines() {
        let line = line
            .map_err(|error| Failure::Unreadable(format!("cannot read standard input: {error}")))?;
        if let Some(answer) = answer(&mut connection, &line)
            && !send_line(&stdout, &answer)
        {
            break;
        }
    }
    Ok(Status::Ok)
}

/// Writes one message line; `false` when standard output is gone.
fn send_line(stdout: &Mutex<std::io::Stdout>, text: &str) -> bool {
    let Ok(mut stdout) = stdout.lock() else {
        return false;
    };
    writeln!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .is_ok()
}

/// A stream whose reads can wait a bounded time, so a connection can send notifications
/// between its client's messages.
trait TimedStream: std::io::Read + std::io::Write + Send + 'static {
    fn wait_at_most(&self, timeout: Duration) -> std::io::Result<()>;
}

impl TimedStream for TcpStream {
    fn wait_at_most(&self, timeout: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(timeout))
    }
}

impl TimedStream for UnixStream {
    fn wait_at_most(&self, timeout: Duration) -> std::io::Result<()> {
        self.set_read_timeout(Some(timeout))
    }
}

/// Serves each connection a listener accepts, on a thread of its own.
fn serve_each<S: TimedStream>(
    served: &Arc<ServedHome>,
    token: Option<String>,
    incoming: impl Iterator<Item = std::io::Result<S>>,
) -> CommandResult {
    for stream in incoming.flatten() {
        spawn_connection(served, token.clone(), stream);
    }
    Ok(Status::Ok)
}

/// Serves one WebSocket connection on a thread of its own.
fn spawn_connection<S: TimedStream>(served: &Arc<ServedHome>, token: Option<String>, stream: S) {
    let served = Arc::clone(served);
    std::thread::spawn(move || {
        // The callback's error type is tungstenite's.
        #[allow(clippy::result_large_err)]
        let check = |request: &Request, response: Response| authorize(request, response, &token);
        match tungstenite::accept_hdr(stream, check) {
            Ok(socket) => {
                if let Err(error) = socket.get_ref().wait_at_most(FOLLOW_EVERY) {
                    warn(&format!("a connection cannot be served: {error}"));
                    return;
                }
                let (sender, notifications) = channel();
                let connection = ServedConnection::new(served, move |notification| {
                    sender.send(notification.to_string()).is_ok()
                });
                serve_socket(connection, &notifications, socket);
            }
            Err(error) => warn(&format!("a WebSocket handshake failed: {error}")),
        }
    });
}

/// Lets a handshake through when no token is required or the request carries it.
#[allow(clippy::result_large_err)] // the type tungstenite's callback returns
fn authorize(
    request: &Request,
    response: Response,
    token: &Option<String>,
) -> Result<Response, ErrorResponse> {
    let Some(token) = token else {
        return Ok(response);
    };
    let sent = request
        .headers()
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if sent == Some(token.as_str()) {
        return Ok(response);
    }
    let mut refused = ErrorResponse::new(Some("a bearer token is required".to_owned()));
    *refused.status_mut() = StatusCode::UNAUTHORIZED;
    Err(refused)
}

/// Answers each text frame of `socket` until it closes, sending the notifications of the
/// threads followed between frames.
fn serve_socket<S: TimedStream>(
    mut connection: ServedConnection,
    notifications: &Receiver<String>,
    mut socket: WebSocket<S>,
) {
    loop {
        let text = match socket.read() {
            Ok(Message::Text(text)) => Some(text.to_string()),
            Ok(Message::Binary(bytes)) => Some(String::from_utf8_lossy(&bytes).into_owned()),
            Ok(Message::Close(_)) => return,
            Ok(_) => None,
            Err(tungstenite::Error::Io(error))
                if matches!(
                    error.kind(),
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                ) =>
            {
                None
            }
            Err(_) => return,
        };
        if let Some(text) = text
            && let Some(answer) = answer(&mut connection, &text)
            && socket.send(Message::text(answer)).is_err()
        {
            return;
        }
        for notification in notifications.try_iter() {
            if socket.send(Message::text(notification)).is_err() {
                return;
            }
        }
    }
}

/// The answer to one message, as the text to send ([`ServedConnection::answer_text`]); a
/// message that is no JSON-RPC message is announced and owed nothing.
fn answer(connection: &mut ServedConnection, text: &str) -> Option<String> {
    connection.answer_text(text).unwrap_or_else(|error| {
        warn(&format!(
            "ignored a message that is no JSON-RPC message: {error}"
        ));
        None
    })
}

#[cfg(test)]
#[path = "serve_tests.rs"]
mod tests;
