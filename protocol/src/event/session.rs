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
    /// The session's id; equal to `thread_id` for a root thread.
    pub session_id: ThreadId,
    /// The thread's id; equal to `session_id` for a root thread. Older writers omitted it,
    /// see [`SessionConfiguredEvent::effective_thread_id`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_id: Option<ThreadId>,
    /// The thread this one was forked from, for a fork.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub forked_from_id: Option<ThreadId>,
    /// The thread that spawned this one, for a sub-agent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub parent_thread_id: Option<ThreadId>,
    /// Where the thread came from, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_source: Option<String>,
    /// The thread's name, once it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub thread_name: Option<String>,
    /// The model the session uses.
    pub model: String,
    /// The model provider's id; empty when absent.
    #[serde(default)]
    pub model_provider_id: String,
    /// The service tier, when one was chosen.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub service_tier: Option<String>,
    /// When the agent asks before acting (opaque JSON; `null` when absent).
    #[ts(type = "unknown")]
    #[serde(default)]
    pub approval_policy: serde_json::Value,
    /// Who reviews approval requests, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub approvals_reviewer: Option<String>,
    /// The permissions the session runs with (opaque JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub permission_profile: Option<serde_json::Value>,
    /// The legacy spelling of the permissions, accepted from older writers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub sandbox_policy: Option<serde_json::Value>,
    /// The permission profile in effect, when named (opaque JSON).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub active_permission_profile: Option<serde_json::Value>,
    /// The working directory, as written.
    pub cwd: String,
    /// The reasoning effort (`low`, `medium`, `high`, ...), when set.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reasoning_effort: Option<String>,
    /// The network proxy's addresses (opaque JSON), when one runs.
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
