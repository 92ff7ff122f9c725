//! The wire model of one Codex conversation.
//!
//! Everything another layer exchanges with the model provider, the durable session file or a
//! client is spelled here, and nowhere else:
//!
//! - [`models`]: [`models::ResponseItem`], the wide union of what the model saw or produced,
//!   with its content and payload types, and [`models::ResponseInputItem`];
//! - [`response_item_id`]: the `{prefix}_{uuid v7}` item identifiers;
//! - [`call_pairing`]: the single answer to "is this item a tool call or a tool output, of
//!   which kind, with which call id", so no other layer re-derives it;
//! - [`items`]: [`items::TurnItem`], the semantic projection a person sees;
//! - [`tool_call`]: what a call runs ([`tool_call::ToolInvocation`]: a command, a patch, an MCP
//!   tool or another tool), the item a client is shown for it, and what its output reports;
//! - [`user_input`]: what a person submits;
//! - [`event`]: [`event::Event`] and [`event::EventMsg`], the event stream;
//! - [`rollout`]: the JSONL line envelope of session files and its tolerant parser;
//! - [`mcp`]: the MCP tool result as the model sees it, and its conversion into a tool output;
//! - [`thread_id`]: the identifier of a thread (one conversation, one session file).
//!
//! Architecture invariant: this crate performs no IO and starts no async runtime. It is pure
//! data plus the rules that belong to the data (serde spellings, id prefixes, pairing).
//!
//! # Example
//!
//! Read the lines of a session file (here inline; `codex-rollout` reads real files) and
//! match what each one records. A line is parsed losslessly: an unknown item type is kept,
//! and writing the line back reproduces its bytes.
//!
//! ```
//! use codex_protocol::models::{ContentItem, ResponseItem};
//! use codex_protocol::rollout::{RolloutItem, parse_rollout_line};
//!
//! const SESSION: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"docs","cli_version":"0.1.0"}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files."}]}}
//! {"timestamp":"2025-06-02T09:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}}"#;
//!
//! let mut seen = Vec::new();
//! for line in SESSION.lines() {
//!     let parsed = parse_rollout_line(line.as_bytes())?;
//!     match parsed.item() {
//!         Some(RolloutItem::SessionMeta(meta)) => seen.push(format!("thread {}", meta.meta.id)),
//!         Some(RolloutItem::ResponseItem(ResponseItem::Message { role, content, .. })) => {
//!             for part in content {
//!                 if let ContentItem::InputText { text } = part {
//!                     seen.push(format!("{role}: {text}"));
//!                 }
//!             }
//!         }
//!         Some(RolloutItem::ResponseItem(ResponseItem::FunctionCall { name, call_id, .. })) => {
//!             seen.push(format!("call {name} ({call_id})"));
//!         }
//!         _ => {}
//!     }
//! }
//! assert_eq!(
//!     seen,
//!     [
//!         "thread 0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55",
//!         "user: List the files.",
//!         "call shell (call_1)",
//!     ]
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//!
//! None: every type derives serde, `schemars::JsonSchema` and `ts_rs::TS` unconditionally,
//! because the generated JSON Schema and TypeScript of `codex-app-server-protocol` are built
//! from them.

#![warn(missing_docs)]

pub mod call_matching;
pub mod call_pairing;
pub mod event;
pub mod items;
pub mod mcp;
pub mod models;
pub mod response_item_id;
pub mod rollout;
pub(crate) mod small_map;
pub mod thread_id;
pub mod tool_call;
pub mod type_first;
pub mod user_input;

/// The README's examples, compiled and run as doc tests so the first code a downstream user
/// copies stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
