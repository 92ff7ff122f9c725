//! Events that change what a thread is (its settings, name and goal) rather than what
//! happens inside a turn. Both history modes persist them: a resume needs the settings in
//! force (a model switch by `thread_settings_applied` decides which model later usage is
//! billed to) and a listing shows the name.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The settings of a thread changed (model, effort, permissions, ...).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ThreadSettingsAppliedEvent {
    /// The thread whose settings changed; absent in older writers. Kept as written (real files
    /// carry redacted placeholders here).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_id: Option<String>,
    /// The settings now in force.
    pub thread_settings: ThreadSettings,
}

/// The settings a `thread_settings_applied` event carries. Every key is optional: writers
/// send what they have, and policies whose shapes change between versions stay JSON.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ThreadSettings {
    /// Model slug in force from now on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model: Option<String>,
    /// Provider of that model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub model_provider_id: Option<String>,
    /// Service tier (`default`, `flex`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub service_tier: Option<String>,
    /// Approval policy, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub approval_policy: Option<Value>,
    /// Who reviews approvals.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approvals_reviewer: Option<String>,
    /// Permission profile, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub permission_profile: Option<Value>,
    /// The named profile that is active, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub active_permission_profile: Option<Value>,
    /// Working directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "string")]
    pub cwd: Option<PathBuf>,
    /// Extra workspace roots.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "Array<string>")]
    pub runtime_workspace_roots: Option<Vec<PathBuf>>,
    /// Reasoning effort (`low`, `medium`, `high`, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reasoning_effort: Option<String>,
    /// Reasoning summary setting.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reasoning_summary: Option<String>,
    /// Personality preset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub personality: Option<String>,
    /// Collaboration mode with its settings, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub collaboration_mode: Option<Value>,
    /// Plugins switched off.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub disabled_plugin_ids: Option<Vec<String>>,
}

/// The thread was given a name (shown by listings instead of the first message).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ThreadNameUpdatedEvent {
    /// The renamed thread, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_id: Option<String>,
    /// The new name; `null` clears it.
    #[serde(default)]
    pub thread_name: Option<String>,
}

/// The thread's goal changed. Upstream writes this payload in camelCase.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
pub struct ThreadGoalUpdatedEvent {
    /// The thread, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_id: Option<String>,
    /// The turn that changed the goal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// The goal (objective, status, budget used), as written.
    #[ts(type = "unknown")]
    pub goal: Value,
}
