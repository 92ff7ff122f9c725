//! The client-facing projection of a Codex thread (the app-server protocol).
//!
//! Core produces facts (`EventMsg`, `TurnItem`) and persists a rollout; this crate turns those
//! facts into what a client consumes: [`v2::ThreadItem`]s grouped into [`v2::Turn`]s, JSON-RPC
//! notifications and requests ([`ServerNotification`], [`ServerRequest`]), and the generated
//! JSON Schema and TypeScript that let clients in other languages parse them.
//!
//! Layering: this crate depends on `codex-protocol` only. It projects `TurnItem`s and
//! `EventMsg`s (and, in the complete transcript mode, the calls and outputs a file records,
//! read by `codex_protocol::tool_call`), and it never reads or writes files (callers hand it
//! rollout items as values; [`export`] renders the schema in memory and `xtask` writes it).
//!
//! Four public namespaces, each a design choice: [`v2`] (the wire contract, versioned as the
//! generated schema is), [`transcript`] (the terminal client's cell model), [`item_builders`]
//! (legacy events to items) and [`export`] (code generation); everything else is re-exported
//! here at the root from private modules.
//!
//! - [`v2`]: the client contract (items, turns, threads, notification and request payloads)
//!   and its conversions from core types;
//! - [`JSONRPCMessage`] and [`ClientRequest`], [`ServerNotification`] …: the envelope and the
//!   typed method enums;
//! - [`EventProjector`]: live events to notifications and requests;
//! - [`ThreadHistoryBuilder`], [`ThreadBuilder`]: persisted rollout items to the turns and the
//!   thread a resume shows;
//! - [`ThreadState`]: the reference client reducer;
//! - [`transcript`]: the terminal client's history cells, live tail and status line;
//! - `scenarios` (feature `testing`): scripted conversations for tests and the TypeScript
//!   client's fixtures;
//! - [`export`]: JSON Schema and TypeScript generation, in memory (the drift check and the
//!   files are `cargo xtask codegen`'s).
//!
//! See `docs/app-server-protocol.md` for the five shapes of a conversation and who owns each.
//! TypeScript projects take the same types from the npm package `codex-app-server-protocol`
//! (generated from this crate by `cargo xtask codegen`, with a validator of the JSON Schema).
//!
//! # Example
//!
//! Project the items of a session file into the thread a resumed client shows: its turns,
//! each with its items and status. (Read the items with `codex-rollout`; here they are
//! parsed from inline lines with `codex-protocol`.)
//!
//! ```
//! use codex_app_server_protocol::build_turns_from_rollout_items;
//! use codex_app_server_protocol::v2::{ThreadItem, TurnStatus};
//! use codex_protocol::rollout::parse_rollout_line;
//!
//! const SESSION: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"docs","cli_version":"0.1.0"}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"turn-1"}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"What does this build with?"}}
//! {"timestamp":"2025-06-02T09:00:02.000Z","type":"event_msg","payload":{"type":"agent_message","message":"Cargo."}}
//! {"timestamp":"2025-06-02T09:00:03.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"turn-1"}}"#;
//!
//! let mut items = Vec::new();
//! for line in SESSION.lines() {
//!     items.extend(parse_rollout_line(line.as_bytes())?.into_line().map(|line| line.item));
//! }
//! let turns = build_turns_from_rollout_items(&items);
//! assert_eq!(turns.len(), 1);
//! assert_eq!(turns[0].status, TurnStatus::Completed);
//! let texts: Vec<&str> = turns[0]
//!     .items
//!     .iter()
//!     .filter_map(|item| match &item.item {
//!         ThreadItem::AgentMessage { text, .. } => Some(text.as_str()),
//!         _ => None,
//!     })
//!     .collect();
//! assert_eq!(texts, ["Cargo."]);
//! // As JSON, this is what a `thread/resume` response carries in `thread.turns`.
//! let json = serde_json::to_value(&turns[0])?;
//! assert_eq!(json["status"], "completed");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//!
//! - `testing` (off): the `scenarios` module, scripted conversations and their live
//!   transcripts, for tests and fixture generation; a downstream crate never needs it.
//!
//! The JSON Schema (schemars) and TypeScript (ts-rs) derives are always on: they are
//! how [`export::generate`] renders the schema, in memory.

#![warn(missing_docs)]

mod client_state;
mod common;
pub mod export;
mod jsonrpc;
mod projection;
#[cfg(any(test, feature = "testing"))]
pub mod scenarios;
mod thread_history;
pub mod transcript;
pub mod v2;

pub use client_state::ThreadState;
pub use common::{
    ClientNotification, ClientRequest, MessageConversionError, ServerNotification, ServerRequest,
};
pub use jsonrpc::{
    INTERNAL_ERROR_CODE, INVALID_PARAMS_ERROR_CODE, INVALID_REQUEST_ERROR_CODE, JSONRPC_VERSION,
    JSONRPCError, JSONRPCErrorError, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest,
    JSONRPCResponse, METHOD_NOT_FOUND_ERROR_CODE, RequestId,
};
pub use projection::item_builders;
pub use projection::{
    EventProjector, ServerMessage, TurnOutcome, item_event_to_server_notification,
    turn_error_for_status,
};
pub use thread_history::{
    BuiltThread, ThreadBuilder, ThreadHistoryBuilder, TranscriptMode, TurnSchedule,
    build_turns_from_rollout_items, build_turns_in_mode, session_source, thread_from_rollout_items,
    thread_from_session_meta,
};

/// The README's examples, compiled and run as doc tests so the first code a downstream user
/// copies stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
