//! The client-facing projection of a Codex thread (the app-server protocol).
//!
//! Core produces facts (`EventMsg`, `TurnItem`) and persists a rollout; this crate turns those
//! facts into what a client consumes: [`v2::ThreadItem`]s grouped into [`v2::Turn`]s, JSON-RPC
//! notifications and requests ([`ServerNotification`], [`ServerRequest`]), and the generated
//! JSON Schema and TypeScript that let clients in other languages parse them.
//!
//! Layering: this crate depends on `codex-protocol` only. It never re-parses `ResponseItem`s;
//! it projects `TurnItem`s and `EventMsg`s, and it never reads files (callers hand it rollout
//! items as values). The only IO is [`export`]'s writer of the committed `schema/` tree.
//!
//! - [`v2`]: the client contract (items, turns, threads, notification and request payloads)
//!   and its conversions from core types;
//! - [`jsonrpc`] and [`common`]: the envelope and the typed method enums;
//! - [`projection`]: live events to notifications and requests;
//! - [`thread_history`]: persisted rollout items to the turns a resume shows;
//! - [`client_state`]: the reference client reducer;
//! - `scenarios` (feature `testing`): scripted conversations for tests and the TypeScript
//!   client's fixtures;
//! - [`export`]: JSON Schema and TypeScript generation and the drift check.
//!
//! See `docs/app-server-protocol.md` for the five shapes of a conversation and who owns each.

pub mod client_state;
pub mod common;
pub mod export;
pub mod jsonrpc;
pub mod projection;
#[cfg(any(test, feature = "testing"))]
pub mod scenarios;
pub mod thread_history;
pub mod v2;

pub use client_state::ThreadState;
pub use common::*;
pub use jsonrpc::*;
pub use projection::{EventProjector, ServerMessage, item_event_to_server_notification};
pub use thread_history::{ThreadHistoryBuilder, build_turns_from_rollout_items};
