//! Events of model-side and MCP tools: web search, image generation, MCP tool calls.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::items::McpAppUi;
use crate::mcp::CallToolResult;
use crate::models::WebSearchAction;

/// A web search started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WebSearchBeginEvent {
    /// The web search call.
    pub call_id: String,
}

/// A web search finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WebSearchEndEvent {
    /// The web search call.
    pub call_id: String,
    /// The search query; empty when absent.
    #[serde(default)]
    pub query: String,
    /// What the search did. Absent in files written before actions existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action: Option<WebSearchAction>,
    /// Result entries as the provider returned them (opaque).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown[]")]
    pub results: Option<Vec<serde_json::Value>>,
}

/// Image generation started.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ImageGenerationBeginEvent {
    /// The image generation call.
    pub call_id: String,
}

/// Image generation finished.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ImageGenerationEndEvent {
    /// The image generation call.
    pub call_id: String,
    /// The call's status as the provider reported it (`completed`, ...).
    pub status: String,
    /// The prompt as the model rewrote it for generation, when it did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub revised_prompt: Option<String>,
    /// The image (base64), or empty.
    pub result: String,
    /// Whether the image was generated with a transparent background, when said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub transparent_background: Option<bool>,
    /// Why generation failed (opaque).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub failure: Option<serde_json::Value>,
    /// Where the image was saved on disk, when it was.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub saved_path: Option<String>,
}

/// Which MCP tool is called, with which arguments.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct McpInvocation {
    /// The MCP server's name.
    pub server: String,
    /// The tool's name on that server.
    pub tool: String,
    /// The arguments as JSON; `null` when the model gave none.
    #[ts(type = "unknown")]
    pub arguments: Option<serde_json::Value>,
}

/// An MCP tool call started.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct McpToolCallBeginEvent {
    /// The MCP tool call.
    pub call_id: String,
    /// The turn of the call; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// The server, tool and arguments.
    pub invocation: McpInvocation,
    /// Connector id of an app-backed tool; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub connector_id: Option<String>,
    /// URI of the tool's MCP app resource, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mcp_app_resource_uri: Option<String>,
    /// The tool's MCP app UI, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mcp_app_ui: Option<McpAppUi>,
    /// Link id of an app-backed tool; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub link_id: Option<String>,
    /// Name of the app the tool belongs to, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub app_name: Option<String>,
    /// Name of the app action the tool performs, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action_name: Option<String>,
    /// Plugin id, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    /// Whether the tool is marked read-only, when the writer said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub read_only_hint: Option<bool>,
}

/// An MCP tool call finished. `result` is serde's `Result` shape: `{"Ok": CallToolResult}`
/// when the server answered, `{"Err": "message"}` when the call failed before that.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct McpToolCallEndEvent {
    /// The MCP tool call.
    pub call_id: String,
    /// The turn of the call; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// The server, tool and arguments.
    pub invocation: McpInvocation,
    /// Connector id of an app-backed tool; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub connector_id: Option<String>,
    /// URI of the tool's MCP app resource, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mcp_app_resource_uri: Option<String>,
    /// The tool's MCP app UI, when it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub mcp_app_ui: Option<McpAppUi>,
    /// Link id of an app-backed tool; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub link_id: Option<String>,
    /// Name of the app the tool belongs to, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub app_name: Option<String>,
    /// Name of the app action the tool performs, when given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub action_name: Option<String>,
    /// Plugin id, when the writer recorded one; passed through as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub plugin_id: Option<String>,
    /// Whether the tool is marked read-only, when the writer said.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub read_only_hint: Option<bool>,
    /// How long the call took (`{"secs":…,"nanos":…}` on the wire).
    #[ts(type = "{ secs: number, nanos: number }")]
    pub duration: Duration,
    /// `{"Ok": CallToolResult}` when the server answered, `{"Err": "message"}` otherwise.
    pub result: Result<CallToolResult, String>,
}

impl McpToolCallEndEvent {
    /// Whether the tool succeeded: the server answered and did not flag an error.
    pub fn is_success(&self) -> bool {
        match &self.result {
            Ok(result) => result.success(),
            Err(_) => false,
        }
    }
}
