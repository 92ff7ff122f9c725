//! Wire shape of every `ThreadItem` variant and of `Turn`, each built the way it is built in
//! practice: from the core `TurnItem` (`From<TurnItem>`) or from the events that describe it.

use std::collections::BTreeMap;
use std::time::Duration;

use codex_app_server_protocol::item_builders;
use codex_app_server_protocol::v2::{ThreadItem, Turn, TurnError, TurnItemsView, TurnStatus};
use codex_protocol::event::{ExecCommandEndEvent, UserMessageEvent};
use codex_protocol::items::{
    AgentMessageContent, AgentMessageDelivery, AgentMessageItem, AgentStatus,
    AsyncUserInputQuestion, CollabAgentTool, CollabAgentToolCallItem, CollabAgentToolCallStatus,
    CommandExecutionItem, CommandExecutionStatus, ContextCompactionItem, DynamicToolCallItem,
    DynamicToolCallOutputContentItem, DynamicToolCallStatus, EnteredReviewModeItem,
    ExecCommandSource, ExitedReviewModeItem, ExtensionItem, FileChange, FileChangeItem,
    FunctionCallOutputItem, HookPromptFragment, HookPromptItem, ImageGenerationItem, ImageViewItem,
    McpToolCallItem, McpToolCallStatus, MemoryCitation, MemoryCitationEntry, ParsedCommand,
    PlanItem, ReasoningItem, ReviewCodeLocation, ReviewFinding, ReviewLineRange, ReviewOutputEvent,
    ReviewTarget, SubAgentActivityItem, SubAgentActivityKind, TurnItem, UserMessageItem,
    WebSearchItem,
};
use codex_protocol::mcp::CallToolResult;
use codex_protocol::models::{
    FunctionCallOutputBody, FunctionCallOutputContentItem, ImageDetail, MessagePhase,
    WebSearchAction,
};
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::{ByteRange, TextElement, UserInput};
use insta::assert_json_snapshot;
use serde_json::json;
use uuid::Uuid;

fn thread(n: u128) -> ThreadId {
    ThreadId::from(Uuid::from_u128(
        0x0197_7300_0000_7000_8000_0000_0000_0000 | n,
    ))
}

fn item(turn_item: TurnItem) -> ThreadItem {
    ThreadItem::from(turn_item)
}

#[test]
fn user_message_snapshot() {
    assert_json_snapshot!(item(TurnItem::UserMessage(UserMessageItem {
        id: "user-1".to_owned(),
        client_id: Some("client-7".to_owned()),
        content: vec![
            UserInput::Text {
                text: "fix [paste]".to_owned(),
                text_elements: vec![TextElement::new(
                    ByteRange { start: 4, end: 11 },
                    Some("[paste]".to_owned())
                )],
            },
            UserInput::Image {
                image_url: "https://example.com/a.png".to_owned(),
                detail: None
            },
            UserInput::LocalImage {
                path: "/tmp/b.png".into(),
                detail: None
            },
            UserInput::Skill {
                name: "review".to_owned(),
                path: "/skills/review/SKILL.md".into()
            },
            UserInput::Mention {
                name: "Docs".to_owned(),
                path: "app://docs".to_owned()
            },
        ],
    })));
}

#[test]
fn user_message_from_legacy_event_snapshot() {
    let event = UserMessageEvent {
        message: "look at this".to_owned(),
        images: Some(vec!["data:image/png;base64,AAAA".to_owned()]),
        local_images: vec!["/tmp/shot.png".into()],
        ..UserMessageEvent::default()
    };
    assert_json_snapshot!(item_builders::user_message_from_event(
        "item-1".to_owned(),
        &event
    ));
}

#[test]
fn hook_prompt_snapshot() {
    assert_json_snapshot!(item(TurnItem::HookPrompt(HookPromptItem {
        id: "hook-1".to_owned(),
        fragments: vec![HookPromptFragment::from_single_hook(
            "remember the style guide",
            "run-1"
        )],
    })));
}

#[test]
fn agent_message_joins_its_parts_snapshot() {
    let mut message = AgentMessageItem::new(
        "msg-1",
        vec![
            AgentMessageContent::Text {
                text: "Done. ".to_owned(),
            },
            AgentMessageContent::Text {
                text: "See notes.md.".to_owned(),
            },
        ],
    );
    message.phase = Some(MessagePhase::FinalAnswer);
    message.memory_citation = Some(MemoryCitation {
        entries: vec![MemoryCitationEntry {
            path: "memories/style.md".to_owned(),
            line_start: 3,
            line_end: 9,
            note: "tabs".to_owned(),
        }],
        rollout_ids: vec!["thread-a".to_owned()],
    });
    assert_json_snapshot!(item(TurnItem::AgentMessage(message)));
}

#[test]
fn agent_message_with_questions_snapshot() {
    let mut message = AgentMessageItem::new(
        "msg-2",
        vec![AgentMessageContent::Text {
            text: "Two questions before I go on.".to_owned(),
        }],
    );
    message.phase = Some(MessagePhase::PartialAnswer);
    message.delivery = Some(AgentMessageDelivery::Async);
    message.questions = Some(vec![
        AsyncUserInputQuestion {
            title: "Which database?".to_owned(),
            options: Some(vec!["sqlite".to_owned(), "postgres".to_owned()]),
        },
        AsyncUserInputQuestion {
            title: "Anything to avoid?".to_owned(),
            options: None,
        },
    ]);
    assert_json_snapshot!(item(TurnItem::AgentMessage(message)));
}

#[test]
fn function_call_output_snapshot() {
    assert_json_snapshot!(item(TurnItem::FunctionCallOutput(FunctionCallOutputItem {
        id: "output-1".to_owned(),
        name: "screenshot".to_owned(),
        namespace: Some("browser".to_owned()),
        output: FunctionCallOutputBody::ContentItems(vec![
            FunctionCallOutputContentItem::input_text("the page"),
            FunctionCallOutputContentItem::input_image_url(
                "data:image/png;base64,iVBO",
                Some(ImageDetail::High),
            ),
            FunctionCallOutputContentItem::InputImage {
                image_url: None,
                file_id: Some("file_123".to_owned()),
                detail: None,
            },
        ]),
    })));
}

#[test]
fn the_newest_item_shapes_read_back_unchanged() -> Result<(), serde_json::Error> {
    let mut message = AgentMessageItem::new("msg-3", Vec::new());
    message.questions = Some(vec![AsyncUserInputQuestion {
        title: "Go?".to_owned(),
        options: None,
    }]);
    let items = [
        item(TurnItem::AgentMessage(message)),
        item(TurnItem::FunctionCallOutput(FunctionCallOutputItem {
            id: "output-3".to_owned(),
            name: "tool".to_owned(),
            namespace: None,
            output: FunctionCallOutputBody::ContentItems(vec![
                FunctionCallOutputContentItem::EncryptedContent {
                    encrypted_content: "enc".to_owned(),
                },
            ]),
        })),
        item(TurnItem::SubAgentActivity(SubAgentActivityItem {
            model: None,
            reasoning_effort: Some("low".to_owned()),
            id: "sub-2".to_owned(),
            kind: SubAgentActivityKind::Completed,
            agent_thread_id: thread(3),
            agent_path: "/root/a".to_owned(),
        })),
    ];
    for original in items {
        let json = serde_json::to_value(&original)?;
        assert_eq!(serde_json::from_value::<ThreadItem>(json)?, original);
    }
    Ok(())
}

#[test]
fn function_call_output_text_without_namespace_snapshot() {
    assert_json_snapshot!(item(TurnItem::FunctionCallOutput(FunctionCallOutputItem {
        id: "output-2".to_owned(),
        name: "clock_now".to_owned(),
        namespace: None,
        output: FunctionCallOutputBody::Text("12:00".to_owned()),
    })));
}

#[test]
fn plan_snapshot() {
    assert_json_snapshot!(item(TurnItem::Plan(PlanItem {
        id: "plan-1".to_owned(),
        text: "1. read\n2. write".to_owned(),
    })));
}

#[test]
fn reasoning_snapshot() {
    assert_json_snapshot!(item(TurnItem::Reasoning(ReasoningItem {
        id: "rs-1".to_owned(),
        summary_text: vec!["**Plan**".to_owned(), "Check tests".to_owned()],
        raw_content: vec!["thinking".to_owned()],
    })));
}

fn command_item(status: CommandExecutionStatus) -> CommandExecutionItem {
    CommandExecutionItem {
        id: "call-1".to_owned(),
        plugin_id: None,
        script_path: None,
        process_id: Some("pty-3".to_owned()),
        command: vec![
            "bash".to_owned(),
            "-lc".to_owned(),
            "cat 'a b.txt'".to_owned(),
        ],
        cwd: "/repo".to_owned(),
        parsed_cmd: vec![ParsedCommand::Read {
            cmd: "cat 'a b.txt'".to_owned(),
            name: "a b.txt".to_owned(),
            path: "/repo/a b.txt".into(),
        }],
        source: ExecCommandSource::Agent,
        interaction_input: None,
        status,
        aggregated_output: Some("hello\n".to_owned()),
        exit_code: Some(0),
        duration: Some(Duration::from_millis(42)),
    }
}

#[test]
fn command_execution_snapshot() {
    assert_json_snapshot!(item(TurnItem::CommandExecution(command_item(
        CommandExecutionStatus::Completed
    ))));
}

#[test]
fn command_execution_from_exec_end_matches_the_item() {
    let end = ExecCommandEndEvent {
        call_id: "call-1".to_owned(),
        plugin_id: None,
        script_path: None,
        process_id: Some("pty-3".to_owned()),
        turn_id: "turn-1".to_owned(),
        completed_at_ms: 0,
        command: vec![
            "bash".to_owned(),
            "-lc".to_owned(),
            "cat 'a b.txt'".to_owned(),
        ],
        cwd: "/repo".to_owned(),
        parsed_cmd: command_item(CommandExecutionStatus::Completed).parsed_cmd,
        source: ExecCommandSource::Agent,
        interaction_input: None,
        stdout: None,
        stderr: None,
        aggregated_output: "hello\n".to_owned(),
        exit_code: 0,
        duration: Duration::from_millis(42),
        formatted_output: None,
        status: None,
    };
    assert_eq!(
        item_builders::command_execution_completed(&end),
        item(TurnItem::CommandExecution(command_item(
            CommandExecutionStatus::Completed
        )))
    );
}

#[test]
fn dynamic_tool_call_snapshot() {
    assert_json_snapshot!(item(TurnItem::DynamicToolCall(DynamicToolCallItem {
        id: "dyn-1".to_owned(),
        namespace: Some("editor".to_owned()),
        tool: "open_file".to_owned(),
        arguments: json!({"path": "src/lib.rs"}),
        status: DynamicToolCallStatus::Completed,
        content_items: Some(vec![DynamicToolCallOutputContentItem::InputText {
            text: "opened".to_owned()
        }]),
        success: Some(true),
        error: None,
        duration: Some(Duration::from_secs(1)),
    })));
}

#[test]
fn collab_agent_tool_call_snapshot() {
    let states: BTreeMap<String, AgentStatus> = [
        (
            thread(2).to_string(),
            AgentStatus::Completed(Some("done".to_owned())),
        ),
        (thread(3).to_string(), AgentStatus::Running),
    ]
    .into_iter()
    .collect();
    assert_json_snapshot!(item(TurnItem::CollabAgentToolCall(
        CollabAgentToolCallItem {
            id: "collab-1".to_owned(),
            tool: CollabAgentTool::SpawnAgent,
            status: CollabAgentToolCallStatus::Completed,
            sender_thread_id: thread(1),
            receiver_thread_ids: vec![thread(2), thread(3)],
            receiver_agents: Vec::new(),
            prompt: Some("write tests".to_owned()),
            model: Some("gpt-5".to_owned()),
            reasoning_effort: Some("high".to_owned()),
            agents_states: states,
        }
    )));
}

#[test]
fn sub_agent_activity_snapshot() {
    assert_json_snapshot!(item(TurnItem::SubAgentActivity(SubAgentActivityItem {
        model: Some("gpt-5.5".to_owned()),
        reasoning_effort: Some("high".to_owned()),
        id: "sub-1".to_owned(),
        kind: SubAgentActivityKind::Started,
        agent_thread_id: thread(2),
        agent_path: "/root/tests".to_owned(),
    })));
}

#[test]
fn web_search_snapshot() {
    assert_json_snapshot!(item(TurnItem::WebSearch(WebSearchItem {
        id: "ws-1".to_owned(),
        query: "rust ts-rs".to_owned(),
        action: WebSearchAction::Search {
            query: Some("rust ts-rs".to_owned()),
            queries: None,
        },
        results: None,
    })));
}

#[test]
fn image_view_snapshot() {
    assert_json_snapshot!(item(TurnItem::ImageView(ImageViewItem {
        id: "view-1".to_owned(),
        path: "/repo/diagram.png".to_owned(),
    })));
}

#[test]
fn sleep_from_clock_extension_snapshot() {
    let mut fields = serde_json::Map::new();
    fields.insert("durationMs".to_owned(), json!(1000));
    assert_json_snapshot!(item(TurnItem::Extension(ExtensionItem::new(
        "clock.sleep",
        "sleep-1",
        fields
    ))));
}

#[test]
fn unknown_extension_passes_through_snapshot() {
    let mut fields = serde_json::Map::new();
    fields.insert("score".to_owned(), json!(7));
    assert_json_snapshot!(item(TurnItem::Extension(ExtensionItem::new(
        "game.score",
        "ext-1",
        fields
    ))));
}

#[test]
fn image_generation_snapshot() {
    assert_json_snapshot!(item(TurnItem::ImageGeneration(ImageGenerationItem {
        id: "ig-1".to_owned(),
        status: "completed".to_owned(),
        revised_prompt: Some("a red fox".to_owned()),
        result: "iVBORw0KGgo=".to_owned(),
        saved_path: Some("/tmp/fox.png".to_owned()),
    })));
}

#[test]
fn review_mode_snapshots() {
    assert_json_snapshot!(
        "entered_review_mode",
        item(TurnItem::EnteredReviewMode(EnteredReviewModeItem {
            id: "review-1".to_owned(),
            target: ReviewTarget::UncommittedChanges,
            user_facing_hint: "current changes".to_owned(),
        }))
    );
    assert_json_snapshot!(
        "exited_review_mode",
        item(TurnItem::ExitedReviewMode(ExitedReviewModeItem {
            id: "review-2".to_owned(),
            review_output: Some(ReviewOutputEvent {
                findings: vec![ReviewFinding {
                    title: "Unchecked index".to_owned(),
                    body: "May panic on empty input.".to_owned(),
                    confidence_score: 0.8,
                    priority: 1,
                    code_location: ReviewCodeLocation {
                        absolute_file_path: "/repo/src/lib.rs".into(),
                        line_range: ReviewLineRange { start: 10, end: 12 },
                    },
                }],
                overall_correctness: "incorrect".to_owned(),
                overall_explanation: "One bug.".to_owned(),
                overall_confidence_score: 0.7,
            }),
        }))
    );
}

#[test]
fn file_change_defaults_to_in_progress_snapshot() {
    let changes: BTreeMap<String, FileChange> = [
        (
            "a.txt".to_owned(),
            FileChange::Add {
                content: "new\n".to_owned(),
            },
        ),
        (
            "b.txt".to_owned(),
            FileChange::Update {
                unified_diff: "@@ -1 +1 @@\n-a\n+b\n".to_owned(),
                move_path: Some("c.txt".into()),
            },
        ),
        (
            "d.txt".to_owned(),
            FileChange::Delete {
                content: "old\n".to_owned(),
            },
        ),
    ]
    .into_iter()
    .collect();
    assert_json_snapshot!(item(TurnItem::FileChange(FileChangeItem {
        id: "patch-1".to_owned(),
        changes,
        status: None,
        auto_approved: None,
        stdout: None,
        stderr: None,
    })));
}

#[test]
fn mcp_tool_call_snapshot() {
    assert_json_snapshot!(item(TurnItem::McpToolCall(McpToolCallItem {
        id: "mcp-1".to_owned(),
        server: "docs".to_owned(),
        tool: "search".to_owned(),
        arguments: json!({"q": "turns"}),
        connector_id: Some("connector-9".to_owned()),
        mcp_app_resource_uri: Some("ui://docs/result".to_owned()),
        mcp_app_ui: None,
        link_id: Some("link-1".to_owned()),
        app_name: None,
        action_name: None,
        plugin_id: None,
        read_only_hint: Some(true),
        template_id: None,
        status: McpToolCallStatus::Completed,
        result: Some(CallToolResult {
            content: vec![json!({"type": "text", "text": "3 hits"})],
            structured_content: None,
            is_error: None,
            meta: None,
        }),
        error: None,
        duration: Some(Duration::from_millis(1500)),
    })));
}

#[test]
fn context_compaction_snapshot() {
    assert_json_snapshot!(item(TurnItem::ContextCompaction(ContextCompactionItem {
        id: "compact-1".to_owned(),
    })));
}

#[test]
fn turn_snapshots() {
    let failed = Turn {
        id: "turn-2".to_owned(),
        root_turn_id: None,
        items: vec![
            item(TurnItem::Plan(PlanItem {
                id: "plan-1".to_owned(),
                text: "try".to_owned(),
            }))
            .into(),
        ],
        items_view: TurnItemsView::Full,
        status: TurnStatus::Failed,
        error: Some(TurnError {
            message: "context window exceeded".to_owned(),
            codex_error_info: Some(
                codex_app_server_protocol::v2::CodexErrorInfo::ContextWindowExceeded,
            ),
            additional_details: None,
            misalignment: None,
        }),
        started_at: Some(1_750_000_000),
        completed_at: Some(1_750_000_009),
        duration_ms: Some(9000),
    };
    assert_json_snapshot!("turn_failed", failed);
    assert_json_snapshot!(
        "turn_started_not_loaded",
        Turn::in_progress("turn-3", Some(1_750_000_100))
    );
}

#[test]
fn turn_items_view_defaults_to_full_when_absent() -> Result<(), serde_json::Error> {
    let turn: Turn = serde_json::from_value(json!({
        "id": "t", "items": [], "status": "completed", "error": null,
        "startedAt": null, "completedAt": null, "durationMs": null
    }))?;
    assert_eq!(turn.items_view, TurnItemsView::Full);
    Ok(())
}
