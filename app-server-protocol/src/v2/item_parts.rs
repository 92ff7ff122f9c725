//! The small value types [`super::ThreadItem`] variants are made of: statuses, command
//! actions, patch changes, web-search actions, tool-call results.
//!
//! All are camelCase on the wire (tags and fields) unless a comment says otherwise; they are
//! the client's vocabulary, distinct from the snake_case persisted vocabulary of
//! `codex-protocol`.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Lifecycle of a command the agent runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CommandExecutionStatus {
    /// Started, not finished.
    InProgress,
    /// Finished (any exit code).
    Completed,
    /// Could not run or was killed.
    Failed,
    /// The person declined to run it.
    Declined,
}

/// Lifecycle of a patch (file change) the agent applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum PatchApplyStatus {
    /// Being applied (or awaiting approval).
    InProgress,
    /// Applied.
    Completed,
    /// Applying failed.
    Failed,
    /// The person declined it.
    Declined,
}

/// Lifecycle of an MCP tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum McpToolCallStatus {
    /// Called, no answer yet.
    InProgress,
    /// Answered.
    Completed,
    /// Errored.
    Failed,
}

/// Lifecycle of a client-provided (dynamic) tool call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum DynamicToolCallStatus {
    /// Called, no answer yet.
    InProgress,
    /// Answered.
    Completed,
    /// Errored.
    Failed,
}

/// Lifecycle of a call to another agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CollabAgentToolCallStatus {
    /// Running.
    InProgress,
    /// Done.
    Completed,
    /// Errored.
    Failed,
    /// Interrupted before it finished.
    Interrupted,
}

/// Who started a command: the model, the person's own shell, or a unified-exec session.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CommandExecutionSource {
    /// The model asked for it (the usual case).
    #[default]
    Agent,
    /// The person typed it in their shell (`!cmd`).
    UserShell,
    /// The first command of a long-lived unified-exec session.
    UnifiedExecStartup,
    /// Input written into a running unified-exec session.
    UnifiedExecInteraction,
}

/// What a command does, as far as a client needs to render it compactly.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CommandAction {
    /// Reads a file.
    Read {
        /// The command text.
        command: String,
        /// Short name of the file.
        name: String,
        /// Path of the file.
        path: String,
    },
    /// Lists a directory.
    ListFiles {
        /// The command text.
        command: String,
        /// Directory listed, when known.
        path: Option<String>,
    },
    /// Searches file contents or names.
    Search {
        /// The command text.
        command: String,
        /// The query, when known.
        query: Option<String>,
        /// Where it searches, when known.
        path: Option<String>,
    },
    /// Anything else.
    Unknown {
        /// The command text.
        command: String,
    },
}

/// One file touched by a patch.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct FileUpdateChange {
    /// Path of the file.
    pub path: String,
    /// Added, deleted or updated (possibly moved).
    pub kind: PatchChangeKind,
    /// The content (for add/delete) or unified diff (for update).
    pub diff: String,
}

/// How a patch touches a file. Only tags are renamed: `move_path` stays snake_case, as
/// upstream clients expect.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum PatchChangeKind {
    /// New file.
    Add,
    /// Removed file.
    Delete,
    /// Edited file, optionally moved.
    Update {
        /// New location when the file was moved.
        move_path: Option<String>,
    },
}

/// What a web search did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum WebSearchAction {
    /// Ran one or more queries.
    Search {
        /// The main query, when there is one.
        query: Option<String>,
        /// All queries, when the provider reported several.
        queries: Option<Vec<String>>,
    },
    /// Opened a page.
    OpenPage {
        /// The page.
        url: Option<String>,
    },
    /// Looked for a pattern inside a page.
    FindInPage {
        /// The page.
        url: Option<String>,
        /// The pattern.
        pattern: Option<String>,
    },
    /// Any action this version does not know.
    #[serde(other)]
    Other,
}

/// One content item returned by a client-provided tool.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum DynamicToolCallOutputContentItem {
    /// Text.
    #[serde(rename_all = "camelCase")]
    InputText {
        /// The text.
        text: String,
    },
    /// An image by URL.
    #[serde(rename_all = "camelCase")]
    InputImage {
        /// The image.
        image_url: String,
    },
    /// Audio by URL.
    #[serde(rename_all = "camelCase")]
    InputAudio {
        /// The audio.
        audio_url: String,
    },
}

/// The successful result of an MCP tool call, kept as the server sent it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct McpToolCallResult {
    /// MCP content blocks.
    pub content: Vec<serde_json::Value>,
    /// MCP structured content, when the tool returned some.
    pub structured_content: Option<serde_json::Value>,
    /// MCP metadata of the result (`_meta`), when the server sent some.
    #[serde(rename = "_meta")]
    #[ts(rename = "_meta")]
    pub meta: Option<serde_json::Value>,
}

/// The UI an MCP tool's descriptor offers for its calls, as captured when it was called.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct McpAppUi {
    /// The UI resource.
    pub resource_uri: String,
    /// How the UI prefers to be shown.
    pub preferred_model_display_mode: McpAppDisplayMode,
}

/// How an MCP app's UI prefers to be shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum McpAppDisplayMode {
    /// Inside the conversation.
    Inline,
    /// On its own, full screen.
    Fullscreen,
}

/// Why an MCP tool call failed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[ts(export_to = "v2/")]
pub struct McpToolCallError {
    /// Explanation.
    pub message: String,
}

/// Links an MCP call to the app (connector) that served it, so a client can render it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct McpAppContext {
    /// The connector.
    pub connector_id: String,
    /// A link into the app, when known.
    pub link_id: Option<String>,
    /// A UI resource the app offers for this call, when known.
    pub resource_uri: Option<String>,
}

/// Memories the agent cited in a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct MemoryCitation {
    /// The cited passages.
    pub entries: Vec<MemoryCitationEntry>,
    /// Threads the memories came from.
    pub thread_ids: Vec<String>,
}

/// One cited memory passage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct MemoryCitationEntry {
    /// File the passage is in.
    pub path: String,
    /// First line.
    #[ts(type = "number")]
    pub line_start: u64,
    /// Last line.
    #[ts(type = "number")]
    pub line_end: u64,
    /// Why it was cited.
    pub note: String,
}

/// One fragment of a hook-injected prompt.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct HookPromptFragment {
    /// The injected text.
    pub text: String,
    /// The hook run that produced it.
    pub hook_run_id: String,
}

/// Which collaboration tool the agent called.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CollabAgentTool {
    /// Start a sub-agent.
    SpawnAgent,
    /// Send input to one.
    SendInput,
    /// Resume one.
    ResumeAgent,
    /// Wait for some.
    Wait,
    /// Close one.
    CloseAgent,
    /// Send a message to one.
    SendMessage,
    /// Give one a follow-up task.
    FollowupTask,
    /// Interrupt one.
    InterruptAgent,
    /// List them.
    ListAgents,
}

/// Status of one sub-agent as last seen by a collaboration call.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum CollabAgentStatus {
    /// Being set up.
    PendingInit,
    /// Working.
    Running,
    /// Interrupted.
    Interrupted,
    /// Finished.
    Completed,
    /// Failed.
    Errored,
    /// Shut down.
    Shutdown,
    /// No such agent.
    NotFound,
}

/// Status plus the last message of one sub-agent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct CollabAgentState {
    /// Where it is in its lifecycle.
    pub status: CollabAgentStatus,
    /// Its final or error message, when it has one.
    pub message: Option<String>,
}

/// Sub-agent states keyed by thread id; a sorted map so output is deterministic.
pub type CollabAgentStates = BTreeMap<String, CollabAgentState>;

/// What happened to a sub-agent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum SubAgentActivityKind {
    /// It started.
    Started,
    /// The parent talked to it.
    Interacted,
    /// It was interrupted.
    Interrupted,
    /// It finished.
    Completed,
}
