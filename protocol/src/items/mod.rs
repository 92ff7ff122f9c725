//! [`TurnItem`]: the semantic items a client shows for a turn.
//!
//! A `ResponseItem` is what the model saw or produced; a `TurnItem` is what a person should see:
//! a user message without injected context, an agent message with its phase, a command with
//! its output, a file change, an MCP call... Some are projected from response items by the
//! agent core, others are created directly by tool runners, so the two enums are deliberately
//! separate. `TurnItem`s travel in `item_started` / `item_completed` events and are persisted
//! inside them.
//!
//! Wire shape: internally tagged by `type` with the Rust variant name as the tag (PascalCase,
//! no renaming), the item's fields flattened next to it. Each item struct keeps its own field
//! casing (most are snake_case; [`McpToolCallItem`] and a few sub-types are camelCase), exactly
//! as upstream writes them.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

mod agent_output;
mod collab;
mod command;
mod extension;
mod file_change;
mod media;
mod review;
mod tool_calls;
mod user_message;

pub use agent_output::AgentMessageContent;
pub use agent_output::AgentMessageDelivery;
pub use agent_output::AgentMessageItem;
pub use agent_output::AsyncUserInputQuestion;
pub use agent_output::MemoryCitation;
pub use agent_output::MemoryCitationEntry;
pub use agent_output::PlanItem;
pub use agent_output::ReasoningItem;
pub use collab::AgentStatus;
pub use collab::CollabAgentTool;
pub use collab::CollabAgentToolCallItem;
pub use collab::CollabAgentToolCallStatus;
pub use collab::SubAgentActivityItem;
pub use collab::SubAgentActivityKind;
pub use command::CommandExecutionItem;
pub use command::CommandExecutionStatus;
pub use command::ExecCommandSource;
pub use command::ParsedCommand;
pub use extension::ExtensionItem;
pub use file_change::FileChange;
pub use file_change::FileChangeItem;
pub use file_change::PatchApplyStatus;
pub use media::ImageGenerationItem;
pub use media::ImageViewItem;
pub use media::WebSearchItem;
pub use review::EnteredReviewModeItem;
pub use review::ExitedReviewModeItem;
pub use review::ReviewCodeLocation;
pub use review::ReviewFinding;
pub use review::ReviewLineRange;
pub use review::ReviewOutputEvent;
pub use review::ReviewTarget;
pub use tool_calls::DynamicToolCallItem;
pub use tool_calls::DynamicToolCallOutputContentItem;
pub use tool_calls::DynamicToolCallStatus;
pub use tool_calls::FunctionCallOutputItem;
pub use tool_calls::McpAppUi;
pub use tool_calls::McpAppUiDisplayMode;
pub use tool_calls::McpToolCallError;
pub use tool_calls::McpToolCallItem;
pub use tool_calls::McpToolCallStatus;
pub use user_message::HookPromptFragment;
pub use user_message::HookPromptItem;
pub use user_message::UserMessageItem;

/// Mints the id of a new turn item: a bare UUID v7 string (no prefix), so ids sort by creation
/// time and never collide with provider-assigned response item ids.
pub fn new_item_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// One semantic item of a turn, as a client shows it. See the module docs for the wire shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type")]
#[ts(tag = "type")]
pub enum TurnItem {
    /// What the person submitted (without injected context).
    UserMessage(UserMessageItem),
    /// A tool output shown on its own (one that answers no call of the turn).
    FunctionCallOutput(FunctionCallOutputItem),
    /// Text a hook injected as if the person had typed it.
    HookPrompt(HookPromptItem),
    /// What the agent said.
    AgentMessage(AgentMessageItem),
    /// A plan the agent proposed (plan mode).
    Plan(PlanItem),
    /// The agent's reasoning summary and, when shown, its raw reasoning.
    Reasoning(ReasoningItem),
    /// A shell command the agent (or the person) ran.
    CommandExecution(CommandExecutionItem),
    /// A call to a tool the client registered at runtime.
    DynamicToolCall(DynamicToolCallItem),
    /// A multi-agent operation (spawn, message, wait, close...).
    CollabAgentToolCall(CollabAgentToolCallItem),
    /// Progress of a sub-agent, seen from its parent.
    SubAgentActivity(SubAgentActivityItem),
    /// A web search the model ran.
    WebSearch(WebSearchItem),
    /// An image the agent looked at.
    ImageView(ImageViewItem),
    /// An item produced by an extension; its payload is kept as JSON.
    Extension(ExtensionItem),
    /// An image the model generated.
    ImageGeneration(ImageGenerationItem),
    /// The thread entered code-review mode.
    EnteredReviewMode(EnteredReviewModeItem),
    /// The thread left code-review mode, with the review's findings.
    ExitedReviewMode(ExitedReviewModeItem),
    /// Files the agent changed (a patch).
    FileChange(FileChangeItem),
    /// A call to a tool of an MCP server.
    McpToolCall(McpToolCallItem),
    /// The conversation history was compacted.
    ContextCompaction(ContextCompactionItem),
}

impl TurnItem {
    /// The item's id, whichever variant it is.
    pub fn id(&self) -> &str {
        match self {
            Self::UserMessage(item) => &item.id,
            Self::FunctionCallOutput(item) => &item.id,
            Self::HookPrompt(item) => &item.id,
            Self::AgentMessage(item) => &item.id,
            Self::Plan(item) => &item.id,
            Self::Reasoning(item) => &item.id,
            Self::CommandExecution(item) => &item.id,
            Self::DynamicToolCall(item) => &item.id,
            Self::CollabAgentToolCall(item) => &item.id,
            Self::SubAgentActivity(item) => &item.id,
            Self::WebSearch(item) => &item.id,
            Self::ImageView(item) => &item.id,
            Self::Extension(item) => item.id(),
            Self::ImageGeneration(item) => &item.id,
            Self::EnteredReviewMode(item) => &item.id,
            Self::ExitedReviewMode(item) => &item.id,
            Self::FileChange(item) => &item.id,
            Self::McpToolCall(item) => &item.id,
            Self::ContextCompaction(item) => &item.id,
        }
    }

    /// The item as core announced it when it started, given the item it completed as: what
    /// only an item's end says is left out (a command's exit code, output and duration, a
    /// patch's output; their status back to in progress). Files that record an item only when it completes
    /// (paginated files) are replayed with this start. Items whose start the real Codex was
    /// not seen announcing otherwise are their completed form.
    pub fn as_started(&self) -> TurnItem {
        match self {
            Self::CommandExecution(command) => Self::CommandExecution(CommandExecutionItem {
                status: CommandExecutionStatus::InProgress,
                aggregated_output: None,
                exit_code: None,
                duration: None,
                ..command.clone()
            }),
            Self::FileChange(change) => Self::FileChange(FileChangeItem {
                status: None,
                stdout: None,
                stderr: None,
                ..change.clone()
            }),
            other => other.clone(),
        }
    }

    /// The wire tag of this item (`"UserMessage"`, `"McpToolCall"`, ...), for logs and metrics.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::UserMessage(_) => "UserMessage",
            Self::FunctionCallOutput(_) => "FunctionCallOutput",
            Self::HookPrompt(_) => "HookPrompt",
            Self::AgentMessage(_) => "AgentMessage",
            Self::Plan(_) => "Plan",
            Self::Reasoning(_) => "Reasoning",
            Self::CommandExecution(_) => "CommandExecution",
            Self::DynamicToolCall(_) => "DynamicToolCall",
            Self::CollabAgentToolCall(_) => "CollabAgentToolCall",
            Self::SubAgentActivity(_) => "SubAgentActivity",
            Self::WebSearch(_) => "WebSearch",
            Self::ImageView(_) => "ImageView",
            Self::Extension(_) => "Extension",
            Self::ImageGeneration(_) => "ImageGeneration",
            Self::EnteredReviewMode(_) => "EnteredReviewMode",
            Self::ExitedReviewMode(_) => "ExitedReviewMode",
            Self::FileChange(_) => "FileChange",
            Self::McpToolCall(_) => "McpToolCall",
            Self::ContextCompaction(_) => "ContextCompaction",
        }
    }
}

/// Marks the point where the history was compacted; it has nothing but an id.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ContextCompactionItem {
    /// The item id.
    pub id: String,
}

impl ContextCompactionItem {
    /// A compaction marker with a fresh id.
    pub fn new() -> Self {
        Self { id: new_item_id() }
    }
}

impl Default for ContextCompactionItem {
    fn default() -> Self {
        Self::new()
    }
}

#[cfg(test)]
#[path = "items_tests.rs"]
mod tests;
