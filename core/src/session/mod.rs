//! Session recording: the path one completed provider item takes into history, the durable
//! record and the client event stream; plus the request-side pieces a turn needs (initial
//! context, user submissions, the mailbox decision).
//!
//! One item, from provider output to everywhere it goes ([`Session::record_conversation_items`]):
//! prepare a copy (media, turn id and create time when missing, ids when missing) → append to
//! history under the lock (tool outputs truncated by the model's policy) → hand the
//! untruncated items to the [`RolloutSink`] (accepted, not yet on disk) → one
//! `raw_response_item` event each. With a client-visible form, `item_started` and
//! `item_completed` follow ([`Session::record_response_item_and_emit_turn_item`]).
//!
//! - [`sink`]: the [`RolloutSink`] / [`EventSink`] contract with `codex-rollout` and clients;
//! - [`media`], [`prepare`]: the history boundary;
//! - [`state`]: [`Session`], its lock and snapshots; [`config`]: configuration and turn context;
//! - [`record`], [`events`], [`legacy_events`], [`legacy_tool_events`]: recording and
//!   emission;
//! - [`initial_context`]: compiling context fragments by slot;
//! - [`user_input`]: a person's submission as one user message;
//! - [`mailbox`]: the phase tri-state consumer;
//! - [`turn`]: one turn against a [`turn::ModelClient`] (a scripted stub in tests).

pub(crate) mod clock;
pub(crate) mod config;
pub(crate) mod events;
pub(crate) mod initial_context;
pub(crate) mod legacy_events;
pub(crate) mod legacy_tool_events;
pub(crate) mod mailbox;
pub(crate) mod media;
pub(crate) mod prepare;
pub(crate) mod record;
pub(crate) mod sink;
pub(crate) mod state;
pub(crate) mod turn;
pub(crate) mod user_input;

pub use config::ModelSettings;
pub use config::SessionConfiguration;
pub use config::TurnContext;
pub use initial_context::InitialContextInputs;
pub use initial_context::compile_context_update;
pub use initial_context::compile_initial_context;
pub use mailbox::should_defer_mailbox;
pub use media::ImagePreparationMode;
pub use media::MediaSettings;
pub use prepare::PreparedItems;
pub use prepare::assign_missing_response_item_id;
pub use prepare::assign_missing_response_item_ids;
pub use prepare::create_time_of;
pub use prepare::prepare_conversation_items_for_history;
pub use prepare::stamp_response_item_for_history;
pub use sink::EventSink;
pub use sink::InMemoryEventSink;
pub use sink::InMemoryRolloutSink;
pub use sink::RolloutSink;
pub use sink::SinkError;
pub use sink::SinkFuture;
pub use state::Session;
pub use user_input::InMemoryMediaFiles;
pub use user_input::MediaFiles;
pub use user_input::normalize_user_submission;
