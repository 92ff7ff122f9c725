//! Many Codex sessions under one home (`$CODEX_HOME`): what spans sessions, built on
//! `codex-rollout`, which owns one session file.
//!
//! # Brief overview
//!
//! - Discovery and lookup: [`all_rollout_files`] walks a home (live sessions, then archived
//!   ones; plain and `.jsonl.zst`, each session file once), [`rollout_files_under`] any folder;
//!   [`find_rollout_by_thread_id`] and [`find_rollouts_by_thread_prefix`] answer what a thread
//!   id, or a prefix of one, on a command line names; [`find_thread`] is that rule, through
//!   the search index when it knows the thread; [`expand_session_args`] is what a command's
//!   path arguments name (files, folders, `-`, thread ids, a home), [`resolve_home`] the
//!   home it reads.
//! - Listing: [`list_sessions`] and [`list_archived_sessions`] page a home newest first, each
//!   session with a preview ([`SessionSummary`]); a thread continued in more files is listed
//!   once, by its newest piece; [`list_threads_of`] is a first page that lists a thread once
//!   even when copies of its file carry it. [`summarize_rollout_file`] is the same summary
//!   for one named file; [`ListedSession`] is a summary as it is shown.
//! - Reading one session: [`stream_session`] is the one forward reader with the checks every
//!   reading makes, [`stream_client_view`] what a client is shown of it, [`read_thread`] and
//!   [`TwoPassThread`] its thread (the second handing each turn on as it is final), each
//!   from a [`SessionInput`] and failing with a [`ReadError`] that names it;
//!   [`load_thread_file`] what a reader shows, [`ThreadFollower`] as Codex writes it,
//!   [`TurnWindow`] a large file's pages from its end.
//! - Usage: [`file_usage`] counts each model response of a file once (a forked child's copied
//!   parent prefix left out, a piece charged its own responses), for the model in force at
//!   its line; [`count_each_response_once`] leaves out what another file of the same thread
//!   holds; [`Tally`] sums per model;
//!   [`build_usage_report`] groups responses by local day, week, month, session or model.
//! - Search: [`SearchIndex`], a full-text index (SQLite FTS5) over every session of a home,
//!   kept up to date incrementally. It is a cache: it can be deleted and is rebuilt from the
//!   files, never the source of truth.
//! - Tables: [`write_tables`] writes a home's threads, turns, items and token usage as Parquet
//!   partitioned by day, only what changed since the last run ([`TableRun`]); [`Redactor`]
//!   is the export's `--redact` rule, which it shares.
//! - Import and repair (feature `state`): `plan_import` and `apply_import` bring sessions into
//!   a home so that Codex sees them (copies, then Codex's own app-server registering and
//!   projecting each thread); `find_repairs` and `apply_repairs` find and fix what Codex would
//!   show wrongly.
//! - Served: [`ServedHome`] answers the app-server protocol's read methods from a home, a
//!   [`ServedConnection`] follows the threads a client resumed; `serve_home` (feature
//!   `serve`) puts them on the wire as `codex app-server --listen` does;
//!   [`replay_notifications`] is a session as the messages a client receives.
//! - Disk use: [`measure_files`] says where a home's bytes go ([`DuReport`]).
//! - Compression: [`plan_file`] decides whether a file is old enough and free of a running
//!   Codex ([`thread_writer_lock`]); [`compress_files`] replaces each chosen file through
//!   `codex-rollout`'s verified one-file replacement.
//!
//! - Pruning: [`plan_prune`] picks the threads a [`Policy`] names and says why some are
//!   held (a writer lock, a recent write); [`apply_prune`] compresses, archives (through
//!   Codex's own `codex archive`) or deletes them (into the home's trash, then `codex
//!   delete`), and [`empty_trash`] removes what the grace period has let go; both change a
//!   home only under its [`PruneLock`], one prune at a time.
//!
//! - Arguments: [`parse_age`], [`parse_day`] and [`parse_instant_ms`], what a date or an age
//!   on a command line means, the same for every command.
//!
//! A key design decision: this crate reads session files only through `codex-rollout`'s
//! readers and never writes into one. Finding the one file a reader needs (the parent a
//! `history_base` continues) is `codex-rollout`'s ([`codex_rollout::find_first_rollout`]);
//! everything that walks or pages many files is here.
//!
//! # Example
//!
//! Write one session into a throwaway home, then list the home and find the session by a
//! prefix of its thread id.
//!
//! ```
//! use codex_home::{find_rollouts_by_thread_prefix, list_sessions};
//! use codex_rollout::CodexHome;
//!
//! const SESSION: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"docs","cli_version":"0.1.0"}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"List the files."}]}}
//! {"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"List the files."}}
//! "#;
//!
//! let dir = tempfile::tempdir()?;
//! let day = dir.path().join("sessions/2025/06/02");
//! std::fs::create_dir_all(&day)?;
//! let name = "rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl";
//! std::fs::write(day.join(name), SESSION)?;
//! let home = CodexHome::new(dir.path());
//!
//! let page = list_sessions(&home, 10, None)?;
//! assert_eq!(page.items.len(), 1);
//! assert_eq!(page.items[0].preview, "List the files.");
//!
//! let found = find_rollouts_by_thread_prefix(&home, "0197A2C4")?;
//! assert_eq!(found.len(), 1);
//! assert_eq!(found[0].path, day.join(name));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Cargo features
//!
//! - `search`: the full-text search index (`SearchIndex`, `update_and_search`) and thread
//!   lookups through it; compiles SQLite (bundled).
//! - `tables`: the Parquet tables (`write_tables`); compiles arrow and parquet.
//! - `state`: Codex's own state databases, read to find what it would show wrongly and, where
//!   its app-server cannot, written (`plan_import`, `apply_import`, `find_repairs`,
//!   `apply_repairs`); compiles SQLite (bundled).
//! - `serve`: a served home on the wire (`serve_home`: standard input and output, WebSocket
//!   over TCP or a unix socket); compiles tungstenite.
//!
//! None is on by default: a crate that wants listings, usage or pruning compiles none.

#![warn(missing_docs)]

#[cfg(feature = "state")]
mod codex_state;
mod compress;
mod damage;
mod dates;
mod du;
mod follow;
mod home_rule;
#[cfg(feature = "state")]
mod import;
mod inspect;
mod last_turns;
mod list;
mod pricing;
mod prune;
mod read;
mod redact;
#[cfg(feature = "state")]
mod repair;
mod replay;
#[cfg(feature = "search")]
mod search;
mod secrets;
mod served;
mod session_args;
#[cfg(feature = "tables")]
mod table;
mod thread_lookup;
mod usage;
mod validate;
mod writer_lock;

#[cfg(feature = "state")]
pub use codex_state::StateWriteError;
pub use compress::{
    CompressOptions, CompressRun, CompressSummary, DEFAULT_OLDER_THAN, FileResult, Plan,
    compress_file, compress_files, plan_file,
};
pub use damage::{Damage, file_damage, is_damage, may_be_damaged, note_damage};
pub use dates::{
    AgeError, DayZone, RangeEnd, UnknownZone, day_zone, format_age, parse_age, parse_day,
    parse_instant_ms,
};
pub use du::{
    ByteKind, CompressEstimate, DayUsage, DuOptions, DuReport, FileDiskUsage, ImagePlace,
    ImageSummary, KindBytes, LARGEST_FILES, LargestFile, MIN_SHARED_LINE, PlaceBytes, measure_file,
    measure_files,
};
pub use follow::{LoadedThread, ThreadFeed, ThreadFollower, TurnWindow, load_thread_file};
pub use home_rule::{NotAHome, check_home, resolve_home};
#[cfg(feature = "state")]
pub use import::{
    CodexServerError, ImportError, ImportOptions, ImportPlan, ImportReport, ImportedThread,
    PlannedAction, PlannedFile, apply_import, plan_import,
};
pub use inspect::{
    CopiedPrefix, InspectedTokens, Inspection, Inspector, ProblemReport, UnansweredCall,
    inspect_input,
};
pub use last_turns::last_turns_from_end;
pub use list::{
    Cursor, FoundRollout, HEAD_RECORD_LIMIT, HeadSummary, ListKey, ListOrder, ListedSession,
    MAX_SCAN_FILES, SessionSummary, SessionsPage, SourceFilter, USER_EVENT_SCAN_LIMIT,
    all_rollout_files, find_rollout_by_thread_id, find_rollouts_by_thread_prefix,
    is_rollout_file_name, list_archived_sessions, list_sessions, list_sessions_async,
    list_sessions_of, list_sessions_where, list_threads_of, nest_sub_agents, read_head_summary,
    rollout_files_under, summarize_rollout_file,
};
pub use pricing::{Price, Pricing, PricingError, Snapshot, TallyCost};
pub use prune::{
    Action, AppliedThread, ApplyOptions, CodexCli, CodexCliError, DEFAULT_MIN_IDLE, Hold, Outcome,
    PlanSummary, PlannedThread, Policy, PruneError, PruneLock, PrunePlan, RescueThreadError,
    StorageRow, StorageSummary, TRASH_SUBDIR, TrashFolder, TrashReport, apply_prune, empty_trash,
    parse_policy, parse_size, plan_prune, rescue_thread, storage_summary,
};
pub use read::{
    FileInput, FirstPass, HistoryError, ItemsSeen, LeftOpen, LineTest, Passes, ReadError,
    ResumedWith, SessionHistory, SessionInput, SkippedLines, TwoPassThread, continues_another,
    describe_thread_file, every_line, feed_with_base, home_of, read_thread, stream_again,
    stream_again_lines, stream_again_where, stream_client_view, stream_session,
    stream_session_where,
};
pub use redact::{BadPattern, RedactionReport, Redactor};
#[cfg(feature = "state")]
pub use repair::{
    Finding, Problem, RepairError, RepairReport, RewriteError, apply_repairs, find_repairs,
};
pub use replay::{HOLD_POLLS, NotificationReplay, replay_notifications, replay_notifications_once};
#[cfg(feature = "search")]
pub use search::{
    BUSY_TIMEOUT, Hit, HitAnchor, OUTPUT_CAP, Order, Query, Role, SearchError, SearchIndex, Syntax,
    TextKind, UpdateReport, update_and_search,
};
pub use secrets::{SecretFinding, SecretScanner, SecretsError};
pub use served::{
    FOLLOW_EVERY, ListParamsError, SERVED_CODEX_VERSION, ServeError, ServedConnection, ServedHome,
};
#[cfg(feature = "serve")]
pub use served::{Listen, ListenError, ServeNote, serve_home};
pub use session_args::{
    NamedSession, STDIN_ARG, SessionArgsError, expand_session_args,
    expand_session_args_keeping_each, io_message, thread_file_named,
};
#[cfg(feature = "tables")]
pub use table::{
    ItemRow, MANIFEST_FILE, PART_FILE, PartitionCounts, SCHEMA_VERSION, SCHEMA_VERSION_KEY, Table,
    TableError, TableOptions, TableRun, ThreadRow, ThreadRows, TokenRow, TurnRow, table_schema,
    thread_rows, write_tables,
};
pub use thread_lookup::{
    MIN_THREAD_PREFIX, ThreadLookupError, find_thread, fork_base_in, thread_prefix,
};
pub use usage::{
    CountedFrom, DateRange, FileUsage, ReportKind, ResponseUsage, SessionUsage, Tally, Tokens,
    UNKNOWN_MODEL, UsageError, UsageFile, UsageReport, UsageRow, UsageScan, build_usage_report,
    count_each_response_once, file_usage, file_usage_at, file_usage_by_day, local_day,
    read_usage_files,
};
pub use validate::{Validation, validate_input};
pub use writer_lock::{
    THREAD_WRITER_LOCKS_SUBDIR, WriterLock, thread_writer_lock, thread_writer_lock_path,
};

/// The README's example, compiled as a doc test so the first code a downstream user copies
/// stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
