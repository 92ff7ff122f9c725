//! [`ResponseInputItem`]: the narrow set of items the harness submits to the provider, and
//! their promotion into history.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::content::ContentItem;
use super::content::MessagePhase;
use super::function_output::FunctionCallOutputBody;
use super::function_output::FunctionCallOutputPayload;
use super::response_item::ResponseItem;
use crate::mcp::CallToolResult;

/// What the harness sends: a message, or the output of a tool it ran. Tagged by `type`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResponseInputItem {
    /// `message`: a message from `role`.
    Message {
        /// Who speaks (`user`, `developer`, ...).
        role: String,
        /// The message's parts.
        content: Vec<ContentItem>,
        /// Commentary or final answer; omitted when unknown.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        phase: Option<MessagePhase>,
    },
    /// `function_call_output`: what a function tool returned.
    FunctionCallOutput {
        /// The call this answers.
        call_id: String,
        /// The output (only its body is written).
        #[ts(as = "FunctionCallOutputBody")]
        output: FunctionCallOutputPayload,
    },
    /// The raw result of an MCP tool; history stores it as a `function_call_output`.
    McpToolCallOutput {
        /// The call this answers.
        call_id: String,
        /// What the MCP server returned.
        output: CallToolResult,
    },
    /// `custom_tool_call_output`: what a custom (freeform) tool returned.
    CustomToolCallOutput {
        /// The call this answers.
        call_id: String,
        /// The tool's name, when given.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        name: Option<String>,
        /// The output (only its body is written).
        #[ts(as = "FunctionCallOutputBody")]
        output: FunctionCallOutputPayload,
    },
    /// `tool_search_output`: the tools a tool search found.
    ToolSearchOutput {
        /// The tool search call this answers.
        call_id: String,
        /// The search's status, as written (`completed`, ...).
        status: String,
        /// Where the search ran, as written (`client`, `server`; real files also show `local`).
        execution: String,
        /// The tool definitions found, kept opaque.
        #[ts(type = "unknown[]")]
        tools: Vec<Value>,
    },
}

impl From<ResponseInputItem> for ResponseItem {
    /// Promotes a submitted item into history. Ids stay empty (the session assigns them), the
    /// call id is kept for pairing, the phase is kept as given, and an MCP result becomes a
    /// plain `function_call_output` because history only needs what the provider understands.
    fn from(item: ResponseInputItem) -> Self {
        match item {
            ResponseInputItem::Message {
                role,
                content,
                phase,
            } => Self::Message {
                encrypted_content: None,
                status: None,
                id: None,
                role,
                content,
                phase,
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseInputItem::FunctionCallOutput { call_id, output } => Self::FunctionCallOutput {
                id: None,
                call_id: Some(call_id),
                name: None,
                namespace: None,
                output,
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseInputItem::McpToolCallOutput { call_id, output } => Self::FunctionCallOutput {
                id: None,
                call_id: Some(call_id),
                name: None,
                namespace: None,
                output: output.into_function_call_output_payload(),
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseInputItem::CustomToolCallOutput {
                call_id,
                name,
                output,
            } => Self::CustomToolCallOutput {
                id: None,
                call_id,
                name,
                output,
                internal_chat_message_metadata_passthrough: None,
            },
            ResponseInputItem::ToolSearchOutput {
                call_id,
                status,
                execution,
                tools,
            } => Self::ToolSearchOutput {
                id: None,
                call_id: Some(call_id),
                status,
                execution,
                tools,
                internal_chat_message_metadata_passthrough: None,
            },
        }
    }
}
