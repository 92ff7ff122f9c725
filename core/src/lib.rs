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

pub mod context_manager;
pub mod contextual;
pub mod event_mapping;
pub mod prompt;
pub mod session;
pub mod turn_boundary;
