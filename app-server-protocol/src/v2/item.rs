//! [`ThreadItem`]: one visible entry of a turn, the unit a client renders.
//!
//! A thread item is the client contract, not a copy of what was persisted: agent message parts
//! are joined into one `text`, a command is one string plus compact actions, statuses are
//! camelCase. Tags and fields are camelCase, as upstream clients expect.

use codex_protocol::items::{AgentMessageDelivery, AsyncUserInputQuestion};
use codex_protocol::models::{FunctionCallOutputBody, MessagePhase};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::item_parts::{
    CollabAgentStates, CollabAgentTool, CollabAgentToolCallStatus, CommandAction,
    CommandExecutionSource, CommandExecutionStatus, DynamicToolCallOutputContentItem,
    DynamicToolCallStatus, FileUpdateChange, HookPromptFragment, McpAppContext, McpAppUi,
    McpToolCallError, McpToolCallResult, McpToolCallStatus, MemoryCitation, PatchApplyStatus,
    SubAgentActivityKind, WebSearchAction,
};
use super::moderation::AgentMessageModeration;
use super::user_input::UserInput;

/// One entry of a turn as a client shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum ThreadItem {
    /// What the person submitted.
    #[serde(rename_all = "camelCase")]
    UserMessage {
        /// Item id.
        id: String,
        /// The id the submitting client chose, so it can match its optimistic echo.
        client_id: Option<String>,
        /// The submitted parts, in order.
        content: Vec<UserInput>,
    },
    /// A prompt injected by a hook rather than typed by the person.
    #[serde(rename_all = "camelCase")]
    HookPrompt {
        /// Item id.
        id: String,
        /// The injected fragments.
        fragments: Vec<HookPromptFragment>,
    },
    /// What the agent said. Streaming deltas append to `text`; the completed item replaces it.
    #[serde(rename_all = "camelCase")]
    AgentMessage {
        /// Whether moderation held the message back and what to show instead; null when not.
        #[serde(default)]
        moderation: Option<AgentMessageModeration>,
        /// Item id.
        id: String,
        /// All text parts joined.
        text: String,
        /// Commentary between tool calls or the final answer; null when the model did not say.
        #[serde(default)]
        phase: Option<MessagePhase>,
        /// Memories the message cites.
        #[serde(default)]
        memory_citation: Option<MemoryCitation>,
        /// How the message is delivered; null for the usual, synchronous answer.
        #[serde(default)]
        delivery: Option<AgentMessageDelivery>,
        /// Questions the agent asks the person to answer later; null when it asks none.
        #[serde(default)]
        questions: Option<Vec<AsyncUserInputQuestion>>,
    },
    /// A tool output shown on its own: one that answers no call of the turn.
    #[serde(rename_all = "camelCase")]
    FunctionCallOutput {
        /// Item id.
        id: String,
        /// The tool that produced it.
        name: String,
        /// The tool's namespace; null when it has none.
        namespace: Option<String>,
        /// The output: a string, or a list of text, image, audio and encrypted parts.
        output: FunctionCallOutputBody,
    },
    /// A plan the agent wrote. The completed item is authoritative over plan deltas.
    #[serde(rename_all = "camelCase")]
    Plan {
        /// Item id.
        id: String,
        /// The plan text.
        text: String,
    },
    /// The agent's reasoning: summaries always, raw content when the provider exposes it.
    #[serde(rename_all = "camelCase")]
    Reasoning {
        /// Item id.
        id: String,
        /// Summary paragraphs, in order.
        #[serde(default)]
        summary: Vec<String>,
        /// Raw reasoning paragraphs, in order.
        #[serde(default)]
        content: Vec<String>,
    },
    /// A command the agent ran (or was refused).
    #[serde(rename_all = "camelCase")]
    CommandExecution {
        /// Item id (the call id of the tool call).
        id: String,
        /// The plugin whose script this command runs, when it runs one.
        plugin_id: Option<String>,
        /// The plugin script run, when the command runs one.
        script_path: Option<String>,
        /// The command as one shell-quoted string.
        command: String,
        /// Working directory.
        cwd: String,
        /// The interactive session it runs in, for unified exec.
        process_id: Option<String>,
        /// Who started it.
        #[serde(default)]
        source: CommandExecutionSource,
        /// Where it is in its lifecycle.
        status: CommandExecutionStatus,
        /// What it does, for compact rendering.
        command_actions: Vec<CommandAction>,
        /// Combined stdout and stderr; null until there is some.
        aggregated_output: Option<String>,
        /// Exit code once finished.
        exit_code: Option<i32>,
        /// Wall time once finished.
        #[ts(type = "number | null")]
        duration_ms: Option<i64>,
    },
    /// A patch the agent applied (or proposed).
    #[serde(rename_all = "camelCase")]
    FileChange {
        /// Item id (the call id of the tool call).
        id: String,
        /// One entry per touched file, sorted by path.
        changes: Vec<FileUpdateChange>,
        /// Where it is in its lifecycle.
        status: PatchApplyStatus,
    },
    /// A call to a tool of an MCP server.
    #[serde(rename_all = "camelCase")]
    McpToolCall {
        /// Item id.
        id: String,
        /// MCP server name.
        server: String,
        /// Tool name.
        tool: String,
        /// Where it is in its lifecycle.
        status: McpToolCallStatus,
        /// The arguments sent.
        arguments: serde_json::Value,
        /// The app (connector) behind the server, when there is one.
        app_context: Option<McpAppContext>,
        /// Deprecated: use `appContext.resourceUri`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        mcp_app_resource_uri: Option<String>,
        /// The plugin that provided the server, when known.
        plugin_id: Option<String>,
        /// The UI the tool's descriptor offered, when the file recorded it.
        mcp_app_ui: Option<Box<McpAppUi>>,
        /// Whether the tool is marked read-only, when the file recorded it.
        read_only_hint: Option<bool>,
        /// The environment the server was registered in (Codex 0.171; no session file records
        /// it, so Codex shows it `null` for a call read from a file).
        environment_id: Option<String>,
        /// The result, once answered.
        result: Option<Box<McpToolCallResult>>,
        /// The error, once failed.
        error: Option<McpToolCallError>,
        /// Wall time once finished.
        #[ts(type = "number | null")]
        duration_ms: Option<i64>,
    },
    /// A call to a tool the client provided.
    #[serde(rename_all = "camelCase")]
    DynamicToolCall {
        /// Item id.
        id: String,
        /// Tool namespace, when the tool has one.
        namespace: Option<String>,
        /// Tool name.
        tool: String,
        /// The arguments sent.
        arguments: serde_json::Value,
        /// Where it is in its lifecycle.
        status: DynamicToolCallStatus,
        /// What the tool returned, once answered.
        content_items: Option<Vec<DynamicToolCallOutputContentItem>>,
        /// Whether the tool reported success, once answered.
        success: Option<bool>,
        /// Wall time once finished.
        #[ts(type = "number | null")]
        duration_ms: Option<i64>,
    },
    /// A call that spawns, messages or waits for other agents.
    #[serde(rename_all = "camelCase")]
    CollabAgentToolCall {
        /// Item id.
        id: String,
        /// Which collaboration tool.
        tool: CollabAgentTool,
        /// Where it is in its lifecycle.
        status: CollabAgentToolCallStatus,
        /// The calling agent's thread.
        sender_thread_id: String,
        /// The threads addressed.
        receiver_thread_ids: Vec<String>,
        /// The prompt sent, when any.
        prompt: Option<String>,
        /// The model requested for a spawned agent, when any.
        model: Option<String>,
        /// The reasoning effort requested for a spawned agent, when any.
        reasoning_effort: Option<String>,
        /// Last known state of each addressed agent, keyed by thread id.
        agents_states: CollabAgentStates,
    },
    /// Something a sub-agent did, reported to its parent.
    #[serde(rename_all = "camelCase")]
    SubAgentActivity {
        /// Item id.
        id: String,
        /// What happened.
        kind: SubAgentActivityKind,
        /// The sub-agent's thread.
        agent_thread_id: String,
        /// The sub-agent's path in the agent tree.
        agent_path: String,
        /// The sub-agent's model, when known.
        model: Option<String>,
        /// The sub-agent's reasoning effort, when known.
        reasoning_effort: Option<String>,
    },
    /// A web search the model ran.
    #[serde(rename_all = "camelCase")]
    WebSearch {
        /// Item id.
        id: String,
        /// The query (empty while in progress).
        query: String,
        /// What the search did, once known.
        action: Option<WebSearchAction>,
        /// The results the provider returned out of band, as it returned them; null when none.
        #[serde(default)]
        results: Option<Vec<serde_json::Value>>,
    },
    /// An image the agent looked at.
    #[serde(rename_all = "camelCase")]
    ImageView {
        /// Item id.
        id: String,
        /// The image file.
        path: String,
    },
    /// The agent paused.
    #[serde(rename_all = "camelCase")]
    Sleep {
        /// Item id.
        id: String,
        /// How long.
        #[ts(type = "number")]
        duration_ms: i64,
    },
    /// An image the model generated.
    #[serde(rename_all = "camelCase")]
    ImageGeneration {
        /// Item id.
        id: String,
        /// Provider status string.
        status: String,
        /// The prompt the provider actually used, when it rewrote it.
        revised_prompt: Option<String>,
        /// The image (base64) or a reference to it.
        result: String,
        /// Where the image was saved, when it was.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        saved_path: Option<String>,
    },
    /// The thread entered review mode.
    #[serde(rename_all = "camelCase")]
    EnteredReviewMode {
        /// Item id.
        id: String,
        /// What is being reviewed, as shown to the person.
        review: String,
    },
    /// The thread left review mode.
    #[serde(rename_all = "camelCase")]
    ExitedReviewMode {
        /// Item id.
        id: String,
        /// The review's text.
        review: String,
    },
    /// The conversation history was compacted here.
    #[serde(rename_all = "camelCase")]
    ContextCompaction {
        /// Item id.
        id: String,
    },
    /// An item from an extension this protocol has no dedicated shape for, passed through so
    /// a client can at least show that something happened.
    #[serde(rename_all = "camelCase")]
    Extension {
        /// Item id.
        id: String,
        /// The extension's item kind, e.g. `clock.sleep`.
        kind: String,
        /// The extension's fields, as it wrote them.
        fields: serde_json::Map<String, serde_json::Value>,
    },
}

impl ThreadItem {
    /// The item id, whatever the variant: what deltas and completions refer to.
    pub fn id(&self) -> &str {
        match self {
            Self::UserMessage { id, .. }
            | Self::HookPrompt { id, .. }
            | Self::AgentMessage { id, .. }
            | Self::FunctionCallOutput { id, .. }
            | Self::Plan { id, .. }
            | Self::Reasoning { id, .. }
            | Self::CommandExecution { id, .. }
            | Self::FileChange { id, .. }
            | Self::McpToolCall { id, .. }
            | Self::DynamicToolCall { id, .. }
            | Self::CollabAgentToolCall { id, .. }
            | Self::SubAgentActivity { id, .. }
            | Self::WebSearch { id, .. }
            | Self::ImageView { id, .. }
            | Self::Sleep { id, .. }
            | Self::ImageGeneration { id, .. }
            | Self::EnteredReviewMode { id, .. }
            | Self::ExitedReviewMode { id, .. }
            | Self::ContextCompaction { id }
            | Self::Extension { id, .. } => id,
        }
    }

    /// Replaces the item id. Used when history rebuilt from older records has to mint ids.
    pub fn set_id(&mut self, new_id: String) {
        match self {
            Self::UserMessage { id, .. }
            | Self::HookPrompt { id, .. }
            | Self::AgentMessage { id, .. }
            | Self::FunctionCallOutput { id, .. }
            | Self::Plan { id, .. }
            | Self::Reasoning { id, .. }
            | Self::CommandExecution { id, .. }
            | Self::FileChange { id, .. }
            | Self::McpToolCall { id, .. }
            | Self::DynamicToolCall { id, .. }
            | Self::CollabAgentToolCall { id, .. }
            | Self::SubAgentActivity { id, .. }
            | Self::WebSearch { id, .. }
            | Self::ImageView { id, .. }
            | Self::Sleep { id, .. }
            | Self::ImageGeneration { id, .. }
            | Self::EnteredReviewMode { id, .. }
            | Self::ExitedReviewMode { id, .. }
            | Self::ContextCompaction { id }
            | Self::Extension { id, .. } => *id = new_id,
        }
    }

    /// The wire tag (`"agentMessage"`, ...), for logs and summaries.
    pub fn kind(&self) -> &'static str {
        match self {
            Self::UserMessage { .. } => "userMessage",
            Self::HookPrompt { .. } => "hookPrompt",
            Self::AgentMessage { .. } => "agentMessage",
            Self::FunctionCallOutput { .. } => "functionCallOutput",
            Self::Plan { .. } => "plan",
            Self::Reasoning { .. } => "reasoning",
            Self::CommandExecution { .. } => "commandExecution",
            Self::FileChange { .. } => "fileChange",
            Self::McpToolCall { .. } => "mcpToolCall",
            Self::DynamicToolCall { .. } => "dynamicToolCall",
            Self::CollabAgentToolCall { .. } => "collabAgentToolCall",
            Self::SubAgentActivity { .. } => "subAgentActivity",
            Self::WebSearch { .. } => "webSearch",
            Self::ImageView { .. } => "imageView",
            Self::Sleep { .. } => "sleep",
            Self::ImageGeneration { .. } => "imageGeneration",
            Self::EnteredReviewMode { .. } => "enteredReviewMode",
            Self::ExitedReviewMode { .. } => "exitedReviewMode",
            Self::ContextCompaction { .. } => "contextCompaction",
            Self::Extension { .. } => "extension",
        }
    }
}
