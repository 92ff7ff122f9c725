//! A scripted Responses API model on 127.0.0.1, for running the real Codex offline.
//!
//! Codex calls `POST {base_url}/responses` for every model request: ordinary turn requests
//! and compactions alike, told apart by `request_kind` in the `x-codex-turn-metadata`
//! header. The server answers each from its own queue of [`Reply`]s, in order, and records
//! every request it sees, so a test scripts what the model says and then checks what Codex
//! sent. It is plain `std::net` with a thread per connection, bounded in time: it stops
//! serving at its deadline and when dropped, and no socket read or write waits unbounded.

use std::collections::{BTreeMap, VecDeque};
use std::io;
use std::net::{TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::http::{Connection, Request};
use crate::model_items::{
    Usage, assistant_message, completed_frame, in_offered_shape, item_frames, opening_frames,
};

/// Words of Codex's compaction prompts across releases (see [`RecordedRequest::is_compaction`]).
const COMPACTION_PROMPTS: [&str; 2] = [
    "You have exceeded the maximum number of tokens",
    "CONTEXT CHECKPOINT COMPACTION",
];
use crate::script::{Reply, ReplyKind, Script};

/// How the server answered a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// With the next reply of its queue.
    Scripted,
    /// Its queue was empty: with the default assistant message "ok".
    Unscripted,
    /// Not a `POST .../responses`: with 404.
    NotFound,
}

/// A request as the server received it.
#[derive(Clone, Debug)]
pub struct RecordedRequest {
    /// Its position among all requests to this server, from 0.
    pub index: usize,
    /// `GET`, `POST`, ...
    pub method: String,
    /// The request target, e.g. `/v1/responses`.
    pub path: String,
    /// Header names lowercased; repeated headers joined with `, `.
    pub headers: BTreeMap<String, String>,
    /// The body parsed as JSON; `None` when it is empty or not JSON (e.g. compressed).
    pub body: Option<Value>,
    /// The `x-codex-turn-metadata` header parsed as JSON.
    pub turn_metadata: Option<Value>,
    /// How the server answered it.
    pub answer: Answer,
}

impl RecordedRequest {
    /// A header's value (`name` in any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .get(&name.to_ascii_lowercase())
            .map(String::as_str)
    }

    /// Whether it is a model request: `POST` to a path ending in `/responses`.
    pub fn is_model_call(&self) -> bool {
        self.method == "POST" && self.path.trim_end_matches('/').ends_with("/responses")
    }

    /// `request_kind` from the turn metadata (`turn` or `compaction`).
    pub fn request_kind(&self) -> Option<&str> {
        self.turn_metadata.as_ref()?.get("request_kind")?.as_str()
    }

    /// Whether Codex asks for a summary of the history: the turn metadata says so, or (for
    /// releases before the metadata had `request_kind`) the last input item is Codex's
    /// compaction prompt (0.47's "You have exceeded the maximum number of tokens", 0.58 on
    /// "CONTEXT CHECKPOINT COMPACTION").
    pub fn is_compaction(&self) -> bool {
        if let Some(kind) = self.request_kind() {
            return kind == "compaction";
        }
        let last = self
            .input()
            .last()
            .map(Value::to_string)
            .unwrap_or_default();
        COMPACTION_PROMPTS
            .iter()
            .any(|prompt| last.contains(prompt))
    }

    /// The names of the tools the request offers.
    pub fn offered_tools(&self) -> Vec<&str> {
        self.body
            .as_ref()
            .and_then(|body| body.get("tools"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|tool| tool.get("name").and_then(Value::as_str))
            .collect()
    }

    /// The body's `input` items (the whole history Codex sends); empty when there are none.
    pub fn input(&self) -> &[Value] {
        self.body
            .as_ref()
            .and_then(|body| body.get("input"))
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }
}

/// The running server. Dropping it stops it.
#[derive(Debug)]
pub struct ScriptedModel {
    shared: Arc<Shared>,
    base_url: String,
    acceptor: Option<JoinHandle<()>>,
}

impl ScriptedModel {
    /// Binds 127.0.0.1 on a free port and serves `script` until its deadline or drop.
    ///
    /// # Errors
    ///
    /// When the port cannot be bound or the accepting thread cannot start.
    pub fn start(script: Script) -> io::Result<ScriptedModel> {
        let listener = TcpListener::bind(("127.0.0.1", 0))?;
        listener.set_nonblocking(true)?;
        let base_url = format!("http://{}/v1", listener.local_addr()?);
        let shared = Arc::new(Shared {
            state: Mutex::new(State {
                turns: script.turns,
                compactions: script.compactions,
                requests: Vec::new(),
                held_served: 0,
                held_released: 0,
            }),
            changed: Condvar::new(),
            stop: AtomicBool::new(false),
            deadline: Instant::now() + script.deadline,
        });
        let acceptor = {
            let shared = Arc::clone(&shared);
            std::thread::Builder::new()
                .name("scripted-model".into())
                .spawn(move || accept_loop(&listener, &shared))?
        };
        Ok(ScriptedModel {
            shared,
            base_url,
            acceptor: Some(acceptor),
        })
    }

    /// `http://127.0.0.1:PORT/v1`: the `base_url` of a model provider.
    pub fn base_url(&self) -> &str {
        &self.base_url
    }

    /// Every request received so far, in order of arrival.
    pub fn requests(&self) -> Vec<RecordedRequest> {
        self.shared.lock().requests.clone()
    }

    /// The model requests received so far ([`RecordedRequest::is_model_call`]).
    pub fn model_calls(&self) -> Vec<RecordedRequest> {
        let state = self.shared.lock();
        state
            .requests
            .iter()
            .filter(|request| request.is_model_call())
            .cloned()
            .collect()
    }

    /// How many model requests found their queue empty and got the default "ok".
    pub fn unscripted_requests(&self) -> usize {
        let state = self.shared.lock();
        state
            .requests
            .iter()
            .filter(|request| request.answer == Answer::Unscripted)
            .count()
    }

    /// How many replies (of both queues) no request has taken yet.
    pub fn pending_replies(&self) -> usize {
        let state = self.shared.lock();
        state.turns.len() + state.compactions.len()
    }

    /// Appends a reply to the turn queue, e.g. before the next `codex exec resume`.
    pub fn push_reply(&self, reply: Reply) {
        self.shared.lock().turns.push_back(reply);
    }

    /// Appends a reply to the compaction queue.
    pub fn push_compaction(&self, reply: Reply) {
        self.shared.lock().compactions.push_back(reply);
    }

    /// Lets the next held reply (in the order they are served, whether or not it has been
    /// served yet) send `response.completed`.
    pub fn release_held(&self) {
        self.shared.lock().held_released += 1;
        self.shared.changed.notify_all();
    }

    /// Waits until at least `count` requests have arrived; `false` if `timeout` passed (or
    /// the server stopped) first.
    pub fn wait_for_requests(&self, count: usize, timeout: Duration) -> bool {
        let until = Instant::now() + timeout;
        self.shared
            .wait_until(until, |state| state.requests.len() >= count)
    }
}

impl Drop for ScriptedModel {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        self.shared.changed.notify_all();
        if let Some(acceptor) = self.acceptor.take() {
            let _ = acceptor.join();
        }
    }
}

#[derive(Debug)]
struct Shared {
    state: Mutex<State>,
    /// Notified on every new request, release and stop.
    changed: Condvar,
    stop: AtomicBool,
    deadline: Instant,
}

#[derive(Debug)]
struct State {
    turns: VecDeque<Reply>,
    compactions: VecDeque<Reply>,
    requests: Vec<RecordedRequest>,
    held_served: u64,
    held_released: u64,
}

/// What one connection thread does with a request, decided under the lock.
enum Plan {
    NotFound,
    Error {
        status: u16,
        body: Value,
    },
    Stream {
        items: Vec<Value>,
        usage: Usage,
        /// The held reply's number (from 1) among held replies, to wait for its release.
        ticket: Option<u64>,
    },
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn stopped(&self) -> bool {
        self.stop.load(Ordering::SeqCst) || Instant::now() >= self.deadline
    }

    /// Waits (in short slices, watching the stop flag) until `done` holds or `until` passes.
    fn wait_until(&self, until: Instant, done: impl Fn(&State) -> bool) -> bool {
        let mut state = self.lock();
        loop {
            if done(&state) {
                return true;
            }
            let now = Instant::now();
            if self.stopped() || now >= until {
                return false;
            }
            let slice = (until - now).min(Duration::from_millis(100));
            state = self
                .changed
                .wait_timeout(state, slice)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }

    /// Records `request` and takes its reply from the right queue.
    fn record_and_plan(&self, request: Request) -> (usize, Plan) {
        let headers = joined_headers(&request.headers);
        let turn_metadata = headers
            .get("x-codex-turn-metadata")
            .and_then(|text| serde_json::from_str::<Value>(text).ok());
        let mut recorded = RecordedRequest {
            index: 0,
            method: request.method,
            path: request.path,
            headers,
            body: serde_json::from_slice(&request.body).ok(),
            turn_metadata,
            answer: Answer::NotFound,
        };
        let mut state = self.lock();
        recorded.index = state.requests.len();
        let plan = if recorded.is_model_call() {
            let queue = if recorded.is_compaction() {
                &mut state.compactions
            } else {
                &mut state.turns
            };
            match queue.pop_front() {
                Some(reply) => {
                    recorded.answer = Answer::Scripted;
                    match reply.kind {
                        ReplyKind::Error { status, body } => Plan::Error { status, body },
                        ReplyKind::Stream { items, usage, held } => {
                            let offered = recorded.offered_tools();
                            let items = items
                                .into_iter()
                                .map(|item| in_offered_shape(item, &offered))
                                .collect();
                            let ticket = held.then(|| {
                                state.held_served += 1;
                                state.held_served
                            });
                            Plan::Stream {
                                items,
                                usage,
                                ticket,
                            }
                        }
                    }
                }
                None => {
                    recorded.answer = Answer::Unscripted;
                    let id = format!("msg_unscripted_{}", recorded.index);
                    Plan::Stream {
                        items: vec![assistant_message(&id, "ok")],
                        usage: Usage::default(),
                        ticket: None,
                    }
                }
            }
        } else {
            Plan::NotFound
        };
        let index = recorded.index;
        state.requests.push(recorded);
        drop(state);
        self.changed.notify_all();
        (index, plan)
    }
}

fn joined_headers(headers: &[(String, String)]) -> BTreeMap<String, String> {
    let mut joined: BTreeMap<String, String> = BTreeMap::new();
    for (name, value) in headers {
        joined
            .entry(name.clone())
            .and_modify(|existing| {
                existing.push_str(", ");
                existing.push_str(value);
            })
            .or_insert_with(|| value.clone());
    }
    joined
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    while !shared.stopped() {
        match listener.accept() {
            Ok((stream, _)) => {
                let shared = Arc::clone(shared);
                // A connection whose thread cannot start is dropped: the client sees it
                // closed, and the request is not recorded.
                let _ = std::thread::Builder::new()
                    .name("scripted-model-connection".into())
                    .spawn(move || serve_connection(stream, &shared));
            }
            Err(_) => std::thread::sleep(Duration::from_millis(5)),
        }
    }
}

/// Answers requests on one connection until the client closes it, asks to close it, or the
/// server stops.
fn serve_connection(stream: TcpStream, shared: &Shared) {
    let Ok(mut connection) = Connection::new(stream) else {
        return;
    };
    let stop = || shared.stopped();
    loop {
        let request = match connection.read_request(&stop) {
            Ok(Some(request)) => request,
            Ok(None) => break,
            Err(err) => {
                if err.kind() == io::ErrorKind::InvalidData {
                    let body = json!({ "error": { "message": err.to_string() } }).to_string();
                    let _ =
                        connection.write_response(400, "application/json", body.as_bytes(), true);
                }
                break;
            }
        };
        let (close, http11) = (request.close, request.http11);
        let (index, plan) = shared.record_and_plan(request);
        let answered = match plan {
            Plan::NotFound => {
                let body = json!({ "error": { "message": "not found", "type": "not_found" } });
                connection.write_response(
                    404,
                    "application/json",
                    body.to_string().as_bytes(),
                    close,
                )
            }
            Plan::Error { status, body } => connection.write_response(
                status,
                "application/json",
                body.to_string().as_bytes(),
                close,
            ),
            Plan::Stream {
                items,
                usage,
                ticket,
            } => stream_reply(
                &mut connection,
                shared,
                &format!("resp_{index}"),
                &StreamedReply {
                    items: &items,
                    usage: &usage,
                    ticket,
                    http11,
                    close,
                },
            ),
        };
        if close || !http11 || answered.is_err() {
            break;
        }
    }
    connection.shutdown();
}

struct StreamedReply<'a> {
    items: &'a [Value],
    usage: &'a Usage,
    ticket: Option<u64>,
    http11: bool,
    close: bool,
}

/// Streams one response as server-sent events; a held one waits for its release before
/// `response.completed` (and fails with `TimedOut` if the server stops first).
fn stream_reply(
    connection: &mut Connection,
    shared: &Shared,
    response_id: &str,
    reply: &StreamedReply<'_>,
) -> io::Result<()> {
    let http11 = reply.http11;
    connection.start_stream(200, "text/event-stream", http11, reply.close)?;
    connection.write_piece(&opening_frames(response_id), http11)?;
    for (output_index, item) in reply.items.iter().enumerate() {
        connection.write_piece(&item_frames(output_index, item), http11)?;
    }
    if let Some(ticket) = reply.ticket {
        let released = shared.wait_until(shared.deadline, |state| state.held_released >= ticket);
        if !released {
            return Err(io::ErrorKind::TimedOut.into());
        }
    }
    connection.write_piece(&completed_frame(response_id, reply.usage), http11)?;
    connection.finish_stream(http11)
}

#[cfg(test)]
#[path = "scripted_model_tests.rs"]
mod tests;
