//! One sample `TurnItem` per variant (more for the variants with optional parts), and the
//! sub-values the event samples share.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use codex_protocol::items::*;
use codex_protocol::mcp::CallToolResult;
use codex_protocol::models::FunctionCallOutputBody;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::ImageDetail;
use codex_protocol::models::MessagePhase;
use codex_protocol::models::WebSearchAction;
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::ByteRange;
use codex_protocol::user_input::TextElement;
use codex_protocol::user_input::UserInput;
use serde_json::Value;
use serde_json::json;

pub(crate) const THREAD: &str = "019a93b9-f380-7600-98ff-940e6b99603c";
pub(crate) const OTHER_THREAD: &str = "019a93b9-f380-7600-98ff-940e6b99603d";

/// The thread ids the samples use (fixed, so snapshots are stable).
pub(crate) fn thread(id: &str) -> ThreadId {
    match id {
        OTHER_THREAD => ThreadId::from_uuid(uuid::Uuid::from_u128(
            0x019a93b9_f380_7600_98ff_940e6b99603d,
        )),
        _ => ThreadId::from_uuid(uuid::Uuid::from_u128(
            0x019a93b9_f380_7600_98ff_940e6b99603c,
        )),
    }
}

pub(crate) fn text(value: &str) -> String {
    value.to_string()
}

pub(crate) fn sample_changes() -> BTreeMap<String, FileChange> {
    BTreeMap::from([
        (
            text("src/new.rs"),
            FileChange::Add {
                content: text("fn main() {}\n"),
            },
        ),
        (
            text("src/old.rs"),
            FileChange::Delete {
                content: text("// gone\n"),
            },
        ),
        (
            text("src/lib.rs"),
            FileChange::Update {
                unified_diff: text("@@ -1 +1 @@\n-a\n+b\n"),
                move_path: Some(PathBuf::from("src/core.rs")),
            },
        ),
    ])
}

pub(crate) fn sample_review_output() -> ReviewOutputEvent {
    ReviewOutputEvent {
        findings: vec![ReviewFinding {
            title: text("Unchecked index"),
            body: text("`v[i]` may panic."),
            confidence_score: 0.5,
            priority: 1,
            code_location: ReviewCodeLocation {
                absolute_file_path: PathBuf::from("/repo/src/lib.rs"),
                line_range: ReviewLineRange { start: 3, end: 4 },
            },
        }],
        overall_correctness: text("patch is incorrect"),
        overall_explanation: text("one panic path"),
        overall_confidence_score: 0.75,
    }
}

pub(crate) fn sample_call_tool_result() -> CallToolResult {
    CallToolResult {
        content: vec![json!({"type": "text", "text": "3 results"})],
        structured_content: Some(json!({"count": 3})),
        is_error: Some(false),
        meta: None,
    }
}

pub(crate) fn turn_items() -> Vec<(&'static str, TurnItem)> {
    vec![
        (
            "UserMessage",
            TurnItem::UserMessage(UserMessageItem {
                id: text("item-user"),
                client_id: Some(text("client-7")),
                content: vec![
                    UserInput::Text {
                        text: text("fix [paste]"),
                        text_elements: vec![TextElement::new(
                            ByteRange::from(4..11),
                            Some(text("[paste]")),
                        )],
                    },
                    UserInput::Image {
                        image_url: text("https://example.com/a.png"),
                        detail: Some(ImageDetail::High),
                    },
                    UserInput::LocalImage {
                        path: PathBuf::from("/tmp/b.png"),
                        detail: None,
                    },
                    UserInput::Audio {
                        audio_url: text("data:audio/wav;base64,UklG"),
                    },
                    UserInput::LocalAudio {
                        path: PathBuf::from("/tmp/c.ogg"),
                    },
                    UserInput::Skill {
                        name: text("demo"),
                        path: PathBuf::from("skills/demo/SKILL.md"),
                    },
                    UserInput::Mention {
                        name: text("drive"),
                        path: text("app://drive"),
                    },
                ],
            }),
        ),
        (
            "FunctionCallOutput",
            TurnItem::FunctionCallOutput(FunctionCallOutputItem {
                id: text("item-output"),
                name: text("screenshot"),
                namespace: Some(text("browser")),
                output: FunctionCallOutputBody::ContentItems(vec![
                    FunctionCallOutputContentItem::input_text("the page"),
                    FunctionCallOutputContentItem::input_image_url(
                        "data:image/png;base64,iVBO",
                        Some(ImageDetail::High),
                    ),
                    FunctionCallOutputContentItem::InputImage {
                        image_url: None,
                        file_id: Some(text("file_123")),
                        detail: None,
                    },
                ]),
            }),
        ),
        (
            "FunctionCallOutput_text",
            TurnItem::FunctionCallOutput(FunctionCallOutputItem {
                id: text("item-output-2"),
                name: text("clock.now"),
                namespace: None,
                output: FunctionCallOutputBody::Text(text("12:00")),
            }),
        ),
        (
            "HookPrompt",
            TurnItem::HookPrompt(HookPromptItem {
                id: text("item-hook"),
                fragments: vec![HookPromptFragment::from_single_hook(
                    "run tests",
                    "hook-run-1",
                )],
            }),
        ),
        (
            "AgentMessage",
            TurnItem::AgentMessage(AgentMessageItem {
                id: text("msg_1"),
                content: vec![AgentMessageContent::Text {
                    text: text("Done."),
                }],
                phase: Some(MessagePhase::FinalAnswer),
                memory_citation: Some(MemoryCitation {
                    entries: vec![MemoryCitationEntry {
                        path: text("memories/a.md"),
                        line_start: 1,
                        line_end: 2,
                        note: text("style"),
                    }],
                    rollout_ids: vec![text(THREAD)],
                }),
                delivery: Some(AgentMessageDelivery::Async),
                questions: Some(vec![AsyncUserInputQuestion {
                    title: text("Ship it?"),
                    options: Some(vec![text("yes"), text("no")]),
                }]),
            }),
        ),
        (
            "AgentMessage_minimal",
            TurnItem::AgentMessage(AgentMessageItem::new(
                "msg_2",
                vec![AgentMessageContent::Text {
                    text: text("Working..."),
                }],
            )),
        ),
        (
            "Plan",
            TurnItem::Plan(PlanItem {
                id: text("item-plan"),
                text: text("1. Read\n2. Fix"),
            }),
        ),
        (
            "Reasoning",
            TurnItem::Reasoning(ReasoningItem {
                id: text("rs_1"),
                summary_text: vec![text("**Reading the code**")],
                raw_content: vec![text("raw thought")],
            }),
        ),
        (
            "CommandExecution",
            TurnItem::CommandExecution(CommandExecutionItem {
                id: text("call_1"),
                plugin_id: None,
                script_path: None,
                process_id: Some(text("proc-1")),
                command: vec![text("bash"), text("-lc"), text("rg TODO")],
                cwd: text("/repo"),
                parsed_cmd: vec![
                    ParsedCommand::Search {
                        cmd: text("rg TODO"),
                        query: Some(text("TODO")),
                        path: None,
                    },
                    ParsedCommand::Read {
                        cmd: text("cat a.rs"),
                        name: text("a.rs"),
                        path: PathBuf::from("a.rs"),
                    },
                    ParsedCommand::ListFiles {
                        cmd: text("ls"),
                        path: Some(text(".")),
                    },
                    ParsedCommand::Unknown { cmd: text("make") },
                ],
                source: ExecCommandSource::UnifiedExecStartup,
                interaction_input: None,
                status: CommandExecutionStatus::Completed,
                aggregated_output: Some(text("a.rs:1:TODO\n")),
                exit_code: Some(0),
                duration: Some(Duration::from_millis(1250)),
            }),
        ),
        (
            "DynamicToolCall",
            TurnItem::DynamicToolCall(DynamicToolCallItem {
                id: text("call_2"),
                namespace: Some(text("browser")),
                tool: text("screenshot"),
                arguments: json!({"url": "https://example.com"}),
                status: DynamicToolCallStatus::Completed,
                content_items: Some(vec![
                    DynamicToolCallOutputContentItem::InputText { text: text("ok") },
                    DynamicToolCallOutputContentItem::InputImage {
                        image_url: text("data:image/png;base64,AA"),
                    },
                    DynamicToolCallOutputContentItem::InputAudio {
                        audio_url: text("data:audio/wav;base64,AA"),
                    },
                ]),
                success: Some(true),
                error: None,
                duration: Some(Duration::from_secs(2)),
            }),
        ),
        (
            "CollabAgentToolCall",
            TurnItem::CollabAgentToolCall(CollabAgentToolCallItem {
                id: text("call_3"),
                tool: CollabAgentTool::SpawnAgent,
                status: CollabAgentToolCallStatus::Completed,
                sender_thread_id: thread(THREAD),
                receiver_thread_ids: vec![thread(OTHER_THREAD)],
                receiver_agents: vec![
                    json!({"thread_id": OTHER_THREAD, "agent_nickname": "scout"}),
                ],
                prompt: Some(text("look around")),
                model: Some(text("gpt-5")),
                reasoning_effort: Some(text("low")),
                agents_states: BTreeMap::from([
                    (
                        text(OTHER_THREAD),
                        AgentStatus::Completed(Some(text("found it"))),
                    ),
                    (text("errored-agent"), AgentStatus::Errored(text("crashed"))),
                    (text("running-agent"), AgentStatus::Running),
                ]),
            }),
        ),
        (
            "SubAgentActivity",
            TurnItem::SubAgentActivity(SubAgentActivityItem {
                model: None,
                reasoning_effort: Some(text("high")),
                id: text("item-sub"),
                kind: SubAgentActivityKind::Interacted,
                agent_thread_id: thread(OTHER_THREAD),
                agent_path: text("/root/scout"),
            }),
        ),
        (
            "WebSearch",
            TurnItem::WebSearch(WebSearchItem {
                id: text("ws_1"),
                query: text("rust serde flatten"),
                action: WebSearchAction::Search {
                    query: Some(text("rust serde flatten")),
                    queries: None,
                },
                results: Some(vec![
                    json!({"title": "serde docs", "url": "https://serde.rs"}),
                ]),
            }),
        ),
        (
            "ImageView",
            TurnItem::ImageView(ImageViewItem {
                id: text("call_4"),
                path: text("/repo/shot.png"),
            }),
        ),
        (
            "Extension",
            TurnItem::Extension(ExtensionItem::new(
                "clock.sleep",
                "sleep-1",
                serde_json::Map::from_iter([(text("durationMs"), json!(1000))]),
            )),
        ),
        (
            "ImageGeneration",
            TurnItem::ImageGeneration(ImageGenerationItem {
                id: text("ig_1"),
                status: text("completed"),
                revised_prompt: Some(text("a red fox")),
                result: text("iVBORw0KGgo="),
                saved_path: Some(text("/tmp/fox.png")),
            }),
        ),
        (
            "EnteredReviewMode",
            TurnItem::EnteredReviewMode(EnteredReviewModeItem {
                id: text("item-review"),
                target: ReviewTarget::Commit {
                    sha: text("abc123"),
                    title: None,
                },
                user_facing_hint: text("commit abc123"),
            }),
        ),
        (
            "ExitedReviewMode",
            TurnItem::ExitedReviewMode(ExitedReviewModeItem {
                id: text("item-review"),
                review_output: Some(sample_review_output()),
            }),
        ),
        (
            "FileChange",
            TurnItem::FileChange(FileChangeItem {
                id: text("call_5"),
                changes: sample_changes(),
                status: Some(PatchApplyStatus::Completed),
                auto_approved: Some(false),
                stdout: Some(text("Success.")),
                stderr: Some(String::new()),
            }),
        ),
        (
            "McpToolCall",
            TurnItem::McpToolCall(McpToolCallItem {
                id: text("call_6"),
                server: text("docs"),
                tool: text("search"),
                arguments: json!({"q": "serde"}),
                connector_id: Some(text("conn-1")),
                mcp_app_resource_uri: Some(text("ui://docs/result")),
                mcp_app_ui: Some(McpAppUi {
                    resource_uri: text("ui://docs/result"),
                    preferred_model_display_mode: McpAppUiDisplayMode::Inline,
                }),
                link_id: None,
                app_name: Some(text("Docs")),
                action_name: Some(text("Search")),
                plugin_id: None,
                read_only_hint: Some(true),
                template_id: None,
                status: McpToolCallStatus::Completed,
                result: Some(sample_call_tool_result()),
                error: None,
                duration: Some(Duration::from_millis(40)),
            }),
        ),
        (
            "McpToolCall_failed",
            TurnItem::McpToolCall(McpToolCallItem {
                id: text("call_7"),
                server: text("docs"),
                tool: text("search"),
                arguments: Value::Null,
                connector_id: None,
                mcp_app_resource_uri: None,
                mcp_app_ui: None,
                link_id: None,
                app_name: None,
                action_name: None,
                plugin_id: None,
                read_only_hint: None,
                template_id: None,
                status: McpToolCallStatus::Failed,
                result: None,
                error: Some(McpToolCallError {
                    message: text("server not running"),
                }),
                duration: None,
            }),
        ),
        (
            "ContextCompaction",
            TurnItem::ContextCompaction(ContextCompactionItem {
                id: text("item-compact"),
            }),
        ),
    ]
}
