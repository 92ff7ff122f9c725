//! Approval requests the server sends to a client, and the decisions a client answers with.
//!
//! An approval is a request, not a notification: the agent is blocked until the client
//! answers (or the turn ends), and the server follows up with `serverRequest/resolved` so every
//! connected client can close its prompt.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::item_parts::CommandAction;

/// Params of `item/commandExecution/requestApproval`: may the agent run this command?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct CommandExecutionRequestApprovalParams {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `commandExecution` item this approval is for (the tool call id).
    pub item_id: String,
    /// When the request was made, Unix milliseconds.
    #[ts(type = "number")]
    pub started_at_ms: i64,
    /// Distinguishes several approvals for one item (e.g. one per network host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub approval_id: Option<String>,
    /// Why the agent wants to run it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub reason: Option<String>,
    /// The command as one shell-quoted string.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub command: Option<String>,
    /// Where it would run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cwd: Option<String>,
    /// What it does, for compact rendering.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub command_actions: Option<Vec<CommandAction>>,
    /// A rule the person may accept so similar commands run without asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub proposed_execpolicy_amendment: Option<Vec<String>>,
    /// Network rules the person may accept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub proposed_network_policy_amendments: Option<Vec<NetworkPolicyAmendment>>,
}

/// Answer to `item/commandExecution/requestApproval`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct CommandExecutionRequestApprovalResponse {
    /// What the person decided.
    pub decision: CommandExecutionApprovalDecision,
}

/// What a person decided about a command. Unit choices are plain strings; choices with data
/// are single-key objects whose inner keys stay snake_case, as upstream clients send them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CommandExecutionApprovalDecision {
    /// Run it this once.
    Accept,
    /// Run it, and similar commands for the rest of the session.
    AcceptForSession,
    /// Run it and remember a rule that allows it from now on.
    AcceptWithExecpolicyAmendment {
        /// The rule (a command prefix).
        execpolicy_amendment: Vec<String>,
    },
    /// Apply a network rule (allow or deny a host) and go on.
    ApplyNetworkPolicyAmendment {
        /// The rule.
        network_policy_amendment: NetworkPolicyAmendment,
    },
    /// Do not run it; the agent continues without it.
    Decline,
    /// Do not run it and interrupt the turn.
    Cancel,
}

/// A network rule for one host.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(export_to = "v2/")]
pub struct NetworkPolicyAmendment {
    /// The host.
    pub host: String,
    /// Allow or deny.
    pub action: NetworkPolicyRuleAction,
}

/// Whether a network rule allows or denies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum NetworkPolicyRuleAction {
    /// Allow the host.
    Allow,
    /// Deny the host.
    Deny,
}

/// Params of `item/fileChange/requestApproval`: may the agent apply this patch?
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct FileChangeRequestApprovalParams {
    /// The thread.
    pub thread_id: String,
    /// The turn.
    pub turn_id: String,
    /// The `fileChange` item this approval is for (the tool call id).
    pub item_id: String,
    /// When the request was made, Unix milliseconds.
    #[ts(type = "number")]
    pub started_at_ms: i64,
    /// Why the agent wants to apply it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub reason: Option<String>,
    /// A directory the agent asks to be allowed to write from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub grant_root: Option<String>,
}

/// Answer to `item/fileChange/requestApproval`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct FileChangeRequestApprovalResponse {
    /// What the person decided.
    pub decision: FileChangeApprovalDecision,
}

/// What a person decided about a patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum FileChangeApprovalDecision {
    /// Apply it.
    Accept,
    /// Apply it, and similar patches for the rest of the session.
    AcceptForSession,
    /// Do not apply it; the agent continues.
    Decline,
    /// Do not apply it and interrupt the turn.
    Cancel,
}
