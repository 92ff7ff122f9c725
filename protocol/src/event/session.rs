//! `session_configured`: the first event of a session, describing its effective settings.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::thread_id::ThreadId;

/// The settings a session runs with. Policy objects (approval, permissions, sandbox) are
/// kept as JSON: their shapes belong to the agent's configuration, not to this wire model.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct SessionConfiguredEvent {
    pub session_id: ThreadId,
    /// The thread's id; equal to `session_id` for a root thread. Older writers omitted it,
    /// see [`SessionConfiguredEvent::effective_thread_id`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_id: Option<ThreadId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub forked_from_id: Option<ThreadId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent_thread_id: Option<ThreadId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_name: Option<String>,
    pub model: String,
    #[serde(default)]
    pub model_provider_id: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub service_tier: Option<String>,
    #[ts(type = "unknown")]
    #[serde(default)]
    pub approval_policy: serde_json::Value,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approvals_reviewer: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub permission_profile: Option<serde_json::Value>,
    /// The legacy spelling of the permissions, accepted from older writers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub sandbox_policy: Option<serde_json::Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub active_permission_profile: Option<serde_json::Value>,
    /// The working directory, as written.
    pub cwd: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reasoning_effort: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub network_proxy: Option<serde_json::Value>,
    /// The session file, when the session is recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub rollout_path: Option<String>,
}

impl SessionConfiguredEvent {
    /// The thread id, falling back to the session id as older writers implied.
    pub fn effective_thread_id(&self) -> ThreadId {
        self.thread_id.unwrap_or(self.session_id)
    }
}
