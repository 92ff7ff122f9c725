//! Errors and warnings reported to the client.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// An error that ended (or was reported in) a turn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ErrorEvent {
    pub message: String,
    /// A machine-readable classification; written as `null` when unknown.
    #[serde(default)]
    pub codex_error_info: Option<CodexErrorInfo>,
}

/// A non-fatal problem worth showing.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WarningEvent {
    pub message: String,
}

/// The response stream broke and is being retried.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct StreamErrorEvent {
    pub message: String,
    #[serde(default)]
    pub codex_error_info: Option<CodexErrorInfo>,
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
    ContextWindowExceeded,
    SessionBudgetExceeded,
    UsageLimitExceeded,
    RateLimitExceeded,
    FlexUnavailable,
    ServerOverloaded,
    CyberPolicy,
    BioPolicy,
    MisalignmentPolicyViolation,
    TooManyDenials,
    HttpConnectionFailed {
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    ResponseStreamConnectionFailed {
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    InternalServerError,
    Unauthorized,
    BadRequest,
    InvalidPrompt,
    SandboxError,
    ResponseStreamDisconnected {
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    ResponseTooManyFailedAttempts {
        #[serde(default)]
        http_status_code: Option<u16>,
    },
    /// The client tried to steer a turn that cannot take input now.
    ActiveTurnNotSteerable {
        turn_kind: NonSteerableTurnKind,
    },
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
    Review,
    Compact,
}
