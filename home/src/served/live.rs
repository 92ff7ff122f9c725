//! One client's connection to a served home ([`ServedConnection`]): its answers, and the
//! threads it follows. As on Codex's server, `thread/resume` subscribes the connection to the
//! thread and `thread/unsubscribe` ends that: while subscribed, every line Codex appends to
//! the thread's file reaches the client as the `turn/*`, `item/*` and other notifications
//! Codex's server sends its own clients for it (the replay's, [`crate::NotificationReplay`]),
//! within [`FOLLOW_EVERY`].
//!
//! Each followed thread has a thread of its own: it replays the file up to its size when the
//! client subscribed (the replay's state, so a turn that was running goes on where it was,
//! with nothing sent), then polls the file. What was written between that size and the resume
//! answer may be in both the answer and a notification; nothing written after the answer is
//! missed. Server requests (approvals) are never sent: the client of a served home cannot
//! answer the Codex that asked. A thread stops being followed when it is unsubscribed, when
//! the connection ends (the notify callback says so, or the connection is dropped), or when
//! its file cannot be read on (it was rewritten, compressed or moved); the last is logged.

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Duration;

use codex_app_server_protocol::v2::{ThreadUnsubscribeResponse, ThreadUnsubscribeStatus};
use codex_app_server_protocol::{
    ClientRequest, JSONRPCError, JSONRPCErrorError, JSONRPCMessage, JSONRPCRequest,
    JSONRPCResponse, ServerMessage, ServerNotification,
};
use serde_json::Value;

use super::{ServeError, ServedHome, result};
use crate::{ReadError, SessionInput, replay_notifications};

/// How often a followed file is looked at.
pub const FOLLOW_EVERY: Duration = Duration::from_millis(200);

/// Where a connection's notifications go, each as the JSON message to send; `false` when the
/// client is gone.
type Notify = Arc<dyn Fn(&Value) -> bool + Send + Sync>;

/// One client's connection: answers, and the threads it follows (see the module docs).
pub struct ServedConnection {
    served: Arc<ServedHome>,
    notify: Notify,
    followed: HashMap<String, Following>,
}

impl std::fmt::Debug for ServedConnection {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServedConnection")
            .field("served", &self.served)
            .field("followed", &self.followed.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// A thread followed for a connection.
#[derive(Debug)]
struct Following {
    stop: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Following {
    fn end(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(handle) = self.handle.take() {
            let _ = handle.join();
        }
    }
}

impl ServedConnection {
    /// A connection to `served` whose notifications are handed to `notify`, from the threads
    /// that follow files, each as the message to send: the notification with the time it was
    /// sent (`emittedAtMs`, Unix milliseconds, beside `method` and `params`, as Codex's server
    /// sends it); `notify` says `false` once the client is gone.
    pub fn new(
        served: Arc<ServedHome>,
        notify: impl Fn(&Value) -> bool + Send + Sync + 'static,
    ) -> Self {
        Self {
            served,
            notify: Arc::new(notify),
            followed: HashMap::new(),
        }
    }

    /// The result of `request`, or why there is none; `thread/resume` also subscribes the
    /// connection to the thread, `thread/unsubscribe` ends that.
    pub fn answer(&mut self, request: &JSONRPCRequest) -> Result<Value, ServeError> {
        // Parsed as `ServedHome::answer` parses it: a request of another shape is answered
        // (refused) there.
        match ClientRequest::try_from(request.clone()) {
            Ok(ClientRequest::ThreadResume { params, .. }) => {
                let path = self.served.thread_path(&params.thread_id)?;
                let size = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
                let answer = self.served.answer(request)?;
                self.follow(params.thread_id, path, size);
                Ok(answer)
            }
            Ok(ClientRequest::ThreadUnsubscribe { params, .. }) => {
                match self.followed.remove(&params.thread_id) {
                    Some(mut following) => {
                        following.end();
                        result(ThreadUnsubscribeResponse {
                            status: ThreadUnsubscribeStatus::Unsubscribed,
                        })
                    }
                    None => self.served.answer(request),
                }
            }
            _ => self.served.answer(request),
        }
    }

    /// The answer owed to one message of the client, as the JSON text to send: a request's
    /// result, or its error with [`ServeError::code`]; `None` for a notification or a
    /// response, which are owed nothing. Fails when the text is no JSON-RPC message.
    pub fn answer_text(&mut self, text: &str) -> Result<Option<String>, serde_json::Error> {
        let JSONRPCMessage::Request(request) = serde_json::from_str(text)? else {
            return Ok(None);
        };
        let id = request.id.clone();
        let answer = match self.answer(&request) {
            Ok(result) => serde_json::to_string(&JSONRPCResponse { id, result }),
            Err(error) => serde_json::to_string(&JSONRPCError {
                id,
                error: JSONRPCErrorError {
                    code: error.code(),
                    message: error.to_string(),
                    data: None,
                },
            }),
        };
        Ok(answer.ok())
    }

    /// Follows the file `path` of thread `thread_id` from its first `size` bytes on.
    fn follow(&mut self, thread_id: String, path: PathBuf, size: u64) {
        if let Some(mut earlier) = self.followed.remove(&thread_id) {
            earlier.end();
        }
        let stop = Arc::new(AtomicBool::new(false));
        let handle = {
            let stop = Arc::clone(&stop);
            let notify = Arc::clone(&self.notify);
            std::thread::Builder::new()
                .name(format!("follow {thread_id}"))
                .spawn(move || follow_file(&path, size, &stop, &*notify))
                .ok()
        };
        self.followed.insert(thread_id, Following { stop, handle });
    }
}

impl Drop for ServedConnection {
    fn drop(&mut self) {
        for following in self.followed.values_mut() {
            following.end();
        }
    }
}

/// Replays `path` up to `size` bytes with nothing sent, then hands `notify` the notifications
/// of what is appended, until `stop` or the client is gone.
fn follow_file(
    path: &Path,
    size: u64,
    stop: &AtomicBool,
    notify: &(dyn Fn(&Value) -> bool + Send + Sync),
) {
    if !crate::replay::is_plain(path) {
        return;
    }
    let input = FirstBytes {
        path: path.to_path_buf(),
        size,
    };
    let mut replay = match replay_notifications(&input, |_| Ok::<_, ReadError>(())) {
        Ok(replay) if replay.follows() => replay,
        Ok(_) => return,
        Err(error) => {
            tracing::warn!(%error, "the thread cannot be followed");
            return;
        }
    };
    while !stop.load(Ordering::Relaxed) {
        std::thread::sleep(FOLLOW_EVERY);
        let messages = match replay.follow() {
            Ok(messages) => messages,
            Err(error) => {
                tracing::warn!(%error, "the thread is no longer followed");
                return;
            }
        };
        for message in messages {
            if let ServerMessage::Notification(notification) = message
                && !notify(&emitted(&notification))
            {
                return;
            }
        }
    }
}

/// `notification` as the message to send now.
fn emitted(notification: &ServerNotification) -> Value {
    let mut message = serde_json::to_value(notification).unwrap_or(Value::Null);
    if let Some(fields) = message.as_object_mut() {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |since| {
                i64::try_from(since.as_millis()).unwrap_or(i64::MAX)
            });
        fields.insert("emittedAtMs".to_owned(), Value::from(now));
    }
    message
}

/// The first `size` bytes of a session file: what it held when a client subscribed.
struct FirstBytes {
    path: PathBuf,
    size: u64,
}

impl SessionInput for FirstBytes {
    fn name(&self) -> String {
        self.path.display().to_string()
    }

    fn open(&self, _again: Option<&str>) -> io::Result<Box<dyn Read + '_>> {
        Ok(Box::new(File::open(&self.path)?.take(self.size)))
    }

    fn file(&self) -> Option<&Path> {
        Some(&self.path)
    }
}

#[cfg(test)]
#[path = "live_tests.rs"]
mod tests;
