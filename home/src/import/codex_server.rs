//! Codex's own app-server, started on a home to change its state as Codex itself does: one
//! `codex app-server` process over standard input and output, one request at a time.
//!
//! Why Codex's server rather than its databases: its state (a thread's row, a paginated
//! thread's projected history, the names) is Codex's to keep, in a schema Codex changes from
//! release to release; its server fills it from the session files the way Codex does
//! (`reference/codex-state.md`). What the server writes on standard error goes to a temporary
//! file (a pipe nobody reads would block it) and is quoted when a request fails.

use std::ffi::OsStr;
use std::io::{BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::{Duration, Instant};

use codex_rollout::{CODEX_HOME_ENV, CodexHome};
use serde_json::{Value, json};

/// How long one request may take: projecting a large paginated file is the longest.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(600);

/// A request to Codex's server that failed.
#[derive(Debug, thiserror::Error)]
pub enum CodexServerError {
    /// The server could not be started.
    #[error(
        "cannot run {program} app-server (install Codex or pass its executable with --codex): {source}"
    )]
    Start {
        /// The program.
        program: String,
        /// What failed.
        #[source]
        source: std::io::Error,
    },
    /// The server answered the request with an error.
    #[error("Codex's server refused {method} {params}: {message} (code {code})")]
    Refused {
        /// The method.
        method: String,
        /// Its params, as sent.
        params: String,
        /// The error's code.
        code: i64,
        /// The error's message.
        message: String,
    },
    /// The server gave no answer: it exited, or took too long.
    #[error("Codex's server gave no answer to {method} ({why}); it said: {stderr}")]
    NoAnswer {
        /// The method.
        method: String,
        /// Why.
        why: &'static str,
        /// The end of what it wrote on standard error.
        stderr: String,
    },
}

/// A running `codex app-server` on one home.
#[derive(Debug)]
pub(crate) struct CodexServer {
    child: Child,
    /// Taken (closed) when the server is dropped.
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    stderr: std::fs::File,
    next_id: i64,
}

impl CodexServer {
    /// Starts `program app-server` on `home` and initializes it.
    pub(crate) fn start(program: &OsStr, home: &CodexHome) -> Result<Self, CodexServerError> {
        let start_error = |source| CodexServerError::Start {
            program: program.to_string_lossy().into_owned(),
            source,
        };
        let stderr = tempfile::tempfile().map_err(start_error)?;
        let mut child = Command::new(program)
            .arg("app-server")
            .env(CODEX_HOME_ENV, &home.root)
            .current_dir(&home.root)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr.try_clone().map_err(start_error)?)
            .spawn()
            .map_err(start_error)?;
        let (Some(stdin), Some(stdout)) = (child.stdin.take(), child.stdout.take()) else {
            let _ = child.kill();
            return Err(start_error(std::io::ErrorKind::BrokenPipe.into()));
        };
        let (sender, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if sender.send(line).is_err() {
                    break;
                }
            }
        });
        let mut server = Self {
            child,
            stdin: Some(stdin),
            lines,
            stderr,
            next_id: 0,
        };
        server.call(
            "initialize",
            json!({
                "clientInfo": {
                    "name": "codex-thread",
                    "title": "codex-thread import",
                    "version": env!("CARGO_PKG_VERSION"),
                },
                "capabilities": {"experimentalApi": true},
            }),
        )?;
        server.send(&json!({"method": "initialized"}), "initialized")?;
        Ok(server)
    }

    /// Sends `method` with `params` and waits for its result; notifications in between are
    /// passed over.
    pub(crate) fn call(&mut self, method: &str, params: Value) -> Result<Value, CodexServerError> {
        self.next_id += 1;
        let id = self.next_id;
        let text = params.to_string();
        self.send(
            &json!({"id": id, "method": method, "params": params}),
            method,
        )?;
        let until = Instant::now() + REQUEST_TIMEOUT;
        loop {
            let left = until.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(line) => line,
                Err(RecvTimeoutError::Timeout) => return Err(self.no_answer(method, "timed out")),
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(self.no_answer(method, "it exited"));
                }
            };
            let Ok(message) = serde_json::from_str::<Value>(&line) else {
                continue;
            };
            if message.get("method").is_some() || message.get("id") != Some(&Value::from(id)) {
                continue;
            }
            if let Some(error) = message.get("error") {
                return Err(CodexServerError::Refused {
                    method: method.to_owned(),
                    params: text,
                    code: error["code"].as_i64().unwrap_or_default(),
                    message: error["message"].as_str().unwrap_or_default().to_owned(),
                });
            }
            return Ok(message.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    fn send(&mut self, message: &Value, method: &str) -> Result<(), CodexServerError> {
        let sent = match self.stdin.as_mut() {
            Some(stdin) => writeln!(stdin, "{message}").and_then(|()| stdin.flush()),
            None => Err(std::io::ErrorKind::BrokenPipe.into()),
        };
        sent.map_err(|_| self.no_answer(method, "its input is closed"))
    }

    fn no_answer(&mut self, method: &str, why: &'static str) -> CodexServerError {
        CodexServerError::NoAnswer {
            method: method.to_owned(),
            why,
            stderr: self.stderr_tail(),
        }
    }

    /// The last lines the server wrote on standard error.
    fn stderr_tail(&mut self) -> String {
        let mut text = String::new();
        let _ = self.stderr.seek(SeekFrom::Start(0));
        let _ = self.stderr.read_to_string(&mut text);
        let lines: Vec<&str> = text.lines().collect();
        lines[lines.len().saturating_sub(5)..].join("\n")
    }
}

impl Drop for CodexServer {
    fn drop(&mut self) {
        // Its input closed, the server ends; one that does not within seconds is stopped.
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(5);
        while Instant::now() < deadline {
            match self.child.try_wait() {
                Ok(None) => std::thread::sleep(Duration::from_millis(50)),
                Ok(Some(_)) | Err(_) => return,
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
