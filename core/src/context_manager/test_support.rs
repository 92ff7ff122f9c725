//! Small item builders shared by the context manager's unit tests.

use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::InternalChatMessageMetadataPassthrough;
use codex_protocol::models::LocalShellAction;
use codex_protocol::models::LocalShellExecAction;
use codex_protocol::models::LocalShellStatus;
use codex_protocol::models::ReasoningItemReasoningSummary;
use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;

pub(crate) fn user(text: &str) -> ResponseItem {
    ResponseItem::user_text(text)
}

pub(crate) fn assistant(text: &str) -> ResponseItem {
    ResponseItem::assistant_text(text, None)
}

pub(crate) fn developer(text: &str) -> ResponseItem {
    ResponseItem::developer_text(text)
}

pub(crate) fn developer_parts(parts: &[&str]) -> ResponseItem {
    ResponseItem::message(
        "developer",
        parts
            .iter()
            .map(|part| ContentItem::input_text(*part))
            .collect(),
    )
}

pub(crate) fn system(text: &str) -> ResponseItem {
    ResponseItem::message("system", vec![ContentItem::input_text(text)])
}

pub(crate) fn reasoning(summary: &str) -> ResponseItem {
    ResponseItem::Reasoning {
        id: None,
        summary: vec![ReasoningItemReasoningSummary::SummaryText {
            text: summary.to_string(),
        }],
        content: None,
        encrypted_content: None,
        internal_chat_message_metadata_passthrough: None,
    }
}

pub(crate) fn function_call(call_id: &str) -> ResponseItem {
    ResponseItem::function_call("shell", "{}", call_id)
}

pub(crate) fn function_output(call_id: &str, text: &str) -> ResponseItem {
    ResponseItem::function_call_output(call_id, text)
}

pub(crate) fn custom_call(call_id: &str) -> ResponseItem {
    ResponseItem::custom_tool_call("apply_patch", "*** Begin Patch", call_id)
}

pub(crate) fn custom_output(call_id: &str, text: &str) -> ResponseItem {
    ResponseItem::custom_tool_call_output(call_id, text)
}

pub(crate) fn local_shell_call(call_id: Option<&str>) -> ResponseItem {
    ResponseItem::LocalShellCall {
        encrypted_content: None,
        id: None,
        call_id: call_id.map(str::to_string),
        status: LocalShellStatus::Completed,
        action: LocalShellAction::Exec(LocalShellExecAction {
            command: vec!["ls".to_string()],
            ..LocalShellExecAction::default()
        }),
        internal_chat_message_metadata_passthrough: None,
    }
}

pub(crate) fn tool_search_call(call_id: Option<&str>, execution: &str) -> ResponseItem {
    ResponseItem::ToolSearchCall {
        encrypted_content: None,
        id: None,
        call_id: call_id.map(str::to_string),
        status: None,
        execution: execution.to_string(),
        arguments: serde_json::json!({"query": "calendar"}),
        internal_chat_message_metadata_passthrough: None,
    }
}

pub(crate) fn tool_search_output(call_id: Option<&str>, execution: &str) -> ResponseItem {
    ResponseItem::ToolSearchOutput {
        id: None,
        call_id: call_id.map(str::to_string),
        status: "completed".to_string(),
        execution: execution.to_string(),
        tools: Vec::new(),
        internal_chat_message_metadata_passthrough: None,
    }
}

/// A `function_call_output` without call id, named: a standalone output.
pub(crate) fn named_output(name: &str, text: &str) -> ResponseItem {
    ResponseItem::FunctionCallOutput {
        id: None,
        call_id: None,
        name: Some(name.to_string()),
        namespace: None,
        output: FunctionCallOutputPayload::from_text(text),
        internal_chat_message_metadata_passthrough: None,
    }
}

/// `item` with its id set.
pub(crate) fn with_id(mut item: ResponseItem, id: &str) -> ResponseItem {
    item.set_id(Some(ResponseItemId::from(id)));
    item
}

/// `item` stamped with a turn id.
pub(crate) fn with_turn_id(mut item: ResponseItem, turn_id: &str) -> ResponseItem {
    item.set_turn_id_if_missing(turn_id);
    item
}

/// Metadata carrying only a turn id.
pub(crate) fn turn_metadata(turn_id: &str) -> InternalChatMessageMetadataPassthrough {
    InternalChatMessageMetadataPassthrough {
        turn_id: Some(turn_id.to_string()),
        ..InternalChatMessageMetadataPassthrough::default()
    }
}

/// The text of a tool output, for assertions.
pub(crate) fn output_text(item: &ResponseItem) -> Option<&str> {
    match item {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => output.text_content(),
        _ => None,
    }
}
