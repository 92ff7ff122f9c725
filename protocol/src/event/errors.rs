//! Errors and warnings reported to the client.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// An error that ended (or was reported in) a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ErrorEvent {
    /// The error text, as shown to the person.
    pub message: String,
    /// A machine-readable classification; written as `null` when unknown.
    #[serde(default)]
    pub codex_error_info: Option<CodexErrorInfo>,
}

/// A non-fatal problem worth showing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WarningEvent {
    /// The warning text, as shown to the person.
    pub message: String,
}

/// The response stream broke and is being retried.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct StreamErrorEvent {
    /// The error text, as shown to the person.
    pub message: String,
    /// A machine-readable classification; `null` when unknown.
    #[serde(default)]
    pub codex_error_info: Option<CodexErrorInfo>,
    /// More detail about the failure; `null` when there is none.
    #[serde(default)]
    pub additional_details: Option<String>,
}

/// What kind of error happened. Unit kinds are plain strings (`"context_window_exceeded"`);
/// kinds with data are one-key objects (`{"http_connection_failed":{"http_status_code":502}}`).
/// A kind this crate does not know reads as [`CodexErrorInfo::Other`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum CodexErrorInfo {
    /// `context_window_exceeded`: the conversation no longer fits the model's context window.
    ContextWindowExceeded,
    /// `session_budget_exceeded`: the session's budget is used up.
    SessionBudgetExceeded,
    /// `usage_limit_exceeded`: the account's usage limit is reached.
    UsageLimitExceeded,
    /// `rate_limit_exceeded`: the provider's rate limit is reached.
    RateLimitExceeded,
    /// `flex_unavailable`: the flex service tier is unavailable.
    FlexUnavailable,
    /// `server_overloaded`: the provider is overloaded.
    ServerOverloaded,
    /// `cyber_policy`: refused under the cyber-security policy.
    CyberPolicy,
    /// `bio_policy`: refused under the biology policy.
    BioPolicy,
    /// `misalignment_policy_violation`: refused under the misalignment policy.
    MisalignmentPolicyViolation,
    /// `too_many_denials`: too many actions were denied.
    TooManyDenials,
    /// `http_connection_failed`: the HTTP connection to the provider failed.
    HttpConnectionFailed {
        /// The HTTP status, when there was one.
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    /// `response_stream_connection_failed`: the response stream could not be opened.
    ResponseStreamConnectionFailed {
        /// The HTTP status, when there was one.
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    /// `internal_server_error`: the provider reported an internal error.
    InternalServerError,
    /// `unauthorized`: the credentials were refused.
    Unauthorized,
    /// `bad_request`: the provider rejected the request.
    BadRequest,
    /// `invalid_prompt`: the provider rejected the prompt.
    InvalidPrompt,
    /// `sandbox_error`: the sandbox failed.
    SandboxError,
    /// `response_stream_disconnected`: the response stream broke off.
    ResponseStreamDisconnected {
        /// The HTTP status, when there was one.
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    /// `response_too_many_failed_attempts`: retries of the response were exhausted.
    ResponseTooManyFailedAttempts {
        /// The HTTP status, when there was one.
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    /// The client tried to steer a turn that cannot take input now.
    ActiveTurnNotSteerable {
        /// Why the turn refused input.
        turn_kind: NonSteerableTurnKind,
    },
    /// `thread_rollback_failed`: dropping the last turns failed.
    ThreadRollbackFailed,
    /// `other`, or any unit kind this crate does not know.
    #[serde(other)]
    Other,
}

impl CodexErrorInfo {
    /// Whether the error makes the turn count as failed. Rejected steering and failed
    /// rollbacks are reported but leave the turn's status alone.
    pub fn affects_turn_status(&self) -> bool {
        !matches!(
            self,
            Self::ThreadRollbackFailed | Self::ActiveTurnNotSteerable { .. }
        )
    }
}

/// The kind of turn that refused steering input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum NonSteerableTurnKind {
    /// `review`: a code review turn.
    Review,
    /// `compact`: a history compaction turn.
    Compact,
}
