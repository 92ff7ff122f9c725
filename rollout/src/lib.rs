//! Codex session files ("rollouts"): the only crate that reads or writes them.
//!
//! - [`layout`]: where files live (`<home>/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`),
//!   and the one walk that finds a file of a home by name;
//! - [`policy`]: which recorded items are durable;
//! - [`recorder`]: [`RolloutRecorder`], the per-session writer and core's
//!   [`codex_core::session::RolloutSink`];
//! - [`source`]: opening a file plain or zstd-compressed (`.jsonl.zst`), decided once by the
//!   magic number, for every reader;
//! - [`load`], [`reconstruct`], [`fork`]: reading files back into items, model history and
//!   forks (copied, or by reference);
//! - [`history_base`]: forks by reference resolved, a rollout continuing a prefix of its
//!   parent's file found under the same home;
//! - [`turns`]: what counts as a user turn in a file (events first, legacy files by core's
//!   boundary rule), shared by `inspect` and `fork`;
//! - [`replay`]: the event stream a live session emitted, rebuilt from a file;
//! - [`rescue`]: a new session holding only the live suffix a resume needs;
//! - [`compress`]: one plain rollout replaced by its verified `.jsonl.zst` without a moment
//!   where the session cannot be read.
//!
//! Work over many sessions (listing a home, usage reports, the search index, disk use, which
//! files to compress and the writer locks) is the `codex-home` crate's, which builds on this
//! one.
//!
//! A key design decision: a bad line is a *problem*, never an error. It is reported with its
//! line number ([`load::LineProblem`]) and skipped, and every good line is kept with its
//! original bytes. Only a file that cannot be read at all, or that has no session meta, is an
//! error ([`load::LoadError`]).
//!
//! See `docs/rollout.md` for the file format and the guarantees.
//!
//! # Example
//!
//! Read a session (here from bytes; [`load_rollout_items`] reads a file, plain or `.jsonl.zst`),
//! walk its user turns, and rebuild the model history a resume would continue from.
//!
//! ```
//! use codex_rollout::{load_rollout_bytes, reconstruct_history_from_rollout, turns};
//!
//! const SESSION: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"docs","cli_version":"0.1.0"}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files."}]}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"List the files."}}
//! this line is damaged
//! {"timestamp":"2025-06-02T09:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}}"#;
//!
//! let rollout = load_rollout_bytes(SESSION.as_bytes().to_vec(), "demo.jsonl")?;
//! assert_eq!(rollout.thread_id().to_string(), "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55");
//! // The damaged line is reported, not fatal; the good ones are all kept.
//! assert_eq!(rollout.problems()[0].line, 4);
//! assert_eq!(rollout.items().len(), 4);
//!
//! for turn in turns::user_turns(rollout.contents()) {
//!     assert_eq!(turn.first_item(), 1); // the user message item opens the only turn
//! }
//!
//! let rebuilt = reconstruct_history_from_rollout(rollout.items());
//! // The model's memory: the message and the call (unanswered: the turn was cut short).
//! assert_eq!(rebuilt.history.raw_items().len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//!
//! `testing` only: hooks for other crates' tests (a compression stopped after a step, as a
//! kill would stop it), never needed by a program. zstd is always built in (plain and compressed files are told apart by content), and
//! the recorder's writer task needs tokio's runtime.

pub mod compress;
pub mod error;
pub mod fork;
pub mod history_base;
pub mod layout;
pub mod load;
pub mod policy;
pub mod reconstruct;
pub mod recorder;
pub mod replay;
pub mod rescue;
mod resume_point;
pub mod source;
pub mod stream;
pub mod tail;
pub mod timestamp;
pub mod turn_pages;
pub mod turns;
mod writer;

pub use error::RolloutError;
pub use fork::user_message_positions_in_rollout;
pub use layout::CodexHome;
pub use load::{
    LoadError, LoadedRollout, get_rollout_history, load_rollout_bytes, load_rollout_from_reader,
    load_rollout_items,
};
pub use policy::{is_persisted_rollout_item, persisted_rollout_items};
pub use reconstruct::{ReconstructedHistory, reconstruct_history_from_rollout};
pub use recorder::RolloutRecorder;
pub use turns::{UserTurn, user_turns};

/// The README's examples, compiled and run as doc tests so the first code a downstream user
/// copies stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
