//! A served home on the wire, in the address forms of `codex app-server --listen`
//! ([`Listen`]): `stdio://` (one JSON message per line on standard input and output),
//! `ws://HOST:PORT` (WebSocket, one connection per client) and `unix://PATH` (WebSocket over a
//! unix socket, as Codex's server speaks it there). Each client is a [`ServedConnection`]: its
//! answers, and the notifications of the threads it resumed, sent between its messages.
//!
//! A WebSocket address that is not loopback needs a bearer token, which every connection must
//! then send as `Authorization: Bearer TOKEN` (what the Codex TUI's `--remote-auth-token-env`
//! sends); [`serve_home`] refuses such an address without one before it listens.

use std::io::{BufRead, Write};
use std::net::{SocketAddr, TcpListener, TcpStream, ToSocketAddrs};
use std::os::unix::net::{UnixListener, UnixStream};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tungstenite::handshake::server::{ErrorResponse, Request, Response};
use tungstenite::http::StatusCode;
use tungstenite::{Message, WebSocket};

use super::{FOLLOW_EVERY, ServedConnection, ServedHome};

/// Where a served home listens.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Listen {
    /// Standard input and output, a JSON message per line.
    Stdio,
    /// WebSocket on a TCP address.
    WebSocket(SocketAddr),
    /// WebSocket on a unix socket.
    Unix(PathBuf),
}

/// Why a home cannot be served where it was asked to be.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    /// The address is none of the forms.
    #[error("--listen {text}: {why} (stdio://, ws://HOST:PORT or unix://PATH)")]
    Address {
        /// The address given.
        text: String,
        /// What is wrong with it.
        why: &'static str,
    },
    /// A WebSocket address that is not loopback, without a token.
    #[error("--listen ws://{0}: an address that is not loopback needs --auth-token-env")]
    NeedsToken(SocketAddr),
    /// The address cannot be listened on.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address, as given.
        address: String,
        /// What failed.
        source: std::io::Error,
    },
    /// Standard input could not be read.
    #[error("cannot read standard input: {0}")]
    Stdin(std::io::Error),
}

impl Listen {
    /// The address `text` names, in the forms `codex app-server --listen` takes.
    pub fn parse(text: &str) -> Result<Self, ListenError> {
        let bad = |why| ListenError::Address {
            text: text.to_owned(),
            why,
        };
        if text == "stdio://" {
            return Ok(Self::Stdio);
        }
        if let Some(path) = text.strip_prefix("unix://") {
            return match path.is_empty() {
                true => Err(bad("a unix socket needs a path")),
                false => Ok(Self::Unix(PathBuf::from(path))),
            };
        }
        let host_port = text
            .strip_prefix("ws://")
            .ok_or(bad("unknown address form"))?;
        let mut addresses = host_port.trim_end_matches('/').to_socket_addrs().ok();
        let address = addresses.as_mut().and_then(Iterator::next);
        address.map(Self::WebSocket).ok_or(bad("not a HOST:PORT"))
    }
}

/// Refuses a WebSocket address that is not loopback when no token guards it.
fn check_token(listen: &Listen, token: Option<&str>) -> Result<(), ListenError> {
    match listen {
        Listen::WebSocket(address) if !address.ip().is_loopback() && token.is_none() => {
            Err(ListenError::NeedsToken(*address))
        }
        _ => Ok(()),
    }
}

/// What a running server tells its operator.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ServeNote {
    /// Listening, at this address (`ws://127.0.0.1:4000`, `unix://PATH`).
    Listening(String),
    /// A connection or a message that was not served, and why.
    Problem(String),
}

/// Serves `served` on `listen` (guarded by `token` for WebSocket clients) until standard input
/// ends (stdio) or the process is stopped; `told` hears what the operator should know. A
/// WebSocket address that is not loopback is refused without a token, before anything
/// listens.
pub fn serve_home(
    served: &Arc<ServedHome>,
    listen: &Listen,
    token: Option<String>,
    told: impl Fn(ServeNote) + Send + Sync + 'static,
) -> Result<(), ListenError> {
    check_token(listen, token.as_deref())?;
    let told: Arc<dyn Fn(ServeNote) + Send + Sync> = Arc::new(told);
    match listen {
        Listen::Stdio => serve_lines(served, std::io::stdin().lock(), &*told),
        Listen::WebSocket(address) => {
            let listener = TcpListener::bind(address).map_err(|source| ListenError::Bind {
                address: format!("ws://{address}"),
                source,
            })?;
            let bound = listener.local_addr().unwrap_or(*address);
            told(ServeNote::Listening(format!("ws://{bound}")));
            serve_each(served, token, &told, listener.incoming());
            Ok(())
        }
        Listen::Unix(path) => {
            let listener = UnixListener::bind(path).map_err(|source| ListenError::Bind {
                address: path.display().to_string(),
                source,
            })?;
            told(ServeNote::Listening(format!("unix://{}", path.display())));
            serve_each(served, token, &told, listener.incoming());
            Ok(())
        }
    }
}

/// Serves one JSON message per line of `input`, answering on standard output, where the
/// notifications of the threads followed go too.
fn serve_lines(
    served: &Arc<ServedHome>,
    input: impl BufRead,
    told: &dyn Fn(ServeNote),
) -> Result<(), ListenError> {
    let stdout = Arc::new(Mutex::new(std::io::stdout()));
    let written = Arc::clone(&stdout);
    let mut connection = ServedConnection::new(Arc::clone(served), move |notification| {
        send_line(&written, &notification.to_string())
    });
    for line in input.lines() {
        let line = line.map_err(ListenError::Stdin)?;
        if let Some(answer) = answer(&mut connection, &line, told)
            && !send_line(&stdout, &answer)
        {
            break;
        }
    }
    Ok(())
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

/// What a connection's thread is handed: the operator's ear.
type Told = Arc<dyn Fn(ServeNote) + Send + Sync>;

/// Serves each connection a listener accepts, on a thread of its own.
fn serve_each<S: TimedStream>(
    served: &Arc<ServedHome>,
    token: Option<String>,
    told: &Told,
    incoming: impl Iterator<Item = std::io::Result<S>>,
) {
    for stream in incoming.flatten() {
        let (served, token, told) = (Arc::clone(served), token.clone(), Arc::clone(told));
        std::thread::spawn(move || serve_stream(served, token.as_deref(), &*told, stream));
    }
}

/// Serves one WebSocket connection, from its handshake to its end.
fn serve_stream<S: TimedStream>(
    served: Arc<ServedHome>,
    token: Option<&str>,
    told: &dyn Fn(ServeNote),
    stream: S,
) {
    // The callback's error type is tungstenite's.
    #[allow(clippy::result_large_err)]
    let check = |request: &Request, response: Response| authorize(request, response, token);
    let socket = match tungstenite::accept_hdr(stream, check) {
        Ok(socket) => socket,
        Err(error) => return told(problem("a WebSocket handshake failed", error)),
    };
    if let Err(error) = socket.get_ref().wait_at_most(FOLLOW_EVERY) {
        return told(problem("a connection cannot be served", error));
    }
    let (sender, notifications) = channel();
    let connection = ServedConnection::new(served, move |notification| {
        sender.send(notification.to_string()).is_ok()
    });
    serve_socket(connection, &notifications, socket, told);
}

fn problem(what: &str, error: impl std::fmt::Display) -> ServeNote {
    ServeNote::Problem(format!("{what}: {error}"))
}

/// Lets a handshake through when no token is required or the request carries it.
#[allow(clippy::result_large_err)] // the type tungstenite's callback returns
fn authorize(
    request: &Request,
    response: Response,
    token: Option<&str>,
) -> Result<Response, ErrorResponse> {
    let Some(token) = token else {
        return Ok(response);
    };
    let sent = request
        .headers()
        .get("authorization")
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if sent == Some(token) {
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
    told: &dyn Fn(ServeNote),
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
            && let Some(answer) = answer(&mut connection, &text, told)
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
/// message that is no JSON-RPC message is told and owed nothing.
fn answer(
    connection: &mut ServedConnection,
    text: &str,
    told: &dyn Fn(ServeNote),
) -> Option<String> {
    connection.answer_text(text).unwrap_or_else(|error| {
        told(problem(
            "ignored a message that is no JSON-RPC message",
            error,
        ));
        None
    })
}

#[cfg(test)]
#[path = "transport_tests.rs"]
mod tests;
