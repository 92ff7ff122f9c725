//! `From<TurnItem> for ThreadItem`: the core's semantic item becomes the client's.
//!
//! Every core variant has a client item. Agent message parts are joined into one text;
//! reasoning keeps summary and raw content apart; a web search always carries its action; a
//! file change without a status is still in progress; an MCP call gets an app context only
//! when a connector served it; an extension item becomes `sleep` when it is the clock
//! extension's sleep and passes through as `extension` otherwise.

use codex_protocol::items::{
    AgentMessageItem, CollabAgentToolCallItem, CommandExecutionItem, DynamicToolCallItem,
    ExtensionItem, FileChangeItem, McpToolCallItem, McpToolCallStatus as CoreMcpStatus, TurnItem,
};

use super::from_core_parts::{convert_patch_changes, duration_ms, review_output_text, shell_join};
use super::item::ThreadItem;
use super::item_parts::{
    CommandAction, HookPromptFragment, McpAppContext, McpToolCallError, McpToolCallStatus,
    PatchApplyStatus,
};

/// Kind of the clock extension's sleep item, the one extension with a dedicated client shape.
pub const SLEEP_EXTENSION_KIND: &str = "clock.sleep";

impl From<TurnItem> for ThreadItem {
    fn from(item: TurnItem) -> Self {
        match item {
            TurnItem::UserMessage(user) => Self::UserMessage {
                id: user.id,
                client_id: user.client_id,
                content: user.content.into_iter().map(Into::into).collect(),
            },
            TurnItem::FunctionCallOutput(output) => Self::FunctionCallOutput {
                id: output.id,
                name: output.name,
                namespace: output.namespace,
                output: output.output,
            },
            TurnItem::HookPrompt(hook) => Self::HookPrompt {
                id: hook.id,
                fragments: hook
                    .fragments
                    .into_iter()
                    .map(|fragment| HookPromptFragment {
                        text: fragment.text,
                        hook_run_id: fragment.hook_run_id,
                    })
                    .collect(),
            },
            TurnItem::AgentMessage(agent) => agent_message(agent),
            TurnItem::Plan(plan) => Self::Plan {
                id: plan.id,
                text: plan.text,
            },
            TurnItem::Reasoning(reasoning) => Self::Reasoning {
                id: reasoning.id,
                summary: reasoning.summary_text,
                content: reasoning.raw_content,
            },
            TurnItem::CommandExecution(command) => command_execution(command),
            TurnItem::DynamicToolCall(call) => dynamic_tool_call(call),
            TurnItem::CollabAgentToolCall(call) => collab_agent_tool_call(call),
            TurnItem::SubAgentActivity(activity) => Self::SubAgentActivity {
                id: activity.id,
                kind: activity.kind.into(),
                agent_thread_id: activity.agent_thread_id.to_string(),
                agent_path: activity.agent_path,
                model: activity.model,
                reasoning_effort: activity.reasoning_effort,
            },
            TurnItem::WebSearch(search) => Self::WebSearch {
                id: search.id,
                query: search.query,
                action: Some(search.action.into()),
                results: search.results,
            },
            TurnItem::ImageView(view) => Self::ImageView {
                id: view.id,
                path: view.path,
            },
            TurnItem::Extension(extension) => extension_item(extension),
            TurnItem::ImageGeneration(image) => Self::ImageGeneration {
                id: image.id,
                status: image.status,
                revised_prompt: image.revised_prompt,
                result: image.result,
                saved_path: image.saved_path,
            },
            TurnItem::EnteredReviewMode(review) => Self::EnteredReviewMode {
                id: review.id,
                review: review.user_facing_hint,
            },
            TurnItem::ExitedReviewMode(review) => Self::ExitedReviewMode {
                id: review.id,
                review: review_output_text(review.review_output.as_ref()),
            },
            TurnItem::FileChange(change) => file_change(change),
            TurnItem::McpToolCall(call) => mcp_tool_call(call),
            TurnItem::ContextCompaction(compaction) => {
                Self::ContextCompaction { id: compaction.id }
            }
        }
    }
}

fn agent_message(agent: AgentMessageItem) -> ThreadItem {
    let text = agent.text();
    ThreadItem::AgentMessage {
        moderation: None,
        id: agent.id,
        text,
        phase: agent.phase,
        memory_citation: agent.memory_citation.map(Into::into),
        delivery: agent.delivery,
        questions: agent.questions,
    }
}

fn command_execution(command: CommandExecutionItem) -> ThreadItem {
    let cwd = path_of_file_uri(command.cwd);
    ThreadItem::CommandExecution {
        id: command.id,
        plugin_id: command.plugin_id,
        script_path: command.script_path,
        command: shell_join(&command.command),
        process_id: command.process_id,
        source: command.source.into(),
        status: command.status.into(),
        command_actions: command
            .parsed_cmd
            .into_iter()
            .map(|parsed| read_path_under(CommandAction::from(parsed), &cwd))
            .collect(),
        cwd,
        aggregated_output: command
            .aggregated_output
            .filter(|output| !output.is_empty()),
        exit_code: command.exit_code,
        duration_ms: command.duration.and_then(duration_ms),
    }
}

fn dynamic_tool_call(call: DynamicToolCallItem) -> ThreadItem {
    ThreadItem::DynamicToolCall {
        id: call.id,
        namespace: call.namespace,
        tool: call.tool,
        arguments: call.arguments,
        status: call.status.into(),
        content_items: call
            .content_items
            .map(|items| items.into_iter().map(Into::into).collect()),
        success: call.success,
        duration_ms: call.duration.and_then(duration_ms),
    }
}

fn collab_agent_tool_call(call: CollabAgentToolCallItem) -> ThreadItem {
    ThreadItem::CollabAgentToolCall {
        id: call.id,
        tool: call.tool.into(),
        status: call.status.into(),
        sender_thread_id: call.sender_thread_id.to_string(),
        receiver_thread_ids: call
            .receiver_thread_ids
            .iter()
            .map(ToString::to_string)
            .collect(),
        prompt: call.prompt,
        model: call.model,
        reasoning_effort: call.reasoning_effort,
        agents_states: call
            .agents_states
            .into_iter()
            .map(|(thread_id, status)| (thread_id, status.into()))
            .collect(),
    }
}

fn extension_item(extension: ExtensionItem) -> ThreadItem {
    if extension.kind == SLEEP_EXTENSION_KIND
        && let Some(duration_ms) = extension
            .field("durationMs")
            .and_then(serde_json::Value::as_i64)
    {
        return ThreadItem::Sleep {
            id: extension.id,
            duration_ms,
        };
    }
    ThreadItem::Extension {
        id: extension.id,
        kind: extension.kind,
        fields: extension.fields,
    }
}

fn file_change(change: FileChangeItem) -> ThreadItem {
    ThreadItem::FileChange {
        id: change.id,
        changes: convert_patch_changes(change.changes),
        status: change
            .status
            .map_or(PatchApplyStatus::InProgress, PatchApplyStatus::from),
    }
}

fn mcp_tool_call(call: McpToolCallItem) -> ThreadItem {
    let app_context = call.connector_id.map(|connector_id| McpAppContext {
        connector_id,
        link_id: call.link_id,
        resource_uri: call.mcp_app_resource_uri.clone(),
    });
    ThreadItem::McpToolCall {
        id: call.id,
        server: call.server,
        tool: call.tool,
        status: match call.status {
            CoreMcpStatus::InProgress => McpToolCallStatus::InProgress,
            CoreMcpStatus::Completed => McpToolCallStatus::Completed,
            CoreMcpStatus::Failed => McpToolCallStatus::Failed,
        },
        arguments: call.arguments,
        app_context,
        mcp_app_resource_uri: call.mcp_app_resource_uri,
        plugin_id: call.plugin_id,
        mcp_app_ui: call.mcp_app_ui.map(|ui| Box::new(ui.into())),
        read_only_hint: call.read_only_hint,
        environment_id: None,
        result: call.result.map(|result| Box::new(result.into())),
        error: call.error.map(|error| McpToolCallError {
            message: error.message,
        }),
        duration_ms: call.duration.and_then(duration_ms),
    }
}

/// A read action names the file it reads relative to the command's folder; Codex shows the
/// path the file has, under `cwd` (a path already absolute stays as it is).
fn read_path_under(action: CommandAction, cwd: &str) -> CommandAction {
    match action {
        CommandAction::Read {
            command,
            name,
            path,
        } if !path.starts_with('/') && cwd.starts_with('/') => CommandAction::Read {
            command,
            name,
            path: std::path::Path::new(cwd).join(path).display().to_string(),
        },
        other => other,
    }
}

/// A command's working directory as a path: typed items record it as a `file://` URI (0.160
/// and later), which Codex shows as the path it names. Anything else is kept as written.
fn path_of_file_uri(cwd: String) -> String {
    match cwd.strip_prefix("file://") {
        Some(path) if path.starts_with('/') => percent_decoded(path).unwrap_or(cwd),
        _ => cwd,
    }
}

/// `%XX` escapes of a URI path decoded; `None` when an escape is malformed or the bytes are
/// not UTF-8.
fn percent_decoded(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut index = 0;
    while index < bytes.len() {
        if bytes[index] == b'%' {
            let hex = std::str::from_utf8(bytes.get(index + 1..index + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            index += 3;
        } else {
            out.push(bytes[index]);
            index += 1;
        }
    }
    String::from_utf8(out).ok()
}
