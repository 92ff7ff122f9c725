//! Scripted conversations: the core events of a few turns, what a client receives live, and
//! what a session file keeps of them.
//!
//! They serve three purposes: the "live equals replay" tests (reducing the live stream must
//! give the turns rebuilt from the file the real recorder writes, in codex-rollout's
//! `live_equals_replay` test), the TypeScript client's fixtures (written by `cargo xtask
//! codegen` under `typescript-client/fixtures/`), and documentation by example.
//!
//! Test support, not API: compiled only with the `testing` feature (and for this crate's own
//! tests), so a downstream crate never builds it. What the session file keeps is not decided
//! here: callers pass codex-rollout's policy ([`Persist`]).

mod catalog;
mod script;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicI64, Ordering};

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, SessionMeta, SessionMetaLine};
use codex_protocol::thread_id::ThreadId;
use serde::{Deserialize, Serialize};

pub use catalog::all_scenarios;
pub use script::Script;

use crate::common::ClientRequest;
use crate::export::ExportError;
use crate::jsonrpc::{JSONRPCMessage, JSONRPCResponse, RequestId};
use crate::projection::{EventProjector, ServerMessage};
use crate::thread_history::build_turns_from_rollout_items;
use crate::v2::{
    SessionSource, Thread, ThreadHistoryMode, ThreadItem, ThreadRollbackParams,
    ThreadRollbackResponse, ThreadStatus, Turn, TurnStatus,
};

/// Folder of the TypeScript client's fixtures, relative to the crate root.
pub const CLIENT_FIXTURES_DIR: &str = "typescript-client/fixtures";

/// One step of a scripted thread.
// Nearly every step is a core event; boxing it would only add noise to the scripts.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The core emits an event.
    Core(EventMsg),
    /// The client answers the open approval about `item_id`.
    ClientAnswer {
        /// The item the approval is about.
        item_id: String,
        /// The response's `decision`, as JSON.
        decision: serde_json::Value,
    },
    /// The client asks to roll back the last turns (the core's `thread_rolled_back` event
    /// follows as its own step).
    ClientRollback {
        /// How many turns.
        num_turns: u32,
    },
}

/// A scripted thread.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// Short name, used for fixture file names.
    pub name: &'static str,
    /// What it exercises.
    pub description: &'static str,
    /// The thread.
    pub thread_id: ThreadId,
    /// What happens, in order.
    pub steps: Vec<Step>,
}

/// What a session file keeps of what the core emitted: a persistence policy, brought by the
/// caller. This crate does not decide what is durable (codex-rollout's `policy` does, for
/// each history mode); scenarios take the policy as a function, so their rollback answers and
/// fixtures are built from exactly what the real recorder keeps.
pub type Persist<'a> = &'a dyn Fn(&[RolloutItem]) -> Vec<RolloutItem>;

/// Who sent a transcript message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Party {
    /// The app server.
    Server,
    /// The client.
    Client,
}

/// One message of a live transcript.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TranscriptEntry {
    /// Who sent it.
    pub from: Party,
    /// The message.
    pub message: JSONRPCMessage,
}

impl Scenario {
    /// The core events only, in order.
    pub fn events(&self) -> impl Iterator<Item = &EventMsg> {
        self.steps.iter().filter_map(|step| match step {
            Step::Core(event) => Some(event),
            _ => None,
        })
    }

    /// Everything the core emitted in this thread, as rollout items, session meta first:
    /// what a recorder is handed (before its persistence policy filters it).
    pub fn emitted(&self) -> Vec<RolloutItem> {
        emitted_prefix(self, self.steps.len())
    }

    /// The messages a client exchanges with the server, in order: the server's notifications,
    /// requests and responses, and the client's own requests and answers. The server answers
    /// a rollback with the thread rebuilt from what the session file holds by then, which
    /// `persist` says.
    pub fn live_transcript(
        &self,
        persist: Persist<'_>,
    ) -> Result<Vec<TranscriptEntry>, ExportError> {
        let counter = AtomicI64::new(scripted_now_ms());
        let mut projector = EventProjector::with_clock(self.thread_id.to_string(), move || {
            counter.fetch_add(1, Ordering::Relaxed)
        });
        let mut out = Vec::new();
        let mut client_requests = 0;
        for (index, step) in self.steps.iter().enumerate() {
            match step {
                Step::Core(event) => {
                    for message in projector.project(event) {
                        out.push(server(self.name, &message)?);
                    }
                }
                Step::ClientAnswer { item_id, decision } => {
                    let Some(request_id) = projector.request_for_item(item_id).cloned() else {
                        return Err(fixture_error(
                            self.name,
                            format!("no open approval for {item_id}"),
                        ));
                    };
                    out.push(TranscriptEntry {
                        from: Party::Client,
                        message: JSONRPCMessage::Response(JSONRPCResponse {
                            id: request_id.clone(),
                            result: serde_json::json!({ "decision": decision }),
                        }),
                    });
                    if let Some(resolved) = projector.resolve_request(&request_id) {
                        out.push(server(self.name, &ServerMessage::Notification(resolved))?);
                    }
                }
                Step::ClientRollback { num_turns } => {
                    client_requests += 1;
                    let request_id = RequestId::String(format!("client-{client_requests}"));
                    let request = ClientRequest::ThreadRollback {
                        request_id: request_id.clone(),
                        params: ThreadRollbackParams {
                            thread_id: self.thread_id.to_string(),
                            num_turns: *num_turns,
                        },
                    };
                    let request = request
                        .to_jsonrpc()
                        .map_err(|e| fixture_error(self.name, e))?;
                    out.push(TranscriptEntry {
                        from: Party::Client,
                        message: JSONRPCMessage::Request(request),
                    });
                    // The server answers once the core recorded the rollback (the next step).
                    let items = persist(&emitted_prefix(self, index + 2));
                    let response = ThreadRollbackResponse {
                        thread: self.thread(build_turns_from_rollout_items(&items)),
                    };
                    let result =
                        serde_json::to_value(response).map_err(|e| fixture_error(self.name, e))?;
                    out.push(TranscriptEntry {
                        from: Party::Server,
                        message: JSONRPCMessage::Response(JSONRPCResponse {
                            id: request_id,
                            result,
                        }),
                    });
                }
            }
        }
        Ok(out)
    }

    /// The thread as the server describes it, with `turns`.
    pub fn thread(&self, turns: Vec<Turn>) -> Thread {
        Thread {
            id: self.thread_id.to_string(),
            environments: None,
            extra: None,
            session_id: self.thread_id.to_string(),
            forked_from_id: None,
            attached_to_thread_id: None,
            parent_thread_id: None,
            preview: String::new(),
            ephemeral: false,
            section: None,
            section_entered_at: None,
            project_id: None,
            history_mode: ThreadHistoryMode::Paginated,
            model_provider: "openai".to_owned(),
            model: None,
            reasoning_effort: None,
            created_at: scripted_now_ms() / 1000,
            updated_at: scripted_now_ms() / 1000,
            recency_at: None,
            status: ThreadStatus::Idle,
            path: None,
            cwd: "/workspace/demo".to_owned(),
            cli_version: "0.0.0-scripted".to_owned(),
            originator: None,
            source: SessionSource::AppServer,
            can_accept_direct_input: None,
            thread_source: None,
            agent_nickname: None,
            agent_role: None,
            git_info: None,
            name: None,
            daybreak_enabled: None,
            turns,
        }
    }
}

/// The turns a client saw live, as a session file of the given mode can give them back
/// (codex-rollout's policy, after upstream's; everything else must come back exactly):
/// - no mode keeps an `error` event, so a turn that failed replays as completed and without
///   its error, as upstream's resume shows it;
/// - a legacy file keeps neither `exec_command_end` nor a completed CommandExecution item, so
///   its commands are not part of the replayed turns at all.
pub fn as_recorded(turns: &[Turn], paginated: bool) -> Vec<Turn> {
    let mut turns = turns.to_vec();
    for turn in &mut turns {
        if turn.status == TurnStatus::Failed {
            turn.status = TurnStatus::Completed;
            turn.error = None;
        }
        if !paginated {
            turn.items
                .retain(|item| !matches!(item.item, ThreadItem::CommandExecution { .. }));
        }
    }
    turns
}

/// `turns` without item times. A live client records an item's start from `item/started`,
/// while a file keeps it only where its `item_completed` carries `started_at_ms` (the scripted
/// core's do not): live and replayed turns are compared without them.
pub fn without_item_times(turns: &[Turn]) -> Vec<Turn> {
    let mut turns = turns.to_vec();
    for item in turns.iter_mut().flat_map(|turn| turn.items.iter_mut()) {
        item.started_at_ms = None;
        item.completed_at_ms = None;
    }
    turns
}

fn emitted_prefix(scenario: &Scenario, steps: usize) -> Vec<RolloutItem> {
    let meta = SessionMeta::new(
        scenario.thread_id,
        "2025-06-15T15:06:40.000Z",
        "/workspace/demo",
        "codex_app_server_protocol_scenarios",
        "0.0.0-scripted",
    );
    let mut items = vec![RolloutItem::SessionMeta(Box::new(SessionMetaLine {
        meta,
        git: None,
    }))];
    for step in scenario.steps.iter().take(steps) {
        if let Step::Core(event) = step {
            items.push(RolloutItem::EventMsg(event.clone()));
        }
    }
    items
}

fn server(name: &str, message: &ServerMessage) -> Result<TranscriptEntry, ExportError> {
    let message = match message {
        ServerMessage::Notification(notification) => JSONRPCMessage::Notification(
            notification
                .to_jsonrpc()
                .map_err(|e| fixture_error(name, e))?,
        ),
        ServerMessage::Request(request) => {
            JSONRPCMessage::Request(request.to_jsonrpc().map_err(|e| fixture_error(name, e))?)
        }
    };
    Ok(TranscriptEntry {
        from: Party::Server,
        message,
    })
}

/// Scripted "now" (2025-06-15T15:06:40Z) in milliseconds.
fn scripted_now_ms() -> i64 {
    1_750_000_000_000
}

fn fixture_error(name: &str, message: impl ToString) -> ExportError {
    ExportError::Fixture {
        name: name.to_owned(),
        message: message.to_string(),
    }
}

/// The TypeScript client's fixtures: per scenario, the live transcript (`.live.jsonl`, one
/// message per line) and the turns rebuilt from what `persist` keeps (`.replay.json`).
pub fn client_fixture_files(persist: Persist<'_>) -> Result<BTreeMap<String, String>, ExportError> {
    let mut files = BTreeMap::new();
    for scenario in all_scenarios() {
        let mut transcript = String::new();
        for entry in scenario.live_transcript(persist)? {
            let value = serde_json::to_value(&entry).map_err(ExportError::Json)?;
            let line = crate::export::render_compact(&value)?;
            transcript.push_str(&line);
            transcript.push('\n');
        }
        files.insert(
            format!("{CLIENT_FIXTURES_DIR}/{}.live.jsonl", scenario.name),
            transcript,
        );
        let turns = build_turns_from_rollout_items(&persist(&scenario.emitted()));
        let replay = serde_json::json!({
            "scenario": scenario.name,
            "description": scenario.description,
            "turns": turns,
        });
        files.insert(
            format!("{CLIENT_FIXTURES_DIR}/{}.replay.json", scenario.name),
            crate::export::render_pretty(&replay)?,
        );
    }
    Ok(files)
}
