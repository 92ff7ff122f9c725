//! Sample items shared by the unit tests of this module.

use serde_json::json;

use super::*;
use crate::response_item_id::ResponseItemId;

/// One item of every [`ResponseItem`] variant, ids unset, in declaration order.
pub(crate) fn one_of_each_variant() -> Vec<ResponseItem> {
    vec![
        ResponseItem::AdditionalTools {
            id: None,
            role: "developer".to_string(),
            tools: vec![json!({"type": "function", "name": "shell"})],
        },
        ResponseItem::user_text("hello"),
        ResponseItem::AgentMessage {
            id: None,
            author: "/root".to_string(),
            recipient: "/root/worker".to_string(),
            content: vec![AgentMessageInputContent::InputText {
                text: "go".to_string(),
            }],
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::Reasoning {
            id: None,
            summary: vec![ReasoningItemReasoningSummary::SummaryText {
                text: "thinking".to_string(),
            }],
            content: None,
            encrypted_content: Some("gAAAA".to_string()),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::LocalShellCall {
            encrypted_content: None,
            id: None,
            call_id: Some("call_ls".to_string()),
            status: LocalShellStatus::Completed,
            action: LocalShellAction::Exec(LocalShellExecAction {
                command: vec!["ls".to_string()],
                ..Default::default()
            }),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::function_call("shell", "{\"command\":[\"ls\"]}", "call_fn"),
        ResponseItem::ToolSearchCall {
            encrypted_content: None,
            id: None,
            call_id: Some("call_ts".to_string()),
            status: Some("completed".to_string()),
            execution: "client".to_string(),
            arguments: json!({"query": "calendar"}),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::function_call_output("call_fn", "a.txt"),
        ResponseItem::custom_tool_call("apply_patch", "*** Begin Patch", "call_ct"),
        ResponseItem::custom_tool_call_output("call_ct", "Done"),
        ResponseItem::ToolSearchOutput {
            id: None,
            call_id: Some("call_ts".to_string()),
            status: "completed".to_string(),
            execution: "client".to_string(),
            tools: vec![],
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::WebSearchCall {
            encrypted_content: None,
            id: None,
            status: Some("completed".to_string()),
            action: Some(WebSearchAction::Search {
                query: Some("rust".to_string()),
                queries: None,
            }),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::ImageGenerationCall {
            encrypted_content: None,
            id: None,
            status: "completed".to_string(),
            revised_prompt: None,
            result: "aGVsbG8=".to_string(),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::Compaction {
            id: None,
            encrypted_content: "enc".to_string(),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::ConfigurationUpdate {
            reasoning: ConfigurationReasoning {
                effort: ReasoningEffort::High,
            },
        },
        ResponseItem::CompactionTrigger {},
        ResponseItem::ContextCompaction {
            id: None,
            encrypted_content: None,
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::Other,
    ]
}

/// A fixed id for tests.
pub(crate) fn fixed_id(prefix: &str) -> ResponseItemId {
    ResponseItemId::with_suffix(prefix, "test")
}
