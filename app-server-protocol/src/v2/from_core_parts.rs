//! Conversions of the small core (persisted, snake_case) value types into their client
//! (camelCase) counterparts. Shared by the `TurnItem` conversion and the event-based item
//! builders, so a command built from `exec_command_end` and one built from a completed
//! `CommandExecution` item render identically.

use std::collections::BTreeMap;
use std::time::Duration;

use codex_protocol::event::{
    CodexErrorInfo as CoreCodexErrorInfo, ErrorEvent, NetworkPolicyAmendment as CoreAmendment,
    NetworkPolicyRuleAction as CoreRuleAction, StreamErrorEvent,
};
use codex_protocol::items::{
    AgentStatus, CollabAgentTool as CoreCollabTool, CollabAgentToolCallStatus as CoreCollabStatus,
    CommandExecutionStatus as CoreCommandStatus,
    DynamicToolCallOutputContentItem as CoreDynamicContent,
    DynamicToolCallStatus as CoreDynamicStatus, ExecCommandSource, FileChange,
    MemoryCitation as CoreMemoryCitation, ParsedCommand, PatchApplyStatus as CorePatchStatus,
    ReviewOutputEvent, SubAgentActivityKind as CoreSubAgentKind,
};
use codex_protocol::mcp::CallToolResult;
use codex_protocol::models::WebSearchAction as CoreWebSearchAction;
use codex_protocol::user_input::{TextElement as CoreTextElement, UserInput as CoreUserInput};

use super::approval::{NetworkPolicyAmendment, NetworkPolicyRuleAction};
use super::item_parts::{
    CollabAgentState, CollabAgentStatus, CollabAgentTool, CollabAgentToolCallStatus, CommandAction,
    CommandExecutionSource, CommandExecutionStatus, DynamicToolCallOutputContentItem,
    DynamicToolCallStatus, FileUpdateChange, McpAppDisplayMode, McpAppUi, McpToolCallResult,
    MemoryCitation, MemoryCitationEntry, PatchApplyStatus, PatchChangeKind, SubAgentActivityKind,
    WebSearchAction,
};
use super::turn::{CodexErrorInfo, TurnError};
use super::user_input::{ByteRange, TextElement, UserInput};

impl From<CoreUserInput> for UserInput {
    fn from(input: CoreUserInput) -> Self {
        match input {
            CoreUserInput::Text {
                text,
                text_elements,
            } => Self::Text {
                text,
                text_elements: text_elements.into_iter().map(TextElement::from).collect(),
            },
            CoreUserInput::Image { image_url, detail } => Self::Image {
                detail,
                url: image_url,
            },
            CoreUserInput::LocalImage { path, .. } => Self::LocalImage {
                path: path.display().to_string(),
            },
            CoreUserInput::Audio { audio_url } => Self::Audio { url: audio_url },
            CoreUserInput::LocalAudio { path } => Self::LocalAudio {
                path: path.display().to_string(),
            },
            CoreUserInput::Skill { name, path } => Self::Skill {
                name,
                path: path.display().to_string(),
            },
            CoreUserInput::Mention { name, path } => Self::Mention { name, path },
        }
    }
}

impl From<CoreTextElement> for TextElement {
    fn from(element: CoreTextElement) -> Self {
        Self {
            byte_range: ByteRange {
                start: element.byte_range.start as u64,
                end: element.byte_range.end as u64,
            },
            placeholder: element.placeholder,
        }
    }
}

impl From<CoreMemoryCitation> for MemoryCitation {
    fn from(citation: CoreMemoryCitation) -> Self {
        Self {
            entries: citation
                .entries
                .into_iter()
                .map(|entry| MemoryCitationEntry {
                    path: entry.path,
                    line_start: u64::from(entry.line_start),
                    line_end: u64::from(entry.line_end),
                    note: entry.note,
                })
                .collect(),
            thread_ids: citation.rollout_ids,
        }
    }
}

impl From<CoreCommandStatus> for CommandExecutionStatus {
    fn from(status: CoreCommandStatus) -> Self {
        match status {
            CoreCommandStatus::InProgress => Self::InProgress,
            CoreCommandStatus::Completed => Self::Completed,
            CoreCommandStatus::Failed => Self::Failed,
            CoreCommandStatus::Declined => Self::Declined,
        }
    }
}

impl From<ExecCommandSource> for CommandExecutionSource {
    fn from(source: ExecCommandSource) -> Self {
        match source {
            ExecCommandSource::Agent => Self::Agent,
            ExecCommandSource::UserShell => Self::UserShell,
            ExecCommandSource::UnifiedExecStartup => Self::UnifiedExecStartup,
            ExecCommandSource::UnifiedExecInteraction => Self::UnifiedExecInteraction,
        }
    }
}

impl From<ParsedCommand> for CommandAction {
    fn from(parsed: ParsedCommand) -> Self {
        match parsed {
            ParsedCommand::Read { cmd, name, path } => Self::Read {
                command: cmd,
                name,
                path: path.display().to_string(),
            },
            ParsedCommand::ListFiles { cmd, path } => Self::ListFiles { command: cmd, path },
            ParsedCommand::Search { cmd, query, path } => Self::Search {
                command: cmd,
                query,
                path,
            },
            ParsedCommand::Unknown { cmd } => Self::Unknown { command: cmd },
        }
    }
}

impl From<CorePatchStatus> for PatchApplyStatus {
    fn from(status: CorePatchStatus) -> Self {
        match status {
            CorePatchStatus::Completed => Self::Completed,
            CorePatchStatus::Failed => Self::Failed,
            CorePatchStatus::Declined => Self::Declined,
        }
    }
}

impl From<CoreDynamicStatus> for DynamicToolCallStatus {
    fn from(status: CoreDynamicStatus) -> Self {
        match status {
            CoreDynamicStatus::InProgress => Self::InProgress,
            CoreDynamicStatus::Completed => Self::Completed,
            CoreDynamicStatus::Failed => Self::Failed,
        }
    }
}

impl From<CoreDynamicContent> for DynamicToolCallOutputContentItem {
    fn from(item: CoreDynamicContent) -> Self {
        match item {
            CoreDynamicContent::InputText { text } => Self::InputText { text },
            CoreDynamicContent::InputImage { image_url } => Self::InputImage { image_url },
            CoreDynamicContent::InputAudio { audio_url } => Self::InputAudio { audio_url },
        }
    }
}

impl From<CoreCollabTool> for CollabAgentTool {
    fn from(tool: CoreCollabTool) -> Self {
        match tool {
            CoreCollabTool::SpawnAgent => Self::SpawnAgent,
            CoreCollabTool::SendInput => Self::SendInput,
            CoreCollabTool::ResumeAgent => Self::ResumeAgent,
            CoreCollabTool::Wait => Self::Wait,
            CoreCollabTool::CloseAgent => Self::CloseAgent,
            CoreCollabTool::SendMessage => Self::SendMessage,
            CoreCollabTool::FollowupTask => Self::FollowupTask,
            CoreCollabTool::InterruptAgent => Self::InterruptAgent,
            CoreCollabTool::ListAgents => Self::ListAgents,
        }
    }
}

impl From<CoreCollabStatus> for CollabAgentToolCallStatus {
    fn from(status: CoreCollabStatus) -> Self {
        match status {
            CoreCollabStatus::InProgress => Self::InProgress,
            CoreCollabStatus::Completed => Self::Completed,
            CoreCollabStatus::Failed => Self::Failed,
            CoreCollabStatus::Interrupted => Self::Interrupted,
        }
    }
}

impl From<AgentStatus> for CollabAgentState {
    fn from(status: AgentStatus) -> Self {
        let (status, message) = match status {
            AgentStatus::PendingInit => (CollabAgentStatus::PendingInit, None),
            AgentStatus::Running => (CollabAgentStatus::Running, None),
            AgentStatus::Interrupted => (CollabAgentStatus::Interrupted, None),
            AgentStatus::Completed(message) => (CollabAgentStatus::Completed, message),
            AgentStatus::Errored(message) => (CollabAgentStatus::Errored, Some(message)),
            AgentStatus::Shutdown => (CollabAgentStatus::Shutdown, None),
            AgentStatus::NotFound => (CollabAgentStatus::NotFound, None),
        };
        Self { status, message }
    }
}

impl From<CoreSubAgentKind> for SubAgentActivityKind {
    fn from(kind: CoreSubAgentKind) -> Self {
        match kind {
            CoreSubAgentKind::Started => Self::Started,
            CoreSubAgentKind::Interacted => Self::Interacted,
            CoreSubAgentKind::Interrupted => Self::Interrupted,
            CoreSubAgentKind::Completed => Self::Completed,
        }
    }
}

impl From<CoreWebSearchAction> for WebSearchAction {
    fn from(action: CoreWebSearchAction) -> Self {
        match action {
            CoreWebSearchAction::Search { query, queries } => Self::Search { query, queries },
            CoreWebSearchAction::OpenPage { url } => Self::OpenPage { url },
            CoreWebSearchAction::FindInPage { url, pattern } => Self::FindInPage { url, pattern },
            CoreWebSearchAction::Other => Self::Other,
        }
    }
}

impl From<codex_protocol::items::McpAppUi> for McpAppUi {
    fn from(ui: codex_protocol::items::McpAppUi) -> Self {
        use codex_protocol::items::McpAppUiDisplayMode;
        Self {
            resource_uri: ui.resource_uri,
            preferred_model_display_mode: match ui.preferred_model_display_mode {
                McpAppUiDisplayMode::Inline => McpAppDisplayMode::Inline,
                McpAppUiDisplayMode::Fullscreen => McpAppDisplayMode::Fullscreen,
            },
        }
    }
}

impl From<CallToolResult> for McpToolCallResult {
    fn from(result: CallToolResult) -> Self {
        Self {
            content: result.content,
            structured_content: result.structured_content,
            meta: result.meta,
        }
    }
}

impl From<CoreAmendment> for NetworkPolicyAmendment {
    fn from(amendment: CoreAmendment) -> Self {
        Self {
            host: amendment.host,
            action: match amendment.action {
                CoreRuleAction::Allow => NetworkPolicyRuleAction::Allow,
                CoreRuleAction::Deny => NetworkPolicyRuleAction::Deny,
            },
        }
    }
}

impl From<CoreCodexErrorInfo> for CodexErrorInfo {
    fn from(info: CoreCodexErrorInfo) -> Self {
        match info {
            CoreCodexErrorInfo::ContextWindowExceeded => Self::ContextWindowExceeded,
            CoreCodexErrorInfo::UsageLimitExceeded
            | CoreCodexErrorInfo::SessionBudgetExceeded
            | CoreCodexErrorInfo::RateLimitExceeded => Self::UsageLimitExceeded,
            CoreCodexErrorInfo::ServerOverloaded | CoreCodexErrorInfo::FlexUnavailable => {
                Self::ServerOverloaded
            }
            CoreCodexErrorInfo::HttpConnectionFailed { http_status_code } => {
                Self::HttpConnectionFailed { http_status_code }
            }
            CoreCodexErrorInfo::ResponseStreamConnectionFailed { http_status_code } => {
                Self::ResponseStreamConnectionFailed { http_status_code }
            }
            CoreCodexErrorInfo::InternalServerError => Self::InternalServerError,
            CoreCodexErrorInfo::Unauthorized => Self::Unauthorized,
            CoreCodexErrorInfo::BadRequest | CoreCodexErrorInfo::InvalidPrompt => Self::BadRequest,
            CoreCodexErrorInfo::SandboxError => Self::SandboxError,
            CoreCodexErrorInfo::ResponseStreamDisconnected { http_status_code } => {
                Self::ResponseStreamDisconnected { http_status_code }
            }
            CoreCodexErrorInfo::ResponseTooManyFailedAttempts { http_status_code } => {
                Self::ResponseTooManyFailedAttempts { http_status_code }
            }
            CoreCodexErrorInfo::CyberPolicy
            | CoreCodexErrorInfo::BioPolicy
            | CoreCodexErrorInfo::MisalignmentPolicyViolation
            | CoreCodexErrorInfo::TooManyDenials
            | CoreCodexErrorInfo::ActiveTurnNotSteerable { .. }
            | CoreCodexErrorInfo::ThreadRollbackFailed
            | CoreCodexErrorInfo::Other => Self::Other,
        }
    }
}

impl From<ErrorEvent> for TurnError {
    fn from(event: ErrorEvent) -> Self {
        Self {
            message: event.message,
            codex_error_info: event.codex_error_info.map(CodexErrorInfo::from),
            additional_details: None,
            misalignment: None,
        }
    }
}

impl From<StreamErrorEvent> for TurnError {
    fn from(event: StreamErrorEvent) -> Self {
        Self {
            message: event.message,
            codex_error_info: event.codex_error_info.map(CodexErrorInfo::from),
            additional_details: event.additional_details,
            misalignment: None,
        }
    }
}

/// One entry per touched file, sorted by path (the core map is already ordered).
pub fn convert_patch_changes(changes: BTreeMap<String, FileChange>) -> Vec<FileUpdateChange> {
    changes
        .into_iter()
        .map(|(path, change)| {
            let (kind, diff) = match change {
                FileChange::Add { content } => (PatchChangeKind::Add, content),
                FileChange::Delete { content } => (PatchChangeKind::Delete, content),
                FileChange::Update {
                    unified_diff,
                    move_path,
                } => (
                    PatchChangeKind::Update {
                        move_path: move_path.map(|path| path.display().to_string()),
                    },
                    unified_diff,
                ),
            };
            FileUpdateChange { path, kind, diff }
        })
        .collect()
}

/// Milliseconds of a duration, `None` when it does not fit an `i64` (never in practice).
pub fn duration_ms(duration: Duration) -> Option<i64> {
    i64::try_from(duration.as_millis()).ok()
}

/// The argv of a command as one string a person could paste into a POSIX shell: arguments made
/// only of safe characters stay bare, others are single-quoted.
pub fn shell_join(argv: &[String]) -> String {
    argv.iter()
        .map(|arg| shell_quote(arg))
        .collect::<Vec<_>>()
        .join(" ")
}

fn shell_quote(arg: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || "_@%+=:,./-".contains(c);
    if !arg.is_empty() && arg.chars().all(safe) {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r#"'"'"'"#))
    }
}

/// The text a client shows when review mode ends: the overall verdict, then each finding with
/// its location. Reviews that produced nothing say so rather than showing an empty item.
pub fn review_output_text(output: Option<&ReviewOutputEvent>) -> String {
    let Some(output) = output else {
        return "Reviewer failed to output a response.".to_owned();
    };
    let mut text = output.overall_explanation.trim().to_owned();
    for finding in &output.findings {
        if !text.is_empty() {
            text.push_str("\n\n");
        }
        let location = &finding.code_location;
        text.push_str(&format!(
            "- {} ({}:{}-{})\n  {}",
            finding.title.trim(),
            location.absolute_file_path.display(),
            location.line_range.start,
            location.line_range.end,
            finding.body.trim()
        ));
    }
    if text.is_empty() {
        "Reviewer failed to output a response.".to_owned()
    } else {
        text
    }
}
