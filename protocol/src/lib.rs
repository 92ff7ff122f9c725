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
//! - [`user_input`]: what a person submits;
//! - [`event`]: [`event::Event`] and [`event::EventMsg`], the event stream;
//! - [`rollout`]: the JSONL line envelope of session files and its tolerant parser;
//! - [`mcp`]: the MCP tool result as the model sees it, and its conversion into a tool output;
//! - [`thread_id`]: the identifier of a thread (one conversation, one session file).
//!
//! Architecture invariant: this crate performs no IO and starts no async runtime. It is pure
//! data plus the rules that belong to the data (serde spellings, id prefixes, pairing).

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
pub mod user_input;
