//! Sample values of every model family, one per variant, for the snapshot tests.

use std::collections::BTreeMap;

use codex_protocol::mcp::CallToolResult;
use codex_protocol::models::*;
use codex_protocol::response_item_id::ResponseItemId;
use serde_json::json;

pub(crate) fn id(prefix: &str) -> Option<ResponseItemId> {
    Some(ResponseItemId::with_suffix(
        prefix,
        "0190f3c1-0000-7000-8000-000000000001",
    ))
}

pub(crate) fn meta(turn: &str) -> Option<InternalChatMessageMetadataPassthrough> {
    Some(InternalChatMessageMetadataPassthrough {
        turn_id: Some(turn.to_string()),
        create_time: serde_json::Number::from_f64(1_788_214_171.128_268),
        ..Default::default()
    })
}

pub(crate) fn message_family() -> Vec<ResponseItem> {
    vec![
        ResponseItem::Message {
            encrypted_content: None,
            status: None,
            id: id("msg"),
            role: "user".to_string(),
            content: vec![
                ContentItem::input_text("What is in this picture?"),
                ContentItem::input_image_url(
                    "data:image/png;base64,iVBORw0K",
                    Some(ImageDetail::High),
                ),
                ContentItem::input_image_file("file_123", None),
                ContentItem::input_audio("data:audio/wav;base64,UklGR"),
            ],
            phase: None,
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
        ResponseItem::Message {
            encrypted_content: Some("enc_msg".to_string()),
            status: Some("completed".to_string()),
            id: id("msg"),
            role: "assistant".to_string(),
            content: vec![ContentItem::OutputText {
                text: "A cat.".to_string(),
                annotations: Some(vec![]),
                logprobs: None,
            }],
            phase: Some(MessagePhase::FinalAnswer),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::Message {
            encrypted_content: None,
            status: Some("in_progress".to_string()),
            id: id("msg"),
            role: "assistant".to_string(),
            content: vec![ContentItem::OutputText {
                text: "So far: two".to_string(),
                annotations: Some(vec![json!({"type": "url_citation", "url": "https://a.b"})]),
                logprobs: Some(vec![json!({"token": "So", "logprob": -0.01})]),
            }],
            phase: Some(MessagePhase::PartialAnswer),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::assistant_text(
            "[redacted phase]",
            Some(MessagePhase::Unknown("[redacted]".to_string())),
        ),
        ResponseItem::assistant_text("Looking at the files.", Some(MessagePhase::Commentary)),
        ResponseItem::developer_text("<permissions instructions>"),
        ResponseItem::AgentMessage {
            id: id("amsg"),
            author: "/root".to_string(),
            recipient: "/root/worker".to_string(),
            content: vec![
                AgentMessageInputContent::InputText {
                    text: "Summarize the logs.".to_string(),
                },
                AgentMessageInputContent::EncryptedContent {
                    encrypted_content: "enc".to_string(),
                },
            ],
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
        ResponseItem::AdditionalTools {
            id: id("at"),
            role: "developer".to_string(),
            tools: vec![json!({"type": "function", "name": "shell", "parameters": {}})],
        },
    ]
}

pub(crate) fn reasoning_family() -> Vec<ResponseItem> {
    vec![
        ResponseItem::Reasoning {
            id: id("rs"),
            summary: vec![ReasoningItemReasoningSummary::SummaryText {
                text: "**Planning**".to_string(),
            }],
            content: Some(vec![ReasoningItemContent::ReasoningText {
                text: "raw".to_string(),
            }]),
            encrypted_content: Some("gAAAAB".to_string()),
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
        ResponseItem::Reasoning {
            id: None,
            summary: vec![],
            content: None,
            encrypted_content: None,
            internal_chat_message_metadata_passthrough: None,
        },
    ]
}

pub(crate) fn tool_family() -> Vec<ResponseItem> {
    vec![
        ResponseItem::FunctionCall {
            encrypted_content: Some("enc_fc".to_string()),
            status: Some("completed".to_string()),
            id: id("fc"),
            name: "exec_command".to_string(),
            namespace: Some("mcp__node_repl__".to_string()),
            arguments: r#"{"cmd":"ls"}"#.to_string(),
            encrypted_function_args: Some(vec![]),
            call_id: "call_1".to_string(),
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
        ResponseItem::function_call_output("call_1", "a.txt\nb.txt\n"),
        ResponseItem::FunctionCallOutput {
            id: id("fco"),
            call_id: None,
            name: Some("external_tool".to_string()),
            namespace: Some("ext".to_string()),
            output: FunctionCallOutputPayload::from_content_items(vec![
                FunctionCallOutputContentItem::input_text("caption"),
                FunctionCallOutputContentItem::input_image_url(
                    "data:image/png;base64,AA",
                    Some(ImageDetail::Auto),
                ),
                FunctionCallOutputContentItem::InputImage {
                    image_url: None,
                    file_id: Some("file_456".to_string()),
                    detail: None,
                },
                FunctionCallOutputContentItem::InputAudio {
                    audio_url: "data:audio/wav;base64,BB".to_string(),
                },
                FunctionCallOutputContentItem::EncryptedContent {
                    encrypted_content: "enc_opaque".to_string(),
                },
            ]),
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
        ResponseItem::custom_tool_call("apply_patch", "*** Begin Patch\n*** End Patch", "call_2"),
        ResponseItem::custom_tool_call_output("call_2", "Success."),
        ResponseItem::CustomToolCall {
            encrypted_content: Some("enc_ctc".to_string()),
            id: id("ctc"),
            status: Some("completed".to_string()),
            call_id: "call_5".to_string(),
            name: "js".to_string(),
            namespace: Some("mcp__node_repl__".to_string()),
            input: "1 + 1".to_string(),
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
        ResponseItem::CustomToolCallOutput {
            id: None,
            call_id: "call_5".to_string(),
            name: Some("js".to_string()),
            output: FunctionCallOutputPayload::from_content_items(vec![
                FunctionCallOutputContentItem::input_text("2"),
                FunctionCallOutputContentItem::input_image_url(
                    "data:image/png;base64,CC",
                    Some(ImageDetail::High),
                ),
            ]),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::LocalShellCall {
            encrypted_content: Some("enc_lsh".to_string()),
            id: id("lsh"),
            call_id: Some("call_3".to_string()),
            status: LocalShellStatus::InProgress,
            action: LocalShellAction::Exec(LocalShellExecAction {
                command: vec!["bash".to_string(), "-lc".to_string(), "ls".to_string()],
                timeout_ms: Some(10_000),
                working_directory: Some("/repo".to_string()),
                env: Some(BTreeMap::from([("LANG".to_string(), "C".to_string())])),
                user: None,
            }),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::ToolSearchCall {
            encrypted_content: Some("enc_tsc".to_string()),
            id: id("tsc"),
            call_id: None,
            status: Some("completed".to_string()),
            execution: "server".to_string(),
            arguments: json!({"query": "calendar"}),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::ToolSearchOutput {
            id: id("tso"),
            call_id: Some("call_4".to_string()),
            status: "completed".to_string(),
            execution: "client".to_string(),
            tools: vec![json!({"type": "function", "name": "calendar_add"})],
            internal_chat_message_metadata_passthrough: meta("turn-1"),
        },
    ]
}

pub(crate) fn provider_family() -> Vec<ResponseItem> {
    vec![
        ResponseItem::WebSearchCall {
            encrypted_content: Some("enc_ws".to_string()),
            id: id("ws"),
            status: Some("completed".to_string()),
            action: Some(WebSearchAction::Search {
                query: Some("rust serde".to_string()),
                queries: Some(vec!["rust serde".to_string()]),
            }),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::WebSearchCall {
            encrypted_content: None,
            id: id("ws"),
            status: Some("completed".to_string()),
            action: Some(WebSearchAction::OpenPage {
                url: Some("https://serde.rs".to_string()),
            }),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::WebSearchCall {
            encrypted_content: None,
            id: id("ws"),
            status: None,
            action: Some(WebSearchAction::FindInPage {
                url: Some("https://serde.rs".to_string()),
                pattern: Some("flatten".to_string()),
            }),
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::ImageGenerationCall {
            encrypted_content: Some("enc_ig".to_string()),
            id: id("ig"),
            status: "completed".to_string(),
            revised_prompt: Some("a cat".to_string()),
            result: "iVBORw0K".to_string(),
            internal_chat_message_metadata_passthrough: None,
        },
    ]
}

pub(crate) fn compaction_family() -> Vec<ResponseItem> {
    vec![
        ResponseItem::Compaction {
            id: id("cmp"),
            encrypted_content: "summary_blob".to_string(),
            internal_chat_message_metadata_passthrough: meta("turn-2"),
        },
        ResponseItem::ContextCompaction {
            id: id("cmp"),
            encrypted_content: None,
            internal_chat_message_metadata_passthrough: None,
        },
        ResponseItem::CompactionTrigger {},
        ResponseItem::ConfigurationUpdate {
            reasoning: ConfigurationReasoning {
                effort: ReasoningEffort::High,
            },
        },
        ResponseItem::Other,
    ]
}

pub(crate) fn input_items() -> Vec<ResponseInputItem> {
    vec![
        ResponseInputItem::Message {
            role: "user".to_string(),
            content: vec![ContentItem::input_text("hi")],
            phase: None,
        },
        ResponseInputItem::Message {
            role: "assistant".to_string(),
            content: vec![ContentItem::output_text("hello")],
            phase: Some(MessagePhase::Commentary),
        },
        ResponseInputItem::FunctionCallOutput {
            call_id: "call_1".to_string(),
            output: FunctionCallOutputPayload::from_text("ok"),
        },
        ResponseInputItem::McpToolCallOutput {
            call_id: "call_2".to_string(),
            output: CallToolResult {
                content: vec![json!({"type": "text", "text": "42"})],
                structured_content: None,
                is_error: Some(false),
                meta: None,
            },
        },
        ResponseInputItem::CustomToolCallOutput {
            call_id: "call_3".to_string(),
            name: Some("apply_patch".to_string()),
            output: FunctionCallOutputPayload::from_text("Success."),
        },
        ResponseInputItem::ToolSearchOutput {
            call_id: "call_4".to_string(),
            status: "completed".to_string(),
            execution: "client".to_string(),
            tools: vec![],
        },
    ]
}
