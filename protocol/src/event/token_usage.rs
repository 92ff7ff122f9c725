//! Token accounting and rate limits (`token_count` events).
//!
//! Rate-limit snapshots changed shape several times; every shape found in real files reads
//! into [`RateLimitSnapshot`] (newer fields default to `null`, the oldest flat fields are kept
//! when present), and percentages keep the number exactly as written.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// Token usage and rate limits after a model response. Either part may be `null`.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct TokenCountEvent {
    /// The token counts; `null` when the writer had none.
    pub info: Option<TokenUsageInfo>,
    /// The rate-limit state; `null` when the provider reported none.
    pub rate_limits: Option<RateLimitSnapshot>,
}

/// Token counts of one response (or a running total). Integers: they fit a JS number.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct TokenUsage {
    /// Prompt tokens, cached ones included.
    #[ts(type = "number")]
    pub input_tokens: i64,
    /// Prompt tokens served from the prompt cache (a subset of `input_tokens`).
    #[ts(type = "number")]
    pub cached_input_tokens: i64,
    /// Input tokens written to the prompt cache; absent (0) in older files.
    #[serde(default)]
    #[ts(type = "number")]
    pub cache_write_input_tokens: i64,
    /// Generated tokens, reasoning ones included.
    #[ts(type = "number")]
    pub output_tokens: i64,
    /// Reasoning tokens (a subset of `output_tokens`).
    #[ts(type = "number")]
    pub reasoning_output_tokens: i64,
    /// All tokens of the response(s), as the provider counted them.
    #[ts(type = "number")]
    pub total_tokens: i64,
}

impl TokenUsage {
    /// Input tokens not served from the cache.
    pub fn non_cached_input(&self) -> i64 {
        self.input_tokens.saturating_sub(self.cached_input_tokens)
    }

    /// Whether nothing was counted.
    pub fn is_zero(&self) -> bool {
        self.total_tokens == 0
    }

    /// Adds another response's counts to this total.
    pub fn add_assign(&mut self, other: &TokenUsage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.cached_input_tokens = self
            .cached_input_tokens
            .saturating_add(other.cached_input_tokens);
        self.cache_write_input_tokens = self
            .cache_write_input_tokens
            .saturating_add(other.cache_write_input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.reasoning_output_tokens = self
            .reasoning_output_tokens
            .saturating_add(other.reasoning_output_tokens);
        self.total_tokens = self.total_tokens.saturating_add(other.total_tokens);
    }
}

/// The thread's running total, the last response's usage, and the model's window size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct TokenUsageInfo {
    /// Cumulative usage of the thread so far.
    pub total_token_usage: TokenUsage,
    /// Usage of the last response alone.
    pub last_token_usage: TokenUsage,
    /// The model's context window, in tokens; `null` when unknown.
    #[ts(type = "number | null")]
    pub model_context_window: Option<i64>,
}

impl TokenUsageInfo {
    /// Folds one more response's usage into the info: the total grows, `last` is replaced.
    pub fn append_last_usage(&mut self, last: &TokenUsage) {
        self.total_token_usage.add_assign(last);
        self.last_token_usage = *last;
    }
}

/// The account's rate-limit state as the provider reported it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct RateLimitSnapshot {
    /// Which limit this snapshot is about; `null` when absent.
    #[serde(default)]
    pub limit_id: Option<String>,
    /// The limit's display name; `null` when absent.
    #[serde(default)]
    pub limit_name: Option<String>,
    /// Model slug, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub normal_model_slug: Option<String>,
    /// The short window (e.g. 5 hours).
    #[serde(default)]
    pub primary: Option<RateLimitWindow>,
    /// The long window (e.g. a week).
    #[serde(default)]
    pub secondary: Option<RateLimitWindow>,
    /// The account's credits; `null` when absent.
    #[serde(default)]
    pub credits: Option<CreditsSnapshot>,
    /// The per-person limit (opaque JSON); `null` when absent.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub individual_limit: Option<serde_json::Value>,
    /// Spend-control state (opaque JSON); `null` when absent.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub spend_control_reached: Option<serde_json::Value>,
    /// The account's plan (`plus`, `pro`, ...); `null` when absent.
    #[serde(default)]
    pub plan_type: Option<String>,
    /// Which limit was reached, as written; `null` when none.
    #[serde(default)]
    pub rate_limit_reached_type: Option<String>,
    /// Oldest shape (flat fields); kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub primary_used_percent: Option<serde_json::Number>,
    /// Oldest shape (flat fields); kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub secondary_used_percent: Option<serde_json::Number>,
    /// Oldest shape (flat fields); kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub primary_to_secondary_ratio_percent: Option<serde_json::Number>,
    /// Oldest shape (flat fields); kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub primary_window_minutes: Option<i64>,
    /// Oldest shape (flat fields); kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub secondary_window_minutes: Option<i64>,
}

/// Usage of one rate-limit window.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct RateLimitWindow {
    /// Percent used, exactly as written (`52` stays `52`, `52.5` stays `52.5`).
    #[ts(type = "number")]
    pub used_percent: serde_json::Number,
    /// Length of the window, in minutes; `null` when unknown.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub window_minutes: Option<i64>,
    /// Unix seconds when the window resets.
    #[serde(default)]
    #[ts(type = "number | null")]
    pub resets_at: Option<i64>,
    /// Older shape: seconds until reset; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub resets_in_seconds: Option<i64>,
}

impl RateLimitWindow {
    /// The used percentage as a float (0 when the number is not representable).
    pub fn used_percent(&self) -> f64 {
        self.used_percent.as_f64().unwrap_or_default()
    }
}

/// Credit balance of the account.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct CreditsSnapshot {
    /// Whether the account has credits.
    pub has_credits: bool,
    /// Whether the account's credits are unlimited.
    pub unlimited: bool,
    /// A decimal string (the provider's spelling), or `null`.
    #[serde(default)]
    pub balance: Option<String>,
}
