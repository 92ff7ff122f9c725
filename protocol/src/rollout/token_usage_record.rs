//! The `token_usage_record` line (newer Codex): the usage of exactly one model response.
//!
//! Codex writes one after every response, next to the `token_count` event. Unlike
//! `token_count`, whose `total_token_usage` is a running total that a forked child copies from
//! its parent, a record names the response it counts (`response_id`) and the turn it belongs
//! to, so usage reports count each response once by summing `usage`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::event::TokenUsage;

/// The payload of a `token_usage_record` line.
///
/// Ids are kept as strings: real files carry redacted placeholders where a UUID is expected,
/// and a usage record must still count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TokenUsageRecord {
    /// The thread the response belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_id: Option<String>,
    /// The turn the response belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// The session (root thread) the response belongs to.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub session_id: Option<String>,
    /// The root turn (differs from `turn_id` inside a sub-agent).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub root_turn_id: Option<String>,
    /// The provider's id of the response counted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub response_id: Option<String>,
    /// What this one response used.
    pub usage: TokenUsage,
    /// The turn's total after this response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_token_usage: Option<TokenUsage>,
    /// The thread's total after this response.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_token_usage: Option<TokenUsage>,
}
