//! Codex session files ("rollouts"): the only crate that reads or writes them.
//!
//! - [`layout`]: where files live (`<home>/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`);
//! - [`policy`]: which recorded items are durable;
//! - [`recorder`]: [`RolloutRecorder`], the per-session writer and core's
//!   [`codex_core::session::RolloutSink`];
//! - [`list`]: sessions under a home, newest first, paginated;
//! - [`source`]: opening a file plain or zstd-compressed (`.jsonl.zst`), decided once by the
//!   magic number, for every reader;
//! - [`load`], [`reconstruct`], [`fork`]: reading files back into items, model history and
//!   forks (copied, or by reference);
//! - [`history_base`]: forks by reference resolved, a rollout continuing a prefix of its
//!   parent's file found under the same home;
//! - [`turns`]: what counts as a user turn in a file (events first, legacy files by core's
//!   boundary rule), shared by `inspect` and `fork`;
//! - [`replay`]: the event stream a live session emitted, rebuilt from a file.
//!
//! See `docs/rollout.md` for the file format and the guarantees.

pub mod error;
pub mod fork;
pub mod history_base;
pub mod layout;
pub mod list;
pub mod load;
pub mod policy;
pub mod reconstruct;
pub mod recorder;
pub mod replay;
mod resume_point;
pub mod source;
pub mod stream;
pub mod tail;
pub mod timestamp;
pub mod turns;
mod writer;

pub use error::RolloutError;
pub use fork::user_message_positions_in_rollout;
pub use layout::CodexHome;
pub use list::{SessionsPage, list_sessions};
pub use load::{get_rollout_history, load_rollout_items};
pub use policy::{is_persisted_rollout_item, persisted_rollout_items};
pub use reconstruct::reconstruct_history_from_rollout;
pub use recorder::RolloutRecorder;
