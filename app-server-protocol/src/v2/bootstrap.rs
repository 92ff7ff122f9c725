//! What a client asks a server before it shows a thread: the account (`account/read`), the
//! models (`model/list`), managed requirements (`configRequirements/read`), the effective
//! configuration (`config/read`) and skills (`skills/list`). Only the fields a server of
//! saved sessions answers are typed; the rest of Codex's answers (plans, rate limits, config
//! layers, skill metadata) is left to Codex's own schema.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Params of `account/read`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct GetAccountParams {
    /// Refresh the sign-in token first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub refresh_token: Option<bool>,
}

/// Response of `account/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct GetAccountResponse {
    /// The signed-in account (Codex's `Account`); null when none is.
    #[ts(type = "unknown")]
    pub account: Option<serde_json::Value>,
    /// Whether the server needs an OpenAI sign-in to run turns.
    pub requires_openai_auth: bool,
}

/// Params of `model/list`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ModelListParams {
    /// A cursor from a previous page.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cursor: Option<String>,
    /// Page size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub limit: Option<u32>,
    /// Include models hidden from the picker.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub include_hidden: Option<bool>,
}

/// A reasoning effort a model supports.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ReasoningEffortOption {
    /// The effort (`low`, `medium`, ...).
    pub reasoning_effort: String,
    /// What it does.
    pub description: String,
}

/// A model a client may pick.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct Model {
    /// The catalog id.
    pub id: String,
    /// The model's name on the wire.
    pub model: String,
    /// How the picker names it.
    pub display_name: String,
    /// One line about it.
    pub description: String,
    /// Left out of the picker.
    pub hidden: bool,
    /// The one a new thread gets.
    pub is_default: bool,
    /// The efforts it takes.
    pub supported_reasoning_efforts: Vec<ReasoningEffortOption>,
    /// The effort it gets when none is chosen.
    pub default_reasoning_effort: String,
}

/// Response of `model/list`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ModelListResponse {
    /// The models of the page.
    pub data: Vec<Model>,
    /// Continues after the page; null after the last.
    pub next_cursor: Option<String>,
}

/// Response of `configRequirements/read`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ConfigRequirementsReadResponse {
    /// Managed requirements (Codex's `ConfigRequirements`); null when none are configured.
    #[ts(type = "unknown")]
    pub requirements: Option<serde_json::Value>,
}

/// Params of `config/read`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ConfigReadParams {
    /// Include each configuration layer.
    #[serde(default)]
    pub include_layers: bool,
    /// The directory whose project layers apply.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional = nullable)]
    pub cwd: Option<String>,
}

/// Response of `config/read`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct ConfigReadResponse {
    /// The effective configuration, as `config.toml` spells its keys.
    pub config: serde_json::Map<String, serde_json::Value>,
    /// Which layer each key came from (Codex's `ConfigLayerMetadata`, by dotted key).
    pub origins: serde_json::Map<String, serde_json::Value>,
}

/// Params of `skills/list`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct SkillsListParams {
    /// The directories to list skills for; the session's when empty.
    #[serde(default)]
    pub cwds: Vec<String>,
    /// Scan the disk again.
    #[serde(default)]
    pub force_reload: bool,
}

/// Response of `skills/list`: per directory, its skills (Codex's `SkillsListEntry`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct SkillsListResponse {
    /// One entry per directory.
    #[ts(type = "Array<unknown>")]
    pub data: Vec<serde_json::Value>,
}
