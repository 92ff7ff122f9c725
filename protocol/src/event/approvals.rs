//! Approval requests: the agent asks the person before running a command or applying a patch.
//!
//! These are requests, not notifications: a client must answer them. They are never persisted
//! (an unanswered request is meaningless after a restart).

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::items::FileChange;
use crate::items::ParsedCommand;

/// Asks to run a command outside what the sandbox policy allows.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExecApprovalRequestEvent {
    /// The tool call that wants to run the command.
    pub call_id: String,
    /// Distinguishes several approvals for one call (e.g. per network host).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approval_id: Option<String>,
    /// The turn of the call; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// The command as argv.
    pub command: Vec<String>,
    /// The directory the command would run in.
    #[ts(type = "string")]
    pub cwd: PathBuf,
    /// Why the agent wants it (shown to the person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// Set when the request is about network access to one host.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub network_approval_context: Option<NetworkApprovalContext>,
    /// A command prefix the person may allow from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub proposed_execpolicy_amendment: Option<Vec<String>>,
    /// Network rules (one per host) the person may add instead of answering once.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub proposed_network_policy_amendments: Option<Vec<NetworkPolicyAmendment>>,
    /// Extra permissions the command asks for (opaque here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub additional_permissions: Option<serde_json::Value>,
    /// The answers the client may offer; all of them when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub available_decisions: Option<Vec<ReviewDecision>>,
    /// The command parsed into known actions (read, list, search), for display; empty when absent.
    #[serde(default)]
    pub parsed_cmd: Vec<ParsedCommand>,
}

/// Asks to apply a patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ApplyPatchApprovalRequestEvent {
    /// The tool call that carries the patch.
    pub call_id: String,
    /// The turn of the call; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// The change to each file, keyed by path.
    pub changes: BTreeMap<String, FileChange>,
    /// Why the agent wants it (shown to the person).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reason: Option<String>,
    /// A directory the person may grant write access to for the rest of the session.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string")]
    pub grant_root: Option<PathBuf>,
}

/// The network destination an approval is about.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NetworkApprovalContext {
    /// The host the command wants to reach.
    pub host: String,
    /// The protocol it wants to reach the host with.
    pub protocol: NetworkApprovalProtocol,
}

/// The protocol of a network approval. `https_connect` and `http-connect` (older spellings)
/// read as `https`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum NetworkApprovalProtocol {
    /// `http`.
    Http,
    /// `https`.
    #[serde(alias = "https_connect", alias = "http-connect")]
    Https,
    /// `socks5_tcp`.
    Socks5Tcp,
    /// `socks5_udp`.
    Socks5Udp,
}

/// A rule for one host the person may add to the network policy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct NetworkPolicyAmendment {
    /// The host the rule is about.
    pub host: String,
    /// Whether the rule allows or denies the host.
    pub action: NetworkPolicyRuleAction,
}

/// Whether a network rule allows or denies its host.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum NetworkPolicyRuleAction {
    /// `allow`.
    Allow,
    /// `deny`.
    Deny,
}

/// A person's answer to an approval request. Unit answers are plain strings; answers with
/// data are one-key objects.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum ReviewDecision {
    /// Run it this once.
    Approved,
    /// Run it and allow this command prefix from now on.
    ApprovedExecpolicyAmendment {
        /// The command prefix to allow, as argv.
        proposed_execpolicy_amendment: Vec<String>,
    },
    /// Run it and do not ask again this session.
    ApprovedForSession,
    /// Allow and remember the MCP tool policy change.
    ApprovedMcpPolicyAmendment,
    /// Apply a network rule.
    NetworkPolicyAmendment {
        /// The rule to add.
        network_policy_amendment: NetworkPolicyAmendment,
    },
    /// Do not run it; the model is told `rejection`.
    Denied {
        /// The text the model is told instead of the command's output.
        rejection: String,
    },
    /// Nobody answered in time.
    TimedOut,
    /// Do not run it and stop the turn.
    Abort,
}

impl Default for ReviewDecision {
    fn default() -> Self {
        Self::Denied {
            rejection: "denied".to_string(),
        }
    }
}
