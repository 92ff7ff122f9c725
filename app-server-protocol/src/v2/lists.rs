//! Paged reads of what a server holds: `thread/list` (threads), `thread/loaded/list` (the ids
//! of loaded threads), `thread/turns/list` (a thread's turns) and `thread/items/list` (its
//! items). Every page carries opaque cursors: `nextCursor` continues in the same direction,
//! `backwardsCursor` turns back from the page's first entry.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::thread::Thread;
use super::turn::{TimedThreadItem, Turn, TurnItemsView};

/// Which way a page runs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum SortDirection {
    /// Oldest first.
    Asc,
    /// Newest first.
    #[default]
    Desc,
}

/// What `thread/list` orders threads by.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(export_to = "v2/")]
pub enum ThreadSortKey {
    /// When the thread was created (the default).
    #[default]
    CreatedAt,
    /// When the thread last changed.
    UpdatedAt,
    /// When the thread was last used (a file's last change when read from one).
    RecencyAt,
    /// Where a person placed the thread in its section (never recorded in a session file).
    SectionPosition,
}

/// One working directory or several (`thread/list`'s `cwd`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(untagged)]
#[ts(export_to = "v2/")]
pub enum ThreadListCwdFilter {
    /// One directory.
    One(String),
    /// Any of these.
    Any(Vec<String>),
}

impl ThreadListCwdFilter {
    /// Whether `cwd` is one the filter names.
    pub fn matches(&self, cwd: &str) -> bool {
        match self {
            Self::One(one) => one == cwd,
            Self::Any(any) => any.iter().any(|one| one == cwd),
        }
    }
}

/// Params of `thread/list`. Absent filters keep every thread but for the source kinds and the
/// providers: without `sourceKinds` (or with an empty list) only interactive sources are
/// listed, without `modelProviders` only the server's own provider.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadListParams {
    /// A cursor from a previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cursor: Option<String>,
    /// Page size; the server's default when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub limit: Option<u32>,
    /// What to order by; creation time when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub sort_key: Option<ThreadSortKey>,
    /// Which way; newest first when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub sort_direction: Option<SortDirection>,
    /// Only threads recorded under these providers; all when empty; when absent, the
    /// server's own provider.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub model_providers: Option<Vec<String>>,
    /// Only threads of these source kinds (`SOURCE_KINDS`); interactive ones when absent or
    /// empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub source_kinds: Option<Vec<String>>,
    /// Archived threads only when true; unarchived ones otherwise.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub archived: Option<bool>,
    /// Only threads whose working directory is one of these.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cwd: Option<ThreadListCwdFilter>,
    /// Only threads whose title holds this text (case-sensitive).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub search_term: Option<String>,
    /// Only threads a given thread spawned directly.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub parent_thread_id: Option<String>,
    /// Only threads a given thread spawned, at any depth.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub ancestor_thread_id: Option<String>,
    /// Threads to leave out.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub excluded_thread_ids: Option<Vec<String>>,
    /// Only these threads (up to 100; Codex 0.171); an empty list matches none, exclusions
    /// still apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub included_thread_ids: Option<Vec<String>>,
    /// Only threads attached to this thread (Codex keeps attachments in its state database;
    /// a session file records none). Not with `parentThreadId` or `ancestorThreadId`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub attached_to_thread_id: Option<String>,
    /// With `searchTerm` (required then): attached threads match the search too.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub include_attached_threads: Option<bool>,
    /// Only threads of these originators; a local server refuses a list that is not empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub originators: Option<Vec<String>>,
    /// Read only the server's state, never the session files (Codex's state database).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub use_state_db_only: Option<bool>,
    /// Only threads visible to the signed-in account.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub current_account_only: Option<bool>,
    /// Only threads of this project; present and null for threads of none. Session files
    /// record no project, so every thread read from one belongs to none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "present_or_absent"
    )]
    #[ts(optional, type = "string | null")]
    #[schemars(with = "Option<String>")]
    pub project_id: Option<Option<String>>,
    /// Only threads of this section; present and null for threads of none. Session files
    /// record no section, so every thread read from one is in none.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "present_or_absent"
    )]
    #[ts(optional, type = "string | null")]
    #[schemars(with = "Option<String>")]
    pub section_id: Option<Option<String>>,
}

/// A field whose absence and whose `null` mean different things: `None` absent,
/// `Some(None)` null.
mod present_or_absent {
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        value: &Option<Option<String>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        value
            .as_ref()
            .and_then(Option::as_ref)
            .serialize(serializer)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Option<String>>, D::Error> {
        Option::<String>::deserialize(deserializer).map(Some)
    }
}

/// Response of `thread/list`: a page of threads, without their turns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadListResponse {
    /// The threads of the page.
    pub data: Vec<Thread>,
    /// Continues after the page's last thread; null after the last page.
    pub next_cursor: Option<String>,
    /// Turns back from the page's first thread (with the other direction); null for an empty
    /// page.
    pub backwards_cursor: Option<String>,
    /// What each thread of the page has unread, by id; empty for threads read from files,
    /// which record no receipts.
    pub read_states: serde_json::Map<String, serde_json::Value>,
}

/// Params of `thread/loaded/list`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadLoadedListParams {
    /// A cursor from a previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cursor: Option<String>,
    /// Page size; every id when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub limit: Option<u32>,
}

/// Response of `thread/loaded/list`: the ids of the threads loaded in the server.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadLoadedListResponse {
    /// The ids.
    pub data: Vec<String>,
    /// Continues after the page; null after the last.
    pub next_cursor: Option<String>,
}

/// Params of `thread/unsubscribe`: the connection stops following the thread.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadUnsubscribeParams {
    /// The thread.
    pub thread_id: String,
}

/// What `thread/unsubscribe` found.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum ThreadUnsubscribeStatus {
    /// The server holds no such thread.
    NotLoaded,
    /// The connection did not follow the thread.
    NotSubscribed,
    /// The connection followed the thread and no longer does.
    Unsubscribed,
}

/// Response of `thread/unsubscribe`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadUnsubscribeResponse {
    /// What was found.
    pub status: ThreadUnsubscribeStatus,
}

/// Params of `thread/turns/list`: a page of one thread's turns.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadTurnsListParams {
    /// The thread.
    pub thread_id: String,
    /// A cursor from a previous page (or a resume's `turnsBackwardsCursor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cursor: Option<String>,
    /// Page size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub limit: Option<u32>,
    /// Which way; newest first when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub sort_direction: Option<SortDirection>,
    /// How many of each turn's items to include; a summary when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub items_view: Option<TurnItemsView>,
}

/// Response of `thread/turns/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadTurnsListResponse {
    /// The turns of the page, in the page's direction.
    pub data: Vec<Turn>,
    /// Continues after the page's last turn; null after the last page.
    pub next_cursor: Option<String>,
    /// Turns back from the page's first turn, including it; null for an empty page.
    pub backwards_cursor: Option<String>,
}

/// Params of `thread/items/list`: a page of one thread's items, across its turns or of one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadItemsListParams {
    /// The thread.
    pub thread_id: String,
    /// Only the items of this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub turn_id: Option<String>,
    /// A cursor from a previous page (or a resume's `itemsBackwardsCursor`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cursor: Option<String>,
    /// Page size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub limit: Option<u32>,
    /// Which way; oldest first when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub sort_direction: Option<SortDirection>,
}

/// One item of `thread/items/list`, with its turn and its recorded times (beside the item
/// and, as in a turn, within it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadItemEntry {
    /// The turn holding the item.
    pub turn_id: String,
    /// The item.
    pub item: TimedThreadItem,
    /// When it started, Unix milliseconds, when recorded.
    #[ts(type = "number | null")]
    pub started_at_ms: Option<i64>,
    /// When it completed, Unix milliseconds, when recorded.
    #[ts(type = "number | null")]
    pub completed_at_ms: Option<i64>,
}

/// Response of `thread/items/list`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadItemsListResponse {
    /// The items of the page, in the page's direction.
    pub data: Vec<ThreadItemEntry>,
    /// Continues after the page's last item; null after the last page.
    pub next_cursor: Option<String>,
    /// Turns back from the page's first item, including it; null for an empty page.
    pub backwards_cursor: Option<String>,
}
