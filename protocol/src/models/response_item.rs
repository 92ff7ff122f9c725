//! [`ResponseItem`]: the wide union of everything the model saw or produced.
//!
//! Model history, session files and the provider request all hold these items. The enum is
//! internally tagged by `type` (snake_case). Field order is the wire order, so serialization
//! reproduces upstream output key for key. Optional keys come in two flavours, and the
//! difference is part of the wire contract:
//! - *skip-none*: omitted when `None` (`id`, `phase`, most metadata);
//! - *nullable*: written as `null` when `None` (`reasoning.encrypted_content`, the `call_id` of
//!   local shell calls and tool searches).
//!
//! No variant denies unknown fields: a newer writer's extra keys are ignored on read, and an
//! unknown `type` becomes [`ResponseItem::Other`].

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Deserializer;
use serde::Serialize;
use serde_json::Value;
use ts_rs::TS;

use super::configuration::ConfigurationReasoning;
use super::content::AgentMessageInputContent;
use super::content::ContentItem;
use super::content::MessagePhase;
use super::function_output::FunctionCallOutputBody;
use super::function_output::FunctionCallOutputPayload;
use super::local_shell::LocalShellAction;
use super::local_shell::LocalShellStatus;
use super::metadata::InternalChatMessageMetadataPassthrough;
use super::reasoning::ReasoningItemContent;
use super::reasoning::ReasoningItemReasoningSummary;
use super::reasoning::missing_reasoning_content;
use super::reasoning::reasoning_content_is_omitted;
use super::web_search::WebSearchAction;
use crate::response_item_id::ResponseItemId;

crate::type_first::type_first_enum! {
twin ResponseItemTwin = "ResponseItem";
/// One item of model history. See the module docs for the wire rules.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ResponseItem {
    /// Tool definitions sent as an item (Responses Lite puts tools in history this way).
    AdditionalTools {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The role the definitions are sent as, as written.
        role: String,
        /// The tool definitions, kept opaque.
        #[ts(type = "unknown[]")]
        tools: Vec<Value>,
    },
    /// A message from a role (`user`, `assistant`, `developer`, `system`).
    Message {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// The item's status as the provider reported it (`completed`, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        status: Option<String>,
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// Who speaks (`user`, `assistant`, `developer`, `system`).
        role: String,
        /// The message's parts, in order.
        content: Vec<ContentItem>,
        /// Absent means "unknown", which consumers treat differently from both phases.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        phase: Option<MessagePhase>,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A message between agents of a multi-agent session.
    AgentMessage {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The agent that wrote the message, as written.
        author: String,
        /// The agent the message is for, as written.
        recipient: String,
        /// The message's parts, in order.
        content: Vec<AgentMessageInputContent>,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// The model's reasoning: a readable summary, optional raw text, and an encrypted blob the
    /// provider needs to continue the chain of thought.
    Reasoning {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The summary entries shown to people.
        summary: Vec<ReasoningItemReasoningSummary>,
        /// `None` is written as `null`; a list without `reasoning_text` is omitted. A missing
        /// key reads as an empty list (not `None`), so a read item writes back without the key.
        #[serde(
            default = "missing_reasoning_content",
            skip_serializing_if = "reasoning_content_is_omitted"
        )]
        #[ts(optional = nullable)]
        content: Option<Vec<ReasoningItemContent>>,
        /// Nullable: always written, `null` when absent.
        #[serde(default)]
        encrypted_content: Option<String>,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A command the model wants run through the built-in local shell tool.
    LocalShellCall {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// Legacy item id, kept for compatibility.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// Nullable: written as `null` when absent.
        #[serde(default)]
        call_id: Option<String>,
        /// Where the call stands, as the model reported it.
        status: LocalShellStatus,
        /// The command to run.
        action: LocalShellAction,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A call of a JSON-schema function tool; answered by a `function_call_output`.
    FunctionCall {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// The item's status as the provider reported it (`completed`, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        status: Option<String>,
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The function's name.
        name: String,
        /// Tool namespace (for example an MCP server prefix such as `mcp__node_repl__`).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        namespace: Option<String>,
        /// The arguments as raw JSON text, exactly as the model wrote them (not necessarily
        /// valid JSON). A `null` reads as the empty string.
        #[serde(deserialize_with = "string_or_null")]
        arguments: String,
        /// The arguments encrypted for the provider, when it sent them; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_function_args: Option<Vec<String>>,
        /// The call id; the `function_call_output` that answers carries the same.
        call_id: String,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A search for tools to load. `execution` is `client` (answered by a
    /// `tool_search_output` the harness writes) or `server` (the provider answers itself).
    ToolSearchCall {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// Nullable: server-side searches send `null`.
        #[serde(default)]
        call_id: Option<String>,
        /// The call's status as the provider reported it; omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        status: Option<String>,
        /// Who answers the search: `client` or `server` (real files also show `local`).
        execution: String,
        /// The search's arguments as JSON; `null` when absent.
        #[serde(default)]
        #[ts(type = "unknown")]
        arguments: Value,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// The result of a function call or a local shell call. Without a `call_id` (but with a
    /// `name`) it is a standalone output that answers no call.
    FunctionCallOutput {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The call this answers; absent for a standalone output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        call_id: Option<String>,
        /// The tool that produced the output, for a standalone output.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        name: Option<String>,
        /// The tool's namespace, for a standalone output that has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        namespace: Option<String>,
        /// What the tool returned (only the body is written: a string or a list of parts).
        #[ts(as = "FunctionCallOutputBody")]
        output: FunctionCallOutputPayload,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A call of a freeform (grammar) tool such as `apply_patch`; `input` is raw text.
    CustomToolCall {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The item's status as the provider reported it (`completed`, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        status: Option<String>,
        /// The call id; the `custom_tool_call_output` that answers carries the same.
        call_id: String,
        /// The tool's name.
        name: String,
        /// The tool's namespace, when it has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        namespace: Option<String>,
        /// The tool's input, raw text as the model wrote it.
        input: String,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// The result of a custom tool call.
    CustomToolCallOutput {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The call this answers.
        call_id: String,
        /// The tool's name, when written.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        name: Option<String>,
        /// What the tool returned (only the body is written: a string or a list of parts).
        #[ts(as = "FunctionCallOutputBody")]
        output: FunctionCallOutputPayload,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// The tools a tool search found.
    ToolSearchOutput {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// Nullable: written as `null` when absent.
        #[serde(default)]
        call_id: Option<String>,
        /// The search's status, as written (`completed`, ...).
        status: String,
        /// Where the search ran, as written (`client`, `server`; real files also show `local`).
        execution: String,
        /// The tool definitions found, kept opaque.
        #[ts(type = "unknown[]")]
        tools: Vec<Value>,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A web search the provider ran. Partial items carry only id and status.
    WebSearchCall {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The item's status as the provider reported it (`completed`, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        status: Option<String>,
        /// What the search did; absent on partial items.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        action: Option<WebSearchAction>,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// An image the provider generated; `result` is base64 image data.
    ImageGenerationCall {
        /// The item encrypted for the provider, when it sent one; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The call's status as the provider reported it (`completed`, ...).
        status: String,
        /// The prompt as the model rewrote it for generation, when it did.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        revised_prompt: Option<String>,
        /// The image (base64), or empty.
        result: String,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// An encrypted summary of compacted history (older writers spelled the tag
    /// `compaction_summary`).
    #[serde(alias = "compaction_summary")]
    Compaction {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The compacted history, encrypted for the provider; opaque.
        encrypted_content: String,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    /// A durable setting change the backend applies at this position in history.
    ConfigurationUpdate {
        /// The new reasoning settings.
        reasoning: ConfigurationReasoning,
    },
    /// A request control asking the provider to compact; never a durable item. Written as
    /// exactly `{"type":"compaction_trigger"}`.
    CompactionTrigger {},
    /// A compaction performed by the provider inside the context window.
    ContextCompaction {
        /// The item id; omitted when the item has none.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        id: Option<ResponseItemId>,
        /// The compacted context, encrypted for the provider, when sent; opaque.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        encrypted_content: Option<String>,
        /// Harness metadata (turn id, ...); omitted when absent.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        internal_chat_message_metadata_passthrough: Option<InternalChatMessageMetadataPassthrough>,
    },
    @fallback
    /// Any item whose `type` this crate does not know (for example the retired
    /// `ghost_snapshot`). Its fields are not kept; it is written as `{"type":"other"}`.
    #[serde(other)]
    Other,
}
}

/// Reads a string field that some writers leave `null`.
fn string_or_null<'de, D: Deserializer<'de>>(deserializer: D) -> Result<String, D::Error> {
    Ok(Option::<String>::deserialize(deserializer)?.unwrap_or_default())
}
