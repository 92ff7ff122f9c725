//! What of a rollout item the search index holds: the text a person sees of it, with a role.
//!
//! Only response items are read (both history modes write them; the events of a legacy file
//! repeat the same messages, so reading both would index everything twice):
//! - user and assistant messages as core's [`parse_turn_item`] shows them (injected context
//!   is not a user message there, so it is not indexed as one);
//! - reasoning summaries (not raw reasoning, not encrypted content);
//! - tool calls: the tool's name and its arguments (or freeform input, or the local shell
//!   command); web searches by their query;
//! - tool outputs, cut to [`OUTPUT_CAP`] bytes each: the head of a long output is what a
//!   person looks for, and whole outputs would make the index as big as the files;
//! - the paths an `apply_patch` call changes, as core's [`ToolInvocation`] reads the patch.

use codex_core::{parse_turn_item, web_search_action_detail};
use codex_protocol::items::{AgentMessageContent, FileChange, TurnItem};
use codex_protocol::models::{LocalShellAction, ResponseItem};
use codex_protocol::tool_call::ToolInvocation;

/// The most bytes of one tool call's arguments or one tool output that are indexed.
pub const OUTPUT_CAP: usize = 8 * 1024;

/// Who an indexed text is from (serialized as [`Role::as_str`] names it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// The person.
    User,
    /// The model: its messages and reasoning summaries.
    Assistant,
    /// Tools: calls, outputs and patched paths.
    Tool,
}

impl Role {
    /// The role's name in the index, on the command line and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            Role::User => "user",
            Role::Assistant => "assistant",
            Role::Tool => "tool",
        }
    }

    /// The role named `name` ([`Role::as_str`]).
    pub fn parse(name: &str) -> Option<Self> {
        [Role::User, Role::Assistant, Role::Tool]
            .into_iter()
            .find(|role| role.as_str() == name)
    }
}

/// What kind of item an indexed text came from (serialized as [`TextKind::as_str`] names
/// it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TextKind {
    /// A user or assistant message.
    Message,
    /// A reasoning summary.
    Reasoning,
    /// A tool call's name and arguments.
    ToolCall,
    /// A tool's output (capped).
    ToolOutput,
    /// The paths a patch changes.
    Patch,
}

impl TextKind {
    /// The kind's name in the index and in JSON.
    pub fn as_str(self) -> &'static str {
        match self {
            TextKind::Message => "message",
            TextKind::Reasoning => "reasoning",
            TextKind::ToolCall => "tool_call",
            TextKind::ToolOutput => "tool_output",
            TextKind::Patch => "patch",
        }
    }

    /// The kind named `name` ([`TextKind::as_str`]).
    pub fn parse(name: &str) -> Option<Self> {
        [
            TextKind::Message,
            TextKind::Reasoning,
            TextKind::ToolCall,
            TextKind::ToolOutput,
            TextKind::Patch,
        ]
        .into_iter()
        .find(|kind| kind.as_str() == name)
    }
}

/// One text the index holds for an item.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Text {
    pub(crate) role: Role,
    pub(crate) kind: TextKind,
    pub(crate) text: String,
}

/// The texts of one response item, in the order a person reads them (a patch's call before
/// its paths).
pub(crate) fn texts_of(item: &ResponseItem) -> Vec<Text> {
    let mut texts = Vec::new();
    let mut push = |role, kind, text: String| {
        if !text.trim().is_empty() {
            texts.push(Text { role, kind, text });
        }
    };
    match item {
        ResponseItem::Message { .. } | ResponseItem::Reasoning { .. } => {
            match parse_turn_item(item) {
                Some(TurnItem::UserMessage(message)) => {
                    push(Role::User, TextKind::Message, message.message());
                }
                Some(TurnItem::HookPrompt(_)) | None => {}
                Some(TurnItem::AgentMessage(message)) => {
                    let text = message
                        .content
                        .iter()
                        .map(|part| match part {
                            AgentMessageContent::Text { text } => text.as_str(),
                        })
                        .collect::<Vec<_>>()
                        .join("\n");
                    push(Role::Assistant, TextKind::Message, text);
                }
                Some(TurnItem::Reasoning(reasoning)) => {
                    push(
                        Role::Assistant,
                        TextKind::Reasoning,
                        reasoning.summary_text.join("\n"),
                    );
                }
                Some(_) => {}
            }
        }
        ResponseItem::FunctionCall {
            name,
            namespace,
            arguments,
            ..
        } => {
            let name = match namespace {
                Some(namespace) if !name.starts_with(namespace.as_str()) => {
                    format!("{namespace}{name}")
                }
                _ => name.clone(),
            };
            push(Role::Tool, TextKind::ToolCall, call_text(&name, arguments));
        }
        ResponseItem::CustomToolCall { name, input, .. } => {
            push(Role::Tool, TextKind::ToolCall, call_text(name, input));
        }
        ResponseItem::LocalShellCall {
            action: LocalShellAction::Exec(exec),
            ..
        } => push(
            Role::Tool,
            TextKind::ToolCall,
            call_text("local_shell", &exec.command.join(" ")),
        ),
        ResponseItem::ToolSearchCall { arguments, .. } => push(
            Role::Tool,
            TextKind::ToolCall,
            call_text("tool_search", &arguments.to_string()),
        ),
        ResponseItem::WebSearchCall {
            action: Some(action),
            ..
        } => push(
            Role::Tool,
            TextKind::ToolCall,
            call_text("web_search", &web_search_action_detail(action)),
        ),
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => {
            if let Some(text) = output.body.to_text() {
                push(Role::Tool, TextKind::ToolOutput, capped(&text).to_string());
            }
        }
        _ => {}
    }
    if let ToolInvocation::ApplyPatch { changes } = ToolInvocation::of_call(item) {
        let mut paths = Vec::new();
        for (path, change) in &changes {
            paths.push(path.clone());
            if let FileChange::Update {
                move_path: Some(to),
                ..
            } = change
            {
                paths.push(to.display().to_string());
            }
        }
        push(Role::Tool, TextKind::Patch, paths.join("\n"));
    }
    texts
}

fn call_text(name: &str, arguments: &str) -> String {
    format!("{name} {}", capped(arguments))
}

/// The first [`OUTPUT_CAP`] bytes of `text`, cut at a character boundary.
pub(crate) fn capped(text: &str) -> &str {
    if text.len() <= OUTPUT_CAP {
        return text;
    }
    let mut end = OUTPUT_CAP;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}
