//! Codex session files ("rollouts"): the only crate that reads or writes them.
//!
//! What it owns, and its entry points (every public item is re-exported here, at the root;
//! the modules are private):
//!
//! - **where files live**: [`CodexHome`]
//!   (`<home>/sessions/YYYY/MM/DD/rollout-<time>-<uuid>.jsonl`), [`parse_rollout_file_name`],
//!   and the one walk that finds a file of a home by name ([`find_first_rollout`],
//!   [`folder_files`]);
//! - **writing**: [`RolloutRecorder`], the per-session writer and core's
//!   [`codex_core::RolloutSink`]; which recorded items are durable
//!   ([`persisted_rollout_items`]);
//! - **reading**: [`open_rollout`] (plain or zstd-compressed `.jsonl.zst`, decided once by the
//!   magic number, for every reader), the one forward reader [`RolloutStream`], and the
//!   whole-file loader [`load_rollout_items`] / [`RolloutContents`];
//! - **rebuilding**: the model history a resume continues from
//!   ([`reconstruct_history_from_rollout`], and from the end of a large file
//!   [`resume_rollout_tail`]); forks by reference resolved ([`load_rollout_with_base`]);
//! - **turns**: what counts as a user turn in a file ([`user_turns`], [`StreamedTurnIndex`],
//!   events first, legacy files by core's boundary rule), shared by `inspect` and `fork`, and
//!   pages of whole turns read backwards ([`turns_before`]);
//! - **forks**: copied or by reference ([`fork_rollout`], [`fork_file_dropping_turns`]);
//! - **replay**: the event stream a live session emitted, rebuilt from a file ([`Replayer`],
//!   [`ClientView`]);
//! - **rescue**: a new session holding only the live suffix a resume needs
//!   ([`rescue_rollout`]);
//! - **compression**: one plain rollout replaced by its verified `.jsonl.zst` without a moment
//!   where the session cannot be read ([`Replacement`]).
//!
//! Work over many sessions (listing a home, usage reports, the search index, disk use, which
//! files to compress and the writer locks) is the `codex-home` crate's, which builds on this
//! one.
//!
//! A key design decision: a bad line is a *problem*, never an error. It is reported with its
//! line number ([`LineProblem`]) and skipped, and every good line is kept with its
//! original bytes. Only a file that cannot be read at all, or that has no session meta, is an
//! error ([`LoadError`]).
//!
//! See `docs/rollout.md` for the file format and the guarantees.
//!
//! # Example
//!
//! Read a session (here from bytes; [`load_rollout_items`] reads a file, plain or `.jsonl.zst`),
//! walk its user turns, and rebuild the model history a resume would continue from.
//!
//! ```
//! use codex_rollout::{load_rollout_bytes, reconstruct_history_from_rollout, user_turns};
//!
//! const SESSION: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"docs","cli_version":"0.1.0"}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files."}]}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"List the files."}}
//! this line is damaged
//! {"timestamp":"2025-06-02T09:00:02.000Z","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}}"#;
//!
//! let rollout = load_rollout_bytes(SESSION.as_bytes().to_vec(), "demo.jsonl")?;
//! assert_eq!(rollout.thread_id.to_string(), "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55");
//! // The damaged line is reported, not fatal; the good ones are all kept.
//! assert_eq!(rollout.contents.problems()[0].line, 4);
//! assert_eq!(rollout.contents.items().len(), 4);
//!
//! for turn in user_turns(&rollout.contents) {
//!     assert_eq!(turn.start, 1); // the user message item opens the only turn
//! }
//!
//! let rebuilt = reconstruct_history_from_rollout(rollout.contents.items());
//! // The model's memory: the message and the call (unanswered: the turn was cut short).
//! assert_eq!(rebuilt.history.raw_items().len(), 2);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//!
//! `testing` only: hooks for other crates' tests (a compression stopped after a step, as a
//! kill would stop it), never needed by a program. zstd is always built in (plain and
//! compressed files are told apart by content), and the recorder's writer task needs tokio's
//! runtime.

#![warn(missing_docs)]

mod compress;
mod error;
mod fork;
mod head;
mod history_base;
mod layout;
mod line_tags;
mod load;
mod ordinal;
mod policy;
mod reconstruct;
mod recorder;
mod replay;
mod rescue;
mod resume_point;
mod source;
mod stream;
mod tail;
mod timestamp;
mod turn_pages;
mod turns;
mod writer;

pub use compress::{
    CompressError, CompressOutcome, DEFAULT_LEVEL, EncoderSettings, MAX_WINDOW_LOG, Replacement,
    SkipReason, remove_stale_temporary_files,
};
pub use error::{Result, RolloutError};
pub use fork::{
    ForkError, ForkMode, ForkPoint, ForkedRollout, fork_bytes, fork_file_dropping_turns,
    fork_point_dropping_turns, fork_rollout, fork_rollout_to_path,
    user_message_positions_in_rollout,
};
pub use head::{session_meta_of_file, thread_id_of_file};
pub use history_base::{
    HistoryBaseError, MAX_BASE_DEPTH, PrefixProblem, ResolvedBase, ResolvedRollout,
    history_base_of_file, load_rollout_with_base, resolve_history_base,
};
pub use layout::{
    ARCHIVED_SESSIONS_SUBDIR, CODEX_HOME_ENV, COMPRESSED_SUFFIX, CodexHome, OrderKey,
    RolloutFileName, SESSION_INDEX_FILE, SessionsFolder, find_first_rollout, folder_files,
    home_of_rollout_path, order_key, parse_rollout_file_name,
};
pub use line_tags::{LineTags, line_tags};
pub use load::{
    LineProblem, LoadError, LoadedRollout, ProblemKind, RolloutContents, get_rollout_history,
    load_rollout_bytes, load_rollout_items,
};
pub use ordinal::{WhenMissing, line_ordinal, with_line_ordinal};
pub use policy::persisted_rollout_items;
pub use reconstruct::{
    ContextWindow, PreviousTurnSettings, ReconstructOptions, ReconstructedHistory,
    reconstruct_history_from_rollout, reconstruct_history_with, reconstruct_rollout_file,
};
pub use recorder::{RolloutRecorder, new_session_meta};
pub use replay::{
    ClientView, DECIDING_ITEMS, ReplayedEvent, Replayer, ViewRuleChanged, client_view_items,
};
pub use rescue::{RescueError, Rescued, rescue_rollout};
pub use source::{Compression, DecodedRollout, RolloutReader, open_rollout, read_rollout_file};
pub use stream::{RolloutStream, StreamedContent, StreamedLine};
pub use tail::{RolloutTail, resume_rollout_tail};
pub use timestamp::format_line_timestamp;
pub use turn_pages::{TurnPage, turns_before, turns_from};
pub use turns::{
    ParentPrefixScan, Provenance, StreamedTurnIndex, TooFewTurns, TurnRecords, TurnTally, UserTurn,
    all_user_turns_in_rollout, parent_prefix, user_turns,
};

/// Hooks for the tests of crates above this one, never needed by a program.
#[cfg(feature = "testing")]
pub mod testing {
    pub use crate::compress::Step;
    /// The whole-file replay, the reference a streamed replay is checked against.
    pub use crate::replay::{Replay, replay_rollout};
}

/// The README's examples, compiled and run as doc tests so the first code a downstream user
/// copies stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
