//! Calls to tools that are not shell commands: client-registered (dynamic) tools, MCP tools,
//! and tool outputs shown on their own.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::mcp::CallToolResult;
use crate::models::FunctionCallOutputBody;

/// A tool output shown as an item of its own: an output that answers no call of this turn
/// (a named, standalone `function_call_output`), persisted even in legacy history.
///
/// `output` is the wire body (a string or a list of content parts); it reads with the same
/// tolerant rules as the output of a `function_call_output` response item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct FunctionCallOutputItem {
    /// The item id.
    pub id: String,
    /// The tool that produced the output.
    pub name: String,
    /// The tool's namespace, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub namespace: Option<String>,
    /// The output body: a string or a list of content parts.
    #[serde(deserialize_with = "crate::models::read_output_body")]
    pub output: FunctionCallOutputBody,
}

/// A call to a tool the client registered at runtime; the client runs it and answers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct DynamicToolCallItem {
    /// The item id (the tool call's id).
    pub id: String,
    /// The tool's namespace, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub namespace: Option<String>,
    /// The tool's name.
    pub tool: String,
    /// The arguments the model gave, as JSON.
    #[ts(type = "unknown")]
    pub arguments: serde_json::Value,
    /// Where the call stands.
    pub status: DynamicToolCallStatus,
    /// The client's answer, once it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub content_items: Option<Vec<DynamicToolCallOutputContentItem>>,
    /// Whether the client reported success, once it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub success: Option<bool>,
    /// Why the call failed, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<String>,
    /// How long the call took (`{"secs":…,"nanos":…}`), once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "{ secs: number, nanos: number }")]
    pub duration: Option<Duration>,
}

/// Where a dynamic tool call stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum DynamicToolCallStatus {
    /// `in_progress`: waiting for the client.
    InProgress,
    /// `completed`: the client answered.
    Completed,
    /// `failed`: the call failed.
    Failed,
}

/// One part of a dynamic tool's answer. camelCase tags and fields (`inputText`, `imageUrl`),
/// as the client protocol spells them.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(tag = "type", rename_all = "camelCase")]
pub enum DynamicToolCallOutputContentItem {
    /// `inputText`: a text part.
    InputText {
        /// The text.
        text: String,
    },
    /// `inputImage`: an image part.
    InputImage {
        /// The image's URL (`imageUrl`; may be a data URL).
        #[serde(rename = "imageUrl")]
        #[ts(rename = "imageUrl")]
        image_url: String,
    },
    /// `inputAudio`: an audio part.
    InputAudio {
        /// The audio's URL (`audioUrl`).
        #[serde(rename = "audioUrl")]
        #[ts(rename = "audioUrl")]
        audio_url: String,
    },
}

/// A call to a tool of an MCP server. The only item struct that is camelCase on the wire.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub struct McpToolCallItem {
    /// The item id (the tool call's id).
    pub id: String,
    /// The MCP server's name.
    pub server: String,
    /// The tool's name on that server.
    pub tool: String,
    /// The arguments the model gave, as JSON.
    #[ts(type = "unknown")]
    pub arguments: serde_json::Value,
    /// `connectorId`: connector id of an app-backed tool; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub connector_id: Option<String>,
    /// `mcpAppResourceUri`: URI of the tool's MCP app resource, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mcp_app_resource_uri: Option<String>,
    /// `mcpAppUi`: the tool's MCP app UI, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mcp_app_ui: Option<McpAppUi>,
    /// `linkId`: link id of an app-backed tool; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub link_id: Option<String>,
    /// `appName`: name of the app the tool belongs to, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub app_name: Option<String>,
    /// `actionName`: name of the app action the tool performs, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action_name: Option<String>,
    /// `pluginId`: plugin id, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    /// `readOnlyHint`: whether the tool is marked read-only, when the writer said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub read_only_hint: Option<bool>,
    /// Older writers named the app template; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub template_id: Option<String>,
    /// Where the call stands.
    pub status: McpToolCallStatus,
    /// What the server returned, once it answered.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub result: Option<CallToolResult>,
    /// Why the call failed before the server answered, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub error: Option<McpToolCallError>,
    /// How long the call took (`{"secs":…,"nanos":…}`), once finished.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "{ secs: number, nanos: number }")]
    pub duration: Option<Duration>,
}

/// Where an MCP tool call stands (camelCase: `inProgress`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub enum McpToolCallStatus {
    /// `inProgress`: waiting for the server.
    InProgress,
    /// `completed`: the server answered without flagging an error.
    Completed,
    /// `failed`: the server flagged an error, or the call failed before it answered.
    Failed,
}

/// Why an MCP tool call failed before the server answered.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct McpToolCallError {
    /// The error text.
    pub message: String,
}

/// The UI an MCP app asks the client to render for a tool result.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub struct McpAppUi {
    /// `resourceUri`: the URI of the UI resource.
    pub resource_uri: String,
    /// `preferredModelDisplayMode`: how the UI prefers to be shown.
    pub preferred_model_display_mode: McpAppUiDisplayMode,
}

/// How an MCP app's UI prefers to be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub enum McpAppUiDisplayMode {
    /// `inline`: inside the conversation.
    Inline,
    /// `fullscreen`: on its own, full screen.
    Fullscreen,
}
