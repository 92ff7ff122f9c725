//! Small item builders shared by the context manager's unit tests.

use codex_protocol::event::TokenUsage;
use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::InternalChatMessageMetadataPassthrough;
use codex_protocol::models::LocalShellAction;
use codex_protocol::models::LocalShellExecAction;
use codex_protocol::models::LocalShellStatus;
use codex_protocol::models::ReasoningItemReasoningSummary;
use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;
use codex_protocol::rollout::TurnContextItem;
use serde_json::json;

use super::ContextManager;
use super::InputModality;
use super::TruncationPolicy;

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
        arguments: json!({"query": "calendar"}),
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

/// The policy most tests record with: large enough to keep test outputs whole.
pub(crate) const POLICY: TruncationPolicy = TruncationPolicy::Tokens(10_000);

/// A fresh history holding `items`, recorded with [`POLICY`].
pub(crate) fn history_of(items: &[ResponseItem]) -> ContextManager {
    let mut history = ContextManager::new();
    history.record_items(items, POLICY);
    history
}

/// A turn context to use as the reference context item.
pub(crate) fn reference_item() -> TurnContextItem {
    TurnContextItem::new(
        "/repo",
        json!("on-request"),
        json!({"type": "read-only"}),
        "gpt-test",
    )
}

/// Usage of one response totalling `total` tokens.
pub(crate) fn usage(total: i64) -> TokenUsage {
    TokenUsage {
        input_tokens: total / 2,
        output_tokens: total - total / 2,
        total_tokens: total,
        ..TokenUsage::default()
    }
}

/// Every input modality.
pub(crate) const ALL: &[InputModality] = &[
    InputModality::Text,
    InputModality::Image,
    InputModality::Audio,
];
/// A text-only model.
pub(crate) const TEXT_ONLY: &[InputModality] = &[InputModality::Text];

/// Projects `items` through a fresh history, both exclusively owned and shared, and checks
/// that both paths agree.
pub(crate) fn project(items: Vec<ResponseItem>, modalities: &[InputModality]) -> Vec<ResponseItem> {
    let mut history = ContextManager::new();
    history.replace(items);
    let keep_alive = history.clone();
    let shared = history.clone().for_prompt(modalities);
    drop(keep_alive);
    let owned = history.for_prompt(modalities);
    assert_eq!(owned, shared, "owned and shared projections differ");
    owned
}
