//! Payloads of the notifications the server sends about threads, turns and items.
//!
//! Each struct is the `params` of one method of [`crate::ServerNotification`]; the method name
//! is given in each doc comment. Fields are camelCase.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::thread::{Thread, ThreadStatus};
use super::turn::{TimedThreadItem, Turn, TurnError};
use crate::jsonrpc::RequestId;

/// `error`: something went wrong. With `willRetry` the turn goes on (a transient stream
/// error); without it the turn will end as failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ErrorNotification {
    /// What went wrong.
    pub error: TurnError,
    /// True when the server retries on its own and the turn continues.
    pub will_retry: bool,
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
}

/// `thread/started`: a thread was created or loaded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadStartedNotification {
    /// The thread (turns empty).
    // Boxed: a thread is several times larger than any other notification payload.
    pub thread: Box<Thread>,
}

/// `thread/status/changed`: a thread became idle, active, or waits on the person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadStatusChangedNotification {
    /// The thread.
    pub thread_id: String,
    /// Its new status.
    pub status: ThreadStatus,
}

/// `thread/name/updated`: the thread was (re)named.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadNameUpdatedNotification {
    /// The thread.
    pub thread_id: String,
    /// The new name; absent when the name was cleared.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_name: Option<String>,
}

/// `thread/tokenUsage/updated`: token counts after a model response.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadTokenUsageUpdatedNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn the usage was measured in.
    pub turn_id: String,
    /// The counts.
    pub token_usage: ThreadTokenUsage,
}

/// Token usage of a thread: running total, last response, and the window it must fit in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ThreadTokenUsage {
    /// Sum over the thread.
    pub total: TokenUsageBreakdown,
    /// The last model response alone.
    pub last: TokenUsageBreakdown,
    /// The model's context window, when known.
    #[ts(type = "number | null")]
    pub model_context_window: Option<i64>,
}

/// Token counts by kind.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TokenUsageBreakdown {
    /// Everything.
    #[ts(type = "number")]
    pub total_tokens: i64,
    /// Prompt tokens.
    #[ts(type = "number")]
    pub input_tokens: i64,
    /// Prompt tokens served from cache.
    #[ts(type = "number")]
    pub cached_input_tokens: i64,
    /// Completion tokens.
    #[ts(type = "number")]
    pub output_tokens: i64,
    /// Completion tokens spent reasoning.
    #[ts(type = "number")]
    pub reasoning_output_tokens: i64,
}

/// `turn/started`: a turn began. Its items are not loaded; they follow as item notifications.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnStartedNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn, `inProgress`, items `notLoaded`.
    pub turn: Turn,
}

/// `turn/completed`: a turn ended, completed, interrupted or failed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnCompletedNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn with its final status and timing; items `notLoaded`.
    pub turn: Turn,
}

/// `turn/diff/updated`: the combined diff of the turn's file changes so far.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TurnDiffUpdatedNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// Unified diff.
    pub diff: String,
}

/// `item/started`: an item began; render it as active.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ItemStartedNotification {
    /// The item as far as it is known, with its start time beside its fields (and a null
    /// completion time), as Codex's server sends it.
    pub item: TimedThreadItem,
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// When it started, Unix milliseconds.
    #[ts(type = "number")]
    pub started_at_ms: i64,
}

/// `item/completed`: an item finished; this item replaces whatever deltas built.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ItemCompletedNotification {
    /// The final item, with its start (when known) and completion times beside its fields,
    /// as Codex's server sends it.
    pub item: TimedThreadItem,
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// When it completed, Unix milliseconds.
    #[ts(type = "number")]
    pub completed_at_ms: i64,
    /// The model's own count of an agent message's content tokens, which only a live model
    /// response carries: `null` when unknown (always, for items read from a file).
    #[serde(default)]
    #[ts(type = "number | null")]
    pub content_token_count: Option<u64>,
}

/// `item/agentMessage/delta`: more text of a streaming agent message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct AgentMessageDeltaNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `agentMessage` item.
    pub item_id: String,
    /// Text to append.
    pub delta: String,
}

/// `item/plan/delta`: more text of a streaming plan.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct PlanDeltaNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `plan` item.
    pub item_id: String,
    /// Text to append.
    pub delta: String,
}

/// `item/commandExecution/outputDelta`: more output of a running command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct CommandExecutionOutputDeltaNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `commandExecution` item.
    pub item_id: String,
    /// Output to append (decoded as UTF-8).
    pub delta: String,
}

/// `item/commandExecution/terminalInteraction`: input written into a running command.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct TerminalInteractionNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `commandExecution` item.
    pub item_id: String,
    /// The interactive session.
    pub process_id: String,
    /// What was written.
    pub stdin: String,
}

/// `item/reasoning/summaryTextDelta`: more text of one reasoning summary paragraph.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ReasoningSummaryTextDeltaNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `reasoning` item.
    pub item_id: String,
    /// Text to append.
    pub delta: String,
    /// Which summary paragraph.
    #[ts(type = "number")]
    pub summary_index: i64,
}

/// `item/reasoning/summaryPartAdded`: a new reasoning summary paragraph begins.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ReasoningSummaryPartAddedNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `reasoning` item.
    pub item_id: String,
    /// Index of the new paragraph.
    #[ts(type = "number")]
    pub summary_index: i64,
}

/// `item/reasoning/textDelta`: more raw reasoning text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ReasoningTextDeltaNotification {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `reasoning` item.
    pub item_id: String,
    /// Text to append.
    pub delta: String,
    /// Which raw content paragraph.
    #[ts(type = "number")]
    pub content_index: i64,
}

/// `serverRequest/resolved`: a request the server sent (an approval) is settled, answered or
/// cancelled; a client closes its prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ServerRequestResolvedNotification {
    /// The thread.
    pub thread_id: String,
    /// The request that is settled.
    pub request_id: RequestId,
}

/// `warning`: something worth showing that does not stop anything.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct WarningNotification {
    /// The thread, when the warning is about one.
    pub thread_id: Option<String>,
    /// The warning.
    pub message: String,
}

/// `deprecationNotice`: a feature in use is going away.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct DeprecationNoticeNotification {
    /// One line.
    pub summary: String,
    /// More, when there is more.
    pub details: Option<String>,
}
