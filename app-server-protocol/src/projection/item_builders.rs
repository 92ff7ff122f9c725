//! Client items built from core events rather than from `TurnItem`s.
//!
//! Older cores (and the legacy rollout records every core still writes) describe commands,
//! patches, searches and messages with begin/end events instead of item events. The live
//! projector and the history builder both use these functions, so a command looks the same
//! whether it arrived live or was rebuilt from a session file.

use codex_protocol::event::{
    AgentMessageEvent, EnteredReviewModeEvent, ExecCommandBeginEvent, ExecCommandEndEvent,
    ExecCommandStatus, ImageGenerationEndEvent, McpToolCallBeginEvent, McpToolCallEndEvent,
    PatchApplyBeginEvent, PatchApplyEndEvent, UserMessageEvent, ViewImageToolCallEvent,
    WebSearchEndEvent,
};
use codex_protocol::items::ReviewOutputEvent;

use crate::v2::{
    CommandAction, CommandExecutionStatus, McpAppContext, McpToolCallError, McpToolCallResult,
    McpToolCallStatus, PatchApplyStatus, TextElement, ThreadItem, UserInput, convert_patch_changes,
    duration_ms, review_output_text, shell_join,
};

/// A command that has started: in progress, no output yet.
pub(crate) fn command_execution_started(begin: &ExecCommandBeginEvent) -> ThreadItem {
    ThreadItem::CommandExecution {
        id: begin.call_id.clone(),
        plugin_id: begin.plugin_id.clone(),
        script_path: begin.script_path.clone(),
        command: shell_join(&begin.command),
        cwd: begin.cwd.clone(),
        process_id: begin.process_id.clone(),
        source: begin.source.into(),
        status: CommandExecutionStatus::InProgress,
        command_actions: command_actions(&begin.parsed_cmd),
        aggregated_output: None,
        exit_code: None,
        duration_ms: None,
    }
}

/// A command that has ended, with its output, exit code and duration. Without an explicit
/// status (older cores), a zero exit code means completed and anything else failed.
pub fn command_execution_completed(end: &ExecCommandEndEvent) -> ThreadItem {
    let status = match end.status {
        Some(ExecCommandStatus::Completed) => CommandExecutionStatus::Completed,
        Some(ExecCommandStatus::Failed) => CommandExecutionStatus::Failed,
        Some(ExecCommandStatus::Declined) => CommandExecutionStatus::Declined,
        None if end.exit_code == 0 => CommandExecutionStatus::Completed,
        None => CommandExecutionStatus::Failed,
    };
    ThreadItem::CommandExecution {
        id: end.call_id.clone(),
        plugin_id: end.plugin_id.clone(),
        script_path: end.script_path.clone(),
        command: shell_join(&end.command),
        cwd: end.cwd.clone(),
        process_id: end.process_id.clone(),
        source: end.source.into(),
        status,
        command_actions: command_actions(&end.parsed_cmd),
        aggregated_output: Some(end.aggregated_output.clone()).filter(|output| !output.is_empty()),
        exit_code: Some(end.exit_code),
        duration_ms: duration_ms(end.duration),
    }
}

fn command_actions(parsed: &[codex_protocol::items::ParsedCommand]) -> Vec<CommandAction> {
    parsed.iter().cloned().map(CommandAction::from).collect()
}

/// A patch that is being applied (or awaits approval).
pub(crate) fn file_change_started(begin: &PatchApplyBeginEvent) -> ThreadItem {
    ThreadItem::FileChange {
        id: begin.call_id.clone(),
        changes: convert_patch_changes(begin.changes.clone()),
        status: PatchApplyStatus::InProgress,
    }
}

/// The start of the patch `completed` (a file change): its changes, in progress.
pub(crate) fn file_change_begun(completed: &ThreadItem) -> ThreadItem {
    match completed {
        ThreadItem::FileChange { id, changes, .. } => ThreadItem::FileChange {
            id: id.clone(),
            changes: changes.clone(),
            status: PatchApplyStatus::InProgress,
        },
        other => other.clone(),
    }
}

/// A patch that has been applied, failed or been declined.
pub(crate) fn file_change_completed(end: &PatchApplyEndEvent) -> ThreadItem {
    let status = match end.status {
        Some(status) => status.into(),
        None if end.success => PatchApplyStatus::Completed,
        None => PatchApplyStatus::Failed,
    };
    ThreadItem::FileChange {
        id: end.call_id.clone(),
        changes: convert_patch_changes(end.changes.clone()),
        status,
    }
}

/// A finished web search.
pub(crate) fn web_search_completed(end: &WebSearchEndEvent) -> ThreadItem {
    ThreadItem::WebSearch {
        id: end.call_id.clone(),
        query: end.query.clone(),
        action: end.action.clone().map(Into::into),
        results: end.results.clone(),
    }
}

/// A finished image generation.
pub(crate) fn image_generation_completed(end: &ImageGenerationEndEvent) -> ThreadItem {
    ThreadItem::ImageGeneration {
        id: end.call_id.clone(),
        status: end.status.clone(),
        revised_prompt: end.revised_prompt.clone(),
        result: end.result.clone(),
        saved_path: end.saved_path.clone(),
    }
}

/// An image the agent looked at.
pub(crate) fn image_view(event: &ViewImageToolCallEvent) -> ThreadItem {
    ThreadItem::ImageView {
        id: event.call_id.clone(),
        path: event.path.clone(),
    }
}

/// An MCP call that has started.
pub(crate) fn mcp_tool_call_started(begin: &McpToolCallBeginEvent) -> ThreadItem {
    ThreadItem::McpToolCall {
        id: begin.call_id.clone(),
        server: begin.invocation.server.clone(),
        tool: begin.invocation.tool.clone(),
        status: McpToolCallStatus::InProgress,
        arguments: begin
            .invocation
            .arguments
            .clone()
            .unwrap_or(serde_json::Value::Null),
        app_context: app_context(
            begin.connector_id.as_ref(),
            begin.link_id.as_ref(),
            begin.mcp_app_resource_uri.as_ref(),
        ),
        mcp_app_resource_uri: begin.mcp_app_resource_uri.clone(),
        plugin_id: begin.plugin_id.clone(),
        mcp_app_ui: begin.mcp_app_ui.clone().map(|ui| Box::new(ui.into())),
        read_only_hint: begin.read_only_hint,
        environment_id: None,
        result: None,
        error: None,
        duration_ms: None,
    }
}

/// An MCP call that has ended, successfully or not.
pub(crate) fn mcp_tool_call_completed(end: &McpToolCallEndEvent) -> ThreadItem {
    let (status, result, error) = match &end.result {
        Ok(result) if result.success() => (
            McpToolCallStatus::Completed,
            Some(Box::new(McpToolCallResult::from(result.clone()))),
            None,
        ),
        Ok(result) => (
            McpToolCallStatus::Failed,
            Some(Box::new(McpToolCallResult::from(result.clone()))),
            None,
        ),
        Err(message) => (
            McpToolCallStatus::Failed,
            None,
            Some(McpToolCallError {
                message: message.clone(),
            }),
        ),
    };
    ThreadItem::McpToolCall {
        id: end.call_id.clone(),
        server: end.invocation.server.clone(),
        tool: end.invocation.tool.clone(),
        status,
        arguments: end
            .invocation
            .arguments
            .clone()
            .unwrap_or(serde_json::Value::Null),
        app_context: app_context(
            end.connector_id.as_ref(),
            end.link_id.as_ref(),
            end.mcp_app_resource_uri.as_ref(),
        ),
        mcp_app_resource_uri: end.mcp_app_resource_uri.clone(),
        plugin_id: end.plugin_id.clone(),
        mcp_app_ui: end.mcp_app_ui.clone().map(|ui| Box::new(ui.into())),
        read_only_hint: end.read_only_hint,
        environment_id: None,
        result,
        error,
        duration_ms: duration_ms(end.duration),
    }
}

fn app_context(
    connector_id: Option<&String>,
    link_id: Option<&String>,
    resource_uri: Option<&String>,
) -> Option<McpAppContext> {
    connector_id.map(|connector_id| McpAppContext {
        connector_id: connector_id.clone(),
        link_id: link_id.cloned(),
        resource_uri: resource_uri.cloned(),
    })
}

/// The person's message as recorded by the legacy `user_message` event: the text (when not
/// blank), then remote images, then local images and audio, in that order.
pub fn user_message_from_event(id: String, event: &UserMessageEvent) -> ThreadItem {
    let mut content = Vec::new();
    if !event.message.trim().is_empty() {
        content.push(UserInput::Text {
            text: event.message.clone(),
            text_elements: event
                .text_elements
                .iter()
                .cloned()
                .map(TextElement::from)
                .collect(),
        });
    }
    for url in event.images.iter().flatten() {
        content.push(UserInput::Image {
            detail: None,
            url: url.clone(),
        });
    }
    for path in &event.local_images {
        content.push(UserInput::LocalImage {
            path: path.display().to_string(),
        });
    }
    for url in event.audio.iter().flatten() {
        content.push(UserInput::Audio { url: url.clone() });
    }
    for path in &event.local_audio {
        content.push(UserInput::LocalAudio {
            path: path.display().to_string(),
        });
    }
    ThreadItem::UserMessage {
        id,
        client_id: event.client_id.clone(),
        content,
    }
}

/// The agent's message as recorded by the legacy `agent_message` event.
pub(crate) fn agent_message_from_event(id: String, event: &AgentMessageEvent) -> ThreadItem {
    ThreadItem::AgentMessage {
        moderation: None,
        id,
        text: event.message.clone(),
        phase: event.phase.clone(),
        memory_citation: event.memory_citation.clone().map(Into::into),
        delivery: event.delivery,
        questions: event.questions.clone(),
    }
}

/// Review mode began.
pub fn entered_review_mode(id: String, event: &EnteredReviewModeEvent) -> ThreadItem {
    ThreadItem::EnteredReviewMode {
        id,
        review: event
            .user_facing_hint
            .clone()
            .or_else(|| event.prompt.clone())
            .unwrap_or_default(),
    }
}

/// Review mode ended, with the review's text.
pub fn exited_review_mode(id: String, review_output: Option<&ReviewOutputEvent>) -> ThreadItem {
    ThreadItem::ExitedReviewMode {
        id,
        review: review_output_text(review_output),
    }
}
