//! A JSON-RPC 2.0 client for `codex app-server` over stdio: how a test reads a Codex home the
//! way a Codex client does.
//!
//! The server speaks one JSON object per line. A thread reads its stdout into a channel, so
//! every call waits with a time bound; notifications (and requests from the server) that
//! arrive while a call waits are kept in order for the test to read. The child is killed on
//! drop.

use std::io::{self, BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::codex_home::set_codex_env;
use crate::process::{Drain, drain, kill_group};
use crate::real_codex::RealCodex;

/// How long one call may wait for its answer.
pub const DEFAULT_CALL_TIMEOUT: Duration = Duration::from_secs(30);

/// Every `ThreadSourceKind` of Codex 0.169's app-server protocol: `thread/list` hides
/// non-interactive sources (`codex exec` among them) unless asked for all of them.
pub const ALL_SOURCE_KINDS: [&str; 10] = [
    "cli",
    "vscode",
    "exec",
    "appServer",
    "subAgent",
    "subAgentReview",
    "subAgentCompact",
    "subAgentThreadSpawn",
    "subAgentOther",
    "unknown",
];

/// Why a call to the app-server failed.
#[derive(Debug, thiserror::Error)]
pub enum AppServerError {
    /// Starting the server or writing to it failed.
    #[error("could not {action} codex app-server: {source}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// No answer within the time bound.
    #[error("codex app-server did not answer {method} within {after:?}; stderr:\n{stderr}")]
    Timeout {
        /// The method called.
        method: String,
        /// The time bound.
        after: Duration,
        /// What the server wrote to stderr so far.
        stderr: String,
    },
    /// The server closed its stdout before answering.
    #[error("codex app-server exited before answering {method}; stderr:\n{stderr}")]
    Closed {
        /// The method called.
        method: String,
        /// What the server wrote to stderr.
        stderr: String,
    },
    /// The server answered with a JSON-RPC error.
    #[error("{method} failed: {code} {message}")]
    Rpc {
        /// The method called.
        method: String,
        /// The JSON-RPC error code.
        code: i64,
        /// The error message.
        message: String,
        /// The error's `data`, if any.
        data: Option<Value>,
    },
    /// The server wrote something that is not a JSON-RPC message, or an answer lacks what
    /// the helper reads from it.
    #[error("codex app-server protocol error in {method}: {detail}")]
    Protocol {
        /// The method called.
        method: String,
        /// What was wrong.
        detail: String,
    },
}

/// A running, initialized `codex app-server`.
#[derive(Debug)]
pub struct AppServer {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    stderr: Drain,
    next_id: i64,
    notifications: Vec<Value>,
}

impl AppServer {
    /// Starts `codex app-server` with `CODEX_HOME=codex_home` (its working directory too),
    /// sends `initialize` (experimental API on) and the `initialized` notification.
    ///
    /// # Errors
    ///
    /// When it cannot be started or `initialize` fails.
    pub fn start(codex: &RealCodex, codex_home: &Path) -> Result<AppServer, AppServerError> {
        let mut command = codex.command();
        command.arg("app-server");
        Self::start_command(command, codex_home)
    }

    /// Starts `command` as a server speaking the app-server protocol on its standard input
    /// and output (`codex-thread serve --listen stdio://` as well as `codex app-server`), with
    /// `CODEX_HOME=codex_home` (its working directory too), and initializes it as
    /// [`AppServer::start`] does.
    ///
    /// # Errors
    ///
    /// When it cannot be started or `initialize` fails.
    pub fn start_command(
        command: std::process::Command,
        codex_home: &Path,
    ) -> Result<AppServer, AppServerError> {
        Self::start_command_within(command, codex_home, DEFAULT_CALL_TIMEOUT)
    }

    /// [`AppServer::start_command`], waiting up to `initialize_within` for `initialize`'s
    /// answer (a server that reads a large home before it answers).
    ///
    /// # Errors
    ///
    /// When it cannot be started or `initialize` fails.
    pub fn start_command_within(
        mut command: std::process::Command,
        codex_home: &Path,
        initialize_within: Duration,
    ) -> Result<AppServer, AppServerError> {
        command
            .current_dir(codex_home)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        set_codex_env(&mut command, codex_home);
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command.spawn().map_err(|source| AppServerError::Io {
            action: "start",
            source,
        })?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            kill_group(&mut child);
            let _ = child.wait();
            return Err(AppServerError::Io {
                action: "connect to",
                source: io::ErrorKind::BrokenPipe.into(),
            });
        };
        let stderr = drain(child.stderr.take());
        let (sender, lines) = mpsc::channel();
        let reader = std::thread::Builder::new()
            .name("app-server-stdout".into())
            .spawn(move || {
                for line in BufReader::new(stdout).lines() {
                    let Ok(line) = line else { break };
                    if sender.send(line).is_err() {
                        break;
                    }
                }
            });
        let mut server = AppServer {
            child,
            stdin,
            lines,
            stderr,
            next_id: 0,
            notifications: Vec::new(),
        };
        reader.map_err(|source| AppServerError::Io {
            action: "read from",
            source,
        })?;
        server.call_with_timeout(
            "initialize",
            json!({
                "clientInfo": {
                    "name": "codex-test-support",
                    "title": "codex-thread tests",
                    "version": env!("CARGO_PKG_VERSION"),
                },
                "capabilities": { "experimentalApi": true },
            }),
            initialize_within,
        )?;
        server.notify("initialized", None)?;
        Ok(server)
    }

    /// Calls `method` and waits up to [`DEFAULT_CALL_TIMEOUT`] for its result.
    ///
    /// # Errors
    ///
    /// The JSON-RPC error it answered, or no answer (timeout, exit, garbage).
    pub fn call(&mut self, method: &str, params: Value) -> Result<Value, AppServerError> {
        self.call_with_timeout(method, params, DEFAULT_CALL_TIMEOUT)
    }

    /// [`AppServer::call`] with another time bound.
    ///
    /// # Errors
    ///
    /// As [`AppServer::call`].
    pub fn call_with_timeout(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, AppServerError> {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))?;
        let until = Instant::now() + timeout;
        loop {
            let message = self.next_message(method, until, timeout)?;
            let is_answer = message.get("method").is_none()
                && message.get("id").and_then(Value::as_i64) == Some(id);
            if !is_answer {
                self.notifications.push(message);
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(AppServerError::Rpc {
                    method: method.to_owned(),
                    code: error
                        .get("code")
                        .and_then(Value::as_i64)
                        .unwrap_or_default(),
                    message: error
                        .get("message")
                        .and_then(Value::as_str)
                        .unwrap_or_default()
                        .to_owned(),
                    data: error.get("data").cloned(),
                });
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    /// Sends a notification (no answer expected).
    ///
    /// # Errors
    ///
    /// When the server's stdin is closed.
    pub fn notify(&mut self, method: &str, params: Option<Value>) -> Result<(), AppServerError> {
        let mut message = json!({ "jsonrpc": "2.0", "method": method });
        if let Some(params) = params {
            message["params"] = params;
        }
        self.send(&message)
    }

    /// The notifications and server requests received so far, in order.
    pub fn notifications(&self) -> &[Value] {
        &self.notifications
    }

    /// The notifications and server requests received so far, in order, which are
    /// forgotten (a later [`AppServer::wait_for_notification`] waits for a new one).
    pub fn take_notifications(&mut self) -> Vec<Value> {
        std::mem::take(&mut self.notifications)
    }

    /// Waits up to `timeout` for a notification with this `method` (one already received
    /// counts) and returns it, keeping every other message.
    ///
    /// # Errors
    ///
    /// When none arrives in time or the server exits.
    pub fn wait_for_notification(
        &mut self,
        method: &str,
        timeout: Duration,
    ) -> Result<Value, AppServerError> {
        let has_method =
            |message: &Value| message.get("method").and_then(Value::as_str) == Some(method);
        if let Some(found) = self
            .notifications
            .iter()
            .find(|message| has_method(message))
        {
            return Ok(found.clone());
        }
        let until = Instant::now() + timeout;
        loop {
            let message = self.next_message(method, until, timeout)?;
            self.notifications.push(message.clone());
            if has_method(&message) {
                return Ok(message);
            }
        }
    }

    /// Every thread `thread/list` returns, following `nextCursor`: all source kinds, all
    /// model providers, live ones or (`archived`) archived ones.
    ///
    /// # Errors
    ///
    /// A failed call, or an answer without `data`.
    pub fn thread_list(&mut self, archived: bool) -> Result<Vec<Value>, AppServerError> {
        let mut threads = Vec::new();
        let mut cursor = Value::Null;
        loop {
            let page = self.call(
                "thread/list",
                json!({
                    "limit": 50,
                    "cursor": cursor,
                    "archived": archived,
                    "sourceKinds": ALL_SOURCE_KINDS,
                    "modelProviders": [],
                }),
            )?;
            threads.extend(data_of("thread/list", &page)?);
            match page.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = next.clone(),
                _ => return Ok(threads),
            }
        }
    }

    /// The `thread` of `thread/read {threadId, includeTurns: true}`: the thread with its
    /// turns and items.
    ///
    /// # Errors
    ///
    /// A failed call, or an answer without `thread`.
    pub fn thread_read(&mut self, thread_id: &str) -> Result<Value, AppServerError> {
        let answer = self.call(
            "thread/read",
            json!({ "threadId": thread_id, "includeTurns": true }),
        )?;
        answer
            .get("thread")
            .cloned()
            .ok_or_else(|| AppServerError::Protocol {
                method: "thread/read".into(),
                detail: "no `thread` in the result".into(),
            })
    }

    /// Every turn of `thread/turns/list {threadId, itemsView: "full"}`, oldest first
    /// (`sortDirection` `asc`), following `nextCursor`.
    ///
    /// # Errors
    ///
    /// A failed call, or an answer without `data`.
    pub fn thread_turns_list(&mut self, thread_id: &str) -> Result<Vec<Value>, AppServerError> {
        let mut turns = Vec::new();
        let mut cursor = Value::Null;
        loop {
            let page = self.call(
                "thread/turns/list",
                json!({
                    "threadId": thread_id,
                    "itemsView": "full",
                    "sortDirection": "asc",
                    "cursor": cursor,
                }),
            )?;
            turns.extend(data_of("thread/turns/list", &page)?);
            match page.get("nextCursor") {
                Some(next) if !next.is_null() => cursor = next.clone(),
                _ => return Ok(turns),
            }
        }
    }

    /// The server's process id (to read its resource use from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// What the server wrote to stderr so far.
    pub fn stderr(&self) -> String {
        String::from_utf8_lossy(&self.stderr.snapshot()).into_owned()
    }

    fn send(&mut self, message: &Value) -> Result<(), AppServerError> {
        let mut line = message.to_string();
        line.push('\n');
        self.stdin
            .write_all(line.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|source| AppServerError::Io {
                action: "write to",
                source,
            })
    }

    /// The next message, parsed, waiting no later than `until`.
    fn next_message(
        &mut self,
        method: &str,
        until: Instant,
        timeout: Duration,
    ) -> Result<Value, AppServerError> {
        let remaining = until.saturating_duration_since(Instant::now());
        match self.lines.recv_timeout(remaining) {
            Ok(line) => serde_json::from_str(&line).map_err(|err| AppServerError::Protocol {
                method: method.to_owned(),
                detail: format!("not JSON ({err}): {line}"),
            }),
            Err(RecvTimeoutError::Timeout) => Err(AppServerError::Timeout {
                method: method.to_owned(),
                after: timeout,
                stderr: self.stderr(),
            }),
            Err(RecvTimeoutError::Disconnected) => {
                // Give stderr a moment to reach its end, so the error shows why.
                let settle = Instant::now() + Duration::from_millis(500);
                while !self.stderr.is_finished() && Instant::now() < settle {
                    std::thread::sleep(Duration::from_millis(10));
                }
                Err(AppServerError::Closed {
                    method: method.to_owned(),
                    stderr: self.stderr(),
                })
            }
        }
    }
}

impl Drop for AppServer {
    fn drop(&mut self) {
        kill_group(&mut self.child);
        let _ = self.child.wait();
    }
}

/// The `data` array of a page.
fn data_of(method: &str, page: &Value) -> Result<Vec<Value>, AppServerError> {
    page.get("data")
        .and_then(Value::as_array)
        .cloned()
        .ok_or_else(|| AppServerError::Protocol {
            method: method.to_owned(),
            detail: format!("no `data` array in the result: {page}"),
        })
}
