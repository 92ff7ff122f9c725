//! The rows of the four tables, as plain values: what one thread's files give, before they
//! become Arrow columns (`columns.rs`) in a day's partition (`partition.rs`).
//!
//! Times are milliseconds since the Unix epoch, UTC. A row's day (its partition) is the UTC
//! date of its own time: a thread's creation, a turn's start, an item's line, a response's
//! line; a row without a time of its own takes its thread's creation day.

use chrono::{DateTime, NaiveDate, Utc};

/// One thread: its identity from its own session meta, summed over its files.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadRow {
    /// The thread id.
    pub thread_id: String,
    /// When it was created (the meta's timestamp, else the file name's).
    pub created_at: Option<i64>,
    /// The last line's time over every piece.
    pub updated_at: Option<i64>,
    /// How many files (continuation pieces) hold it.
    pub pieces: u32,
    /// Lines over every piece.
    pub lines: u64,
    /// Decoded bytes over every piece.
    pub bytes: u64,
    /// The thread it was forked from.
    pub forked_from_id: Option<String>,
    /// The thread that spawned it (sub-agents).
    pub parent_thread_id: Option<String>,
    /// The thread whose lines its first file starts with a copy of (those lines are its
    /// parent's: usage leaves them out, items mark them `copied`).
    pub copied_from_id: Option<String>,
    /// The thread whose file it continues by reference (`history_base`).
    pub history_base_thread_id: Option<String>,
    /// What kind of client started it (`cli`, `vscode`, `exec`, or JSON for a sub-agent).
    pub source: Option<String>,
    /// The open label of what started it (`user`, `subagent`, ...).
    pub thread_source: Option<String>,
    /// Which client wrote it.
    pub originator: Option<String>,
    /// The writing Codex's version.
    pub cli_version: Option<String>,
    /// The model provider id.
    pub model_provider: Option<String>,
    /// The working directory.
    pub cwd: Option<String>,
    /// Git branch, commit and remote.
    pub git_branch: Option<String>,
    /// Git commit.
    pub git_commit: Option<String>,
    /// Git remote URL.
    pub git_repository_url: Option<String>,
    /// The project, as `usage --by project` groups it: the git repository, else the working
    /// directory (`session_project`).
    pub project: Option<String>,
    /// The thread's name (its last `thread_name_updated`, else the home's session index).
    pub name: Option<String>,
    /// A sub-agent's nickname.
    pub agent_nickname: Option<String>,
    /// A sub-agent's role.
    pub agent_role: Option<String>,
}

/// One turn, as the app-server's thread builder rebuilds it from a file.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TurnRow {
    /// Its thread.
    pub thread_id: String,
    /// Which file of the thread (0 for the first).
    pub piece: u32,
    /// 0-based position among the file's turns (rolled-back turns last).
    pub seq: u32,
    /// The turn id.
    pub turn_id: String,
    /// `completed`, `interrupted`, `failed`, `inProgress`; `null` for a rolled-back turn.
    pub status: Option<String>,
    /// When it started: the app-server turn's time (whole seconds), else the time of its
    /// `task_started` line.
    pub started_at: Option<i64>,
    /// End.
    pub completed_at: Option<i64>,
    /// How long it ran, as Codex recorded it.
    pub duration_ms: Option<i64>,
    /// A rollback removed it: it is not part of the thread any more.
    pub rolled_back: bool,
    /// It started inside the parent prefix a forked or sub-agent child copied: it is the
    /// parent's turn, shown in the child as `thread` shows it.
    pub copied: bool,
    /// Context compactions inside it.
    pub compactions: u32,
    /// Client-visible items in it.
    pub items: u32,
    /// The error message of a failed turn.
    pub error: Option<String>,
}

/// One response item (the model's record): a message, reasoning, a tool call, its output.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ItemRow {
    /// Its thread.
    pub thread_id: String,
    /// Which file of the thread.
    pub piece: u32,
    /// 1-based line in that file.
    pub line: u64,
    /// The line's time.
    pub timestamp: Option<i64>,
    /// The turn open at the line (the last `task_started`), when there is one.
    pub turn_id: Option<String>,
    /// The line is part of the parent's prefix a forked or sub-agent child copied.
    pub copied: bool,
    /// The payload type (`message`, `function_call`, `function_call_output`, ...).
    pub item_type: String,
    /// A message's role.
    pub role: Option<String>,
    /// The tool a call invokes (`inspect`'s name for it).
    pub tool_name: Option<String>,
    /// A call's or output's call id.
    pub call_id: Option<String>,
    /// The model in force at the line.
    pub model: Option<String>,
    /// The command a call ran (from its `exec_command_end`).
    pub command: Option<String>,
    /// The command's exit code.
    pub exit_code: Option<i32>,
    /// How long the tool ran.
    pub duration_ms: Option<i64>,
    /// For calls: `completed`, `failed`, or `no_output`.
    pub status: Option<String>,
    /// Files a patch changed.
    pub patch_files: Vec<String>,
    /// Characters of the item's text.
    pub text_chars: u64,
    /// The text itself (only with `--with-text`).
    pub text: Option<String>,
}

/// One model response, counted as `usage` counts it.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TokenRow {
    /// Its thread.
    pub thread_id: String,
    /// Which file of the thread.
    pub piece: u32,
    /// 1-based line of the counting line.
    pub line: u64,
    /// The line's time.
    pub timestamp: i64,
    /// The model in force; `null` when no line named one (`usage` says `unknown`).
    pub model: Option<String>,
    /// Input tokens, cached included.
    pub input_tokens: u64,
    /// Cached input.
    pub cached_input_tokens: u64,
    /// Output tokens, reasoning included.
    pub output_tokens: u64,
    /// Reasoning output.
    pub reasoning_output_tokens: u64,
    /// Input plus output.
    pub total_tokens: u64,
    /// `record` or `total_change`.
    pub counted_from: String,
}

/// Every row one thread gives.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ThreadRows {
    /// The thread.
    pub thread: ThreadRow,
    /// Its turns.
    pub turns: Vec<TurnRow>,
    /// Its response items.
    pub items: Vec<ItemRow>,
    /// Its responses' token usage.
    pub tokens: Vec<TokenRow>,
    /// Its damaged files ([`crate::Damage`]): their rows are what could be read.
    pub damaged: Vec<(std::path::PathBuf, crate::Damage)>,
}

/// The four tables.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Table {
    /// `threads`.
    Threads,
    /// `turns`.
    Turns,
    /// `items`.
    Items,
    /// `token_usage`.
    TokenUsage,
}

impl Table {
    /// Every table, in the order they are written.
    pub const ALL: [Table; 4] = [
        Table::Threads,
        Table::Turns,
        Table::Items,
        Table::TokenUsage,
    ];

    /// The table's folder name.
    pub fn name(self) -> &'static str {
        match self {
            Table::Threads => "threads",
            Table::Turns => "turns",
            Table::Items => "items",
            Table::TokenUsage => "token_usage",
        }
    }
}

/// The UTC day of a time in milliseconds, `YYYY-MM-DD`.
pub(super) fn day_of(ms: i64) -> Option<NaiveDate> {
    DateTime::<Utc>::from_timestamp_millis(ms).map(|time| time.date_naive())
}

impl ThreadRows {
    /// The days (partitions) each table's rows of this thread fall on, sorted.
    pub fn days(&self) -> [(Table, Vec<NaiveDate>); 4] {
        let fallback = self.thread.created_at.and_then(day_of);
        let day = |ms: Option<i64>| ms.and_then(day_of).or(fallback);
        let collect = |days: &mut dyn Iterator<Item = Option<NaiveDate>>| {
            let mut days: Vec<NaiveDate> = days.flatten().collect();
            days.sort();
            days.dedup();
            days
        };
        [
            (Table::Threads, collect(&mut std::iter::once(fallback))),
            (
                Table::Turns,
                collect(&mut self.turns.iter().map(|turn| day(turn.started_at))),
            ),
            (
                Table::Items,
                collect(&mut self.items.iter().map(|item| day(item.timestamp))),
            ),
            (
                Table::TokenUsage,
                collect(&mut self.tokens.iter().map(|row| day(Some(row.timestamp)))),
            ),
        ]
    }

    /// The day a turn, item or token row falls on (the thread's creation day when it has no
    /// time of its own).
    pub fn day_or_created(&self, ms: Option<i64>) -> Option<NaiveDate> {
        ms.and_then(day_of)
            .or_else(|| self.thread.created_at.and_then(day_of))
    }
}
