//! The per-turn settings snapshot (`turn_context` line).
//!
//! Codex writes one before each real user turn (and again after a mid-turn compaction). Resume
//! reads the last one as the baseline against which the next turn's context is diffed, and to
//! restore the previous model and effort. Policies whose shapes changed across versions
//! (approval, sandbox, permission profile, collaboration mode) are kept as JSON: every version's
//! spelling is read, and what was written is what comes back.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Settings in force for one turn, as persisted in the rollout.
///
/// Field order follows the files real Codex versions wrote (classic order, newer keys slotted
/// where upstream declares them), so those lines re-serialize to the same bytes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TurnContextItem {
    /// The turn these settings belong to (absent in files before turn ids existed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// Root turn of a sub-agent turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub root_turn_id: Option<String>,
    /// Tracing id of the turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub trace_id: Option<String>,
    /// Plugins switched off for this turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub disabled_plugin_ids: Option<Vec<String>>,
    /// Working directory of the turn.
    #[serde(default)]
    #[ts(type = "string")]
    pub cwd: PathBuf,
    /// Workspace roots of the turn (newer versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Array<string>")]
    pub workspace_roots: Option<Vec<PathBuf>>,
    /// Date the environment context reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub current_date: Option<String>,
    /// Time zone the environment context reported.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub timezone: Option<String>,
    /// Approval policy (`"never"`, `"on-request"`, `{"granular": ...}`), as written.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub approval_policy: Value,
    /// Who reviews approvals (`user`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approvals_reviewer: Option<String>,
    /// Sandbox policy (classic `{"mode": ...}` or newer `{"type": ...}`), as written.
    #[serde(default)]
    #[ts(type = "unknown")]
    pub sandbox_policy: Value,
    /// Permission profile of newer versions.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub permission_profile: Option<Value>,
    /// The named permission profile that is active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub active_permission_profile: Option<Value>,
    /// (classic) network allow/deny lists.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub network: Option<Value>,
    /// Raw file-system sandbox policy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub file_system_sandbox_policy: Option<Value>,
    /// Model slug used for the turn.
    #[serde(default)]
    pub model: String,
    /// Hash of the compiled context (newer versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub comp_hash: Option<String>,
    /// Personality preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub personality: Option<String>,
    /// Collaboration mode with its settings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub collaboration_mode: Option<Value>,
    /// Multi-agent mode with its settings (newer versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub multi_agent_mode: Option<Value>,
    /// Multi-agent protocol version (string or number depending on the writer).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub multi_agent_version: Option<Value>,
    /// Whether a realtime conversation was active.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub realtime_active: Option<bool>,
    /// Cyber access program settings (newer versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub cyber_access_program: Option<Value>,
    /// Reasoning effort (`low`, `medium`, `high`, ...), as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub effort: Option<String>,
    /// Reasoning summary setting; required in classic files, a placeholder in newer ones.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub summary: Option<String>,
    /// (classic) user instructions in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user_instructions: Option<String>,
    /// (classic) developer instructions in force.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub developer_instructions: Option<String>,
    /// (classic) JSON schema the final answer had to follow.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub final_output_json_schema: Option<Value>,
    /// (classic) tool-output truncation policy (`{"mode": "tokens", "limit": N}`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub truncation_policy: Option<Value>,
}

impl TurnContextItem {
    /// The minimal turn context upstream accepts: cwd, approval, sandbox and model.
    pub fn new(
        cwd: impl Into<PathBuf>,
        approval_policy: Value,
        sandbox_policy: Value,
        model: impl Into<String>,
    ) -> Self {
        TurnContextItem {
            turn_id: None,
            root_turn_id: None,
            trace_id: None,
            disabled_plugin_ids: None,
            cwd: cwd.into(),
            workspace_roots: None,
            current_date: None,
            timezone: None,
            approval_policy,
            approvals_reviewer: None,
            sandbox_policy,
            permission_profile: None,
            active_permission_profile: None,
            network: None,
            file_system_sandbox_policy: None,
            model: model.into(),
            comp_hash: None,
            personality: None,
            collaboration_mode: None,
            multi_agent_mode: None,
            multi_agent_version: None,
            realtime_active: None,
            cyber_access_program: None,
            effort: None,
            summary: None,
            user_instructions: None,
            developer_instructions: None,
            final_output_json_schema: None,
            truncation_policy: None,
        }
    }
}
