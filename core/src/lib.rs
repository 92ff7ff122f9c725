//! The conversation semantics of a Codex thread, on top of [`codex_protocol`].
//!
//! - [`event_mapping`], [`contextual`], [`turn_boundary`]: what a person sees of a
//!   [`codex_protocol::models::ResponseItem`] and where a user turn starts;
//! - [`context_manager`]: the model's memory (history), its prompt projection and rollback;
//! - [`session`]: recording provider output into history, the durable sink and the event
//!   stream; [`prompt`]: building the next request.
//!
//! Architecture invariant: this crate opens no files. Durable recording goes through the
//! rollout sink trait defined in [`session`], implemented by `codex-rollout`.
//!
//! A key design decision: stored history is never rewritten by projection.
//! [`ContextManager::for_prompt`] consumes a snapshot and repairs only that copy ("normalizes"
//! it: every call answered, no orphan output), so what was recorded stays what happened.
//!
//! # Example
//!
//! Build a history and its next prompt. The model called a tool and the turn was interrupted
//! before the output arrived; the history keeps the truth, the prompt answers the call.
//!
//! ```
//! use codex_core::{ContextManager, TruncationPolicy, default_input_modalities, parse_turn_item};
//! use codex_protocol::{ResponseItem, TurnItem};
//!
//! let question = ResponseItem::user_text("List the files.");
//! // What a person sees of the item: their message, without injected context.
//! let Some(TurnItem::UserMessage(seen)) = parse_turn_item(&question) else {
//!     panic!("a user message is shown as one");
//! };
//! assert_eq!(seen.message(), "List the files.");
//!
//! let call = ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "call_1");
//! let mut history = ContextManager::new();
//! history.record_items([&question, &call], TruncationPolicy::Bytes(10_000));
//! assert_eq!(history.raw_items().len(), 2); // no output was recorded
//!
//! let prompt = history.clone().for_prompt(&default_input_modalities());
//! assert_eq!(prompt.len(), 3);
//! let Some(ResponseItem::FunctionCallOutput { call_id, output, .. }) = prompt.last() else {
//!     panic!("the unanswered call gets a synthesized output");
//! };
//! assert_eq!(call_id.as_deref(), Some("call_1"));
//! assert_eq!(output.text_content(), Some("aborted"));
//! assert_eq!(history.raw_items().len(), 2); // the stored history is unchanged
//! ```
//!
//! # Cargo features
//!
//! None. The session driver needs tokio's runtime pieces (`rt`, `sync`, `time`) and always
//! has them; core itself never opens a file or a socket.

pub mod context_manager;
pub mod contextual;
pub mod event_mapping;
pub mod prompt;
pub mod session;
pub mod turn_boundary;

pub use context_manager::{
    ContextManager, InputModality, TruncationPolicy, default_input_modalities,
};
pub use event_mapping::parse_turn_item;
pub use session::{RolloutSink, Session};
pub use turn_boundary::is_user_turn_boundary;

/// The README's examples, compiled and run as doc tests so the first code a downstream user
/// copies stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
