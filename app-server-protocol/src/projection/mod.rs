//! From core facts to client messages and client-visible history.
//!
//! - [`item_event_to_server_notification`]: the stateless one-to-one mapping of item events
//!   and deltas;
//! - [`EventProjector`]: the stateful live projection (turn status, de-duplication,
//!   approvals as requests);
//! - [`item_builders`]: client items built from begin/end events, shared with the history
//!   builder in [`crate::thread_history`];
//! - [`TurnOutcome`]: the one rule for a turn's final status.

mod event_mapping;
pub mod item_builders;
mod projector;
mod turn_status;

pub use event_mapping::item_event_to_server_notification;
pub use projector::{EventProjector, ServerMessage};
pub use turn_status::{TurnOutcome, turn_error_for_status};
