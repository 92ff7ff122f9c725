//! [`Turn`]: one exchange (a person's input and everything the agent did for it) as a client
//! sees it, with its status and timing.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::item::ThreadItem;

/// Where a turn is in its lifecycle. A client derives its spinner and its final separator from
/// this, never from the items.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum TurnStatus {
    /// Finished normally.
    Completed,
    /// Stopped by the person (or replaced by a new turn) before it finished.
    Interrupted,
    /// Ended by an error; `error` says which.
    Failed,
    /// Still running.
    InProgress,
}

/// How much of `items` a payload carries. `turn/started` sends a turn whose items are not
/// loaded (they arrive as item notifications); history rebuilt for a resume is `full`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum TurnItemsView {
    /// `items` was not loaded; it is intentionally empty.
    NotLoaded,
    /// `items` is a display summary, not every item.
    Summary,
    /// `items` is every item available from persisted history.
    #[default]
    Full,
}

/// One turn of a thread.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct Turn {
    /// Turn id (the core's turn id; minted for old files that did not record one).
    pub id: String,
    /// The first turn of the chain of work that led to this one; null in older history.
    pub root_turn_id: Option<String>,
    /// The turns's items in order, each with its recorded times; see `itemsView` for whether
    /// they are all here.
    pub items: Vec<TimedThreadItem>,
    /// How complete `items` is.
    #[serde(default)]
    pub items_view: TurnItemsView,
    /// Lifecycle status.
    pub status: TurnStatus,
    /// Why the turn failed; only set when `status` is `failed`.
    pub error: Option<TurnError>,
    /// When the turn started, Unix seconds.
    #[ts(type = "number | null")]
    pub started_at: Option<i64>,
    /// When the turn ended, Unix seconds.
    #[ts(type = "number | null")]
    pub completed_at: Option<i64>,
    /// How long the turn ran.
    #[ts(type = "number | null")]
    pub duration_ms: Option<i64>,
}

impl Turn {
    /// A running turn with no items yet, as `turn/started` announces it.
    pub fn in_progress(id: impl Into<String>, started_at: Option<i64>) -> Self {
        Self {
            id: id.into(),
            root_turn_id: None,
            items: Vec::new(),
            items_view: TurnItemsView::NotLoaded,
            status: TurnStatus::InProgress,
            error: None,
            started_at,
            completed_at: None,
            duration_ms: None,
        }
    }

    /// The turn as a page of turns shows it in `view`: without items (`notLoaded`), with its
    /// display summary (`summary`: the person's first message and the agent's last one, as
    /// Codex 0.169 summarizes a turn), or whole (`full`).
    pub fn in_items_view(mut self, view: TurnItemsView) -> Self {
        match view {
            TurnItemsView::NotLoaded => self.items.clear(),
            TurnItemsView::Summary => {
                let first_user = self
                    .items
                    .iter()
                    .position(|timed| matches!(timed.item, ThreadItem::UserMessage { .. }));
                let last_agent = self
                    .items
                    .iter()
                    .rposition(|timed| matches!(timed.item, ThreadItem::AgentMessage { .. }));
                let mut index = 0;
                self.items.retain(|_| {
                    let kept = Some(index) == first_user || Some(index) == last_agent;
                    index += 1;
                    kept
                });
            }
            TurnItemsView::Full => {}
        }
        self.items_view = view;
        self
    }

    /// The item with `item_id`, if the turn has it.
    pub fn item(&self, item_id: &str) -> Option<&ThreadItem> {
        self.items
            .iter()
            .map(|timed| &timed.item)
            .find(|item| item.id() == item_id)
    }

    /// Mutable access to the item with `item_id`, if the turn has it.
    pub fn item_mut(&mut self, item_id: &str) -> Option<&mut ThreadItem> {
        self.items
            .iter_mut()
            .map(|timed| &mut timed.item)
            .find(|item| item.id() == item_id)
    }
}

/// A [`ThreadItem`] with the times its lifecycle recorded. On the wire the item's own fields
/// and the two times stand side by side in one object, as Codex sends them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TimedThreadItem {
    /// The item.
    #[serde(flatten)]
    #[ts(flatten)]
    pub item: ThreadItem,
    /// When the item started, Unix milliseconds; null when its record does not say.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub started_at_ms: Option<i64>,
    /// When the item completed, Unix milliseconds; null when its record does not say.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub completed_at_ms: Option<i64>,
}

impl TimedThreadItem {
    /// An item with the times its completion record gives.
    pub fn new(item: ThreadItem, started_at_ms: Option<i64>, completed_at_ms: Option<i64>) -> Self {
        Self {
            item,
            started_at_ms,
            completed_at_ms,
        }
    }
}

impl From<ThreadItem> for TimedThreadItem {
    /// An item whose record carries no times (every record before `item_completed` did).
    fn from(item: ThreadItem) -> Self {
        Self::new(item, None, None)
    }
}

impl std::ops::Deref for TimedThreadItem {
    type Target = ThreadItem;

    fn deref(&self) -> &ThreadItem {
        &self.item
    }
}

impl std::ops::DerefMut for TimedThreadItem {
    fn deref_mut(&mut self) -> &mut ThreadItem {
        &mut self.item
    }
}

/// Why a turn failed (or, in an `error` notification, what went wrong).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnError {
    /// Human-readable explanation.
    pub message: String,
    /// Machine-readable classification, when known.
    pub codex_error_info: Option<CodexErrorInfo>,
    /// Extra detail a client may show on demand.
    #[serde(default)]
    pub additional_details: Option<String>,
    /// Why a misalignment block stopped the turn and how to go on; null otherwise.
    #[serde(default)]
    pub misalignment: Option<serde_json::Value>,
}

/// Machine-readable class of an error, so a client can offer the right remedy (log in again,
/// wait for the rate limit, start a new thread...).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CodexErrorInfo {
    /// The conversation no longer fits the model's context window.
    ContextWindowExceeded,
    /// The account's usage limit is reached.
    UsageLimitExceeded,
    /// The provider is overloaded.
    ServerOverloaded,
    /// The request could not reach the provider.
    #[serde(rename_all = "camelCase")]
    HttpConnectionFailed {
        /// HTTP status, when there was one.
        http_status_code: Option<u16>,
    },
    /// The response stream could not be opened.
    #[serde(rename_all = "camelCase")]
    ResponseStreamConnectionFailed {
        /// HTTP status, when there was one.
        http_status_code: Option<u16>,
    },
    /// The provider failed internally.
    InternalServerError,
    /// Authentication failed.
    Unauthorized,
    /// The provider rejected the request.
    BadRequest,
    /// The sandbox failed.
    SandboxError,
    /// The response stream broke mid-way.
    #[serde(rename_all = "camelCase")]
    ResponseStreamDisconnected {
        /// HTTP status, when there was one.
        http_status_code: Option<u16>,
    },
    /// Retries were exhausted.
    #[serde(rename_all = "camelCase")]
    ResponseTooManyFailedAttempts {
        /// HTTP status of the last attempt, when there was one.
        http_status_code: Option<u16>,
    },
    /// Anything else.
    Other,
}
