//! Unit tests of `TurnItem` and its item structs: wire spellings and helpers.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::models::FunctionCallOutputBody;
use crate::models::MessagePhase;
use crate::user_input::UserInput;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn new_item_ids_are_bare_uuid_v7_strings() -> TestResult {
    let id = new_item_id();
    let uuid = uuid::Uuid::parse_str(&id)?;
    assert_eq!(uuid.get_version_num(), 7);
    assert!(!id.contains('_'), "turn item ids carry no prefix: {id}");
    assert_ne!(new_item_id(), id);
    Ok(())
}

#[test]
fn constructors_mint_fresh_ids() {
    let first = UserMessageItem::new(&[UserInput::text("hi")]);
    let second = UserMessageItem::new(&[UserInput::text("hi")]);
    assert_ne!(first.id, second.id);
    assert_eq!(first.client_id, None);
    assert_eq!(first.message(), "hi");
    assert_ne!(
        ContextCompactionItem::new().id,
        ContextCompactionItem::new().id
    );
    assert!(!HookPromptItem::new(Vec::new()).id.is_empty());
}

#[test]
fn tag_is_the_variant_name_and_fields_sit_next_to_it() -> TestResult {
    let item = TurnItem::Plan(PlanItem {
        id: "p1".to_string(),
        text: "1. read".to_string(),
    });
    assert_eq!(
        serde_json::to_value(&item)?,
        json!({"type": "Plan", "id": "p1", "text": "1. read"})
    );
    assert_eq!(item.id(), "p1");
    assert_eq!(item.type_name(), "Plan");
    Ok(())
}

#[test]
fn snake_case_tags_are_not_accepted_for_turn_items() {
    let result = serde_json::from_value::<TurnItem>(json!({"type": "plan", "id": "p", "text": ""}));
    assert!(result.is_err());
}

#[test]
fn agent_message_content_is_tagged_text_and_absent_phase_stays_absent() -> TestResult {
    let item = TurnItem::AgentMessage(AgentMessageItem::new(
        "m1",
        vec![AgentMessageContent::Text {
            text: "done".to_string(),
        }],
    ));
    let json = serde_json::to_value(&item)?;
    assert_eq!(
        json,
        json!({"type": "AgentMessage", "id": "m1", "content": [{"type": "Text", "text": "done"}]})
    );
    let back: TurnItem = serde_json::from_value(json)?;
    assert_eq!(back, item);
    Ok(())
}

#[test]
fn agent_message_keeps_an_unknown_phase_verbatim() -> TestResult {
    let item: TurnItem = serde_json::from_value(json!({
        "type": "AgentMessage", "id": "m", "content": [], "phase": "speculative"
    }))?;
    let TurnItem::AgentMessage(message) = &item else {
        return Err("not an agent message".into());
    };
    assert_eq!(
        message.phase,
        Some(MessagePhase::Unknown("speculative".to_string()))
    );
    assert_eq!(serde_json::to_value(&item)?["phase"], json!("speculative"));
    Ok(())
}

#[test]
fn hook_prompt_fragment_is_camel_case() -> TestResult {
    let fragment = HookPromptFragment::from_single_hook("stay on task", "run-1");
    assert_eq!(
        serde_json::to_value(&fragment)?,
        json!({"text": "stay on task", "hookRunId": "run-1"})
    );
    Ok(())
}

#[test]
fn mcp_tool_call_item_is_camel_case_and_reasoning_is_snake_case() -> TestResult {
    let mcp = TurnItem::McpToolCall(McpToolCallItem {
        id: "c1".to_string(),
        server: "docs".to_string(),
        tool: "search".to_string(),
        arguments: json!({"q": "x"}),
        connector_id: Some("conn".to_string()),
        mcp_app_resource_uri: None,
        mcp_app_ui: None,
        link_id: None,
        app_name: None,
        action_name: None,
        plugin_id: None,
        read_only_hint: Some(true),
        template_id: None,
        status: McpToolCallStatus::InProgress,
        result: None,
        error: None,
        duration: None,
    });
    assert_eq!(
        serde_json::to_value(&mcp)?,
        json!({
            "type": "McpToolCall", "id": "c1", "server": "docs", "tool": "search",
            "arguments": {"q": "x"}, "connectorId": "conn", "readOnlyHint": true,
            "status": "inProgress"
        })
    );
    let reasoning = TurnItem::Reasoning(ReasoningItem {
        id: String::new(),
        summary_text: vec!["s".to_string()],
        raw_content: Vec::new(),
    });
    assert_eq!(
        serde_json::to_value(&reasoning)?,
        json!({"type": "Reasoning", "id": "", "summary_text": ["s"], "raw_content": []})
    );
    Ok(())
}

#[test]
fn reasoning_reads_without_raw_content() -> TestResult {
    let item: TurnItem =
        serde_json::from_value(json!({"type": "Reasoning", "id": "r", "summary_text": []}))?;
    assert_eq!(
        item,
        TurnItem::Reasoning(ReasoningItem {
            id: "r".to_string(),
            summary_text: Vec::new(),
            raw_content: Vec::new(),
        })
    );
    Ok(())
}

#[test]
fn extension_item_keeps_every_field() -> TestResult {
    let original = json!({
        "type": "Extension", "kind": "clock.sleep", "id": "sleep-1", "durationMs": 1000,
        "nested": {"a": [1, 2]}
    });
    let item: TurnItem = serde_json::from_value(original.clone())?;
    assert_eq!(item.id(), "sleep-1");
    let TurnItem::Extension(extension) = &item else {
        return Err("not an extension".into());
    };
    assert_eq!(extension.kind, "clock.sleep");
    assert_eq!(extension.field("durationMs"), Some(&json!(1000)));
    assert_eq!(
        extension.field("type"),
        None,
        "the tag is not a payload field"
    );
    assert_eq!(serde_json::to_value(&item)?, original);
    Ok(())
}

#[test]
fn command_execution_accepts_older_split_output_and_never_writes_it() -> TestResult {
    let item: TurnItem = serde_json::from_value(json!({
        "type": "CommandExecution", "id": "c", "command": ["ls"], "cwd": "/repo",
        "parsed_cmd": [{"type": "list_files", "cmd": "ls", "path": null}],
        "status": "completed", "stdout": "a\n", "stderr": "", "aggregated_output": "a\n",
        "exit_code": 0, "duration": {"secs": 1, "nanos": 500}, "formatted_output": "a\n"
    }))?;
    let TurnItem::CommandExecution(command) = &item else {
        return Err("not a command".into());
    };
    assert_eq!(command.source, ExecCommandSource::Agent);
    assert_eq!(command.aggregated_output.as_deref(), Some("a\n"));
    assert_eq!(command.duration, Some(std::time::Duration::new(1, 500)));
    let written = serde_json::to_value(&item)?;
    for dropped in ["stdout", "stderr", "formatted_output"] {
        assert_eq!(written.get(dropped), None, "{dropped} is no longer written");
    }
    Ok(())
}

#[test]
fn function_call_output_item_wire_shape() -> TestResult {
    let text = TurnItem::FunctionCallOutput(FunctionCallOutputItem {
        id: "fco-1".to_string(),
        name: "view_image".to_string(),
        namespace: None,
        output: FunctionCallOutputBody::Text("done".to_string()),
    });
    let json = serde_json::to_value(&text)?;
    assert_eq!(
        json,
        json!({"type": "FunctionCallOutput", "id": "fco-1", "name": "view_image", "output": "done"})
    );
    assert_eq!(serde_json::from_value::<TurnItem>(json)?, text);

    let parts = json!({
        "type": "FunctionCallOutput", "id": "fco-2", "name": "screenshot", "namespace": "ext",
        "output": [
            {"type": "input_text", "text": "caption"},
            {"type": "input_image", "file_id": "file_123", "detail": "low"},
            {"type": "input_image", "image_url": "data:image/png;base64,AA"}
        ]
    });
    let item: TurnItem = serde_json::from_value(parts.clone())?;
    let TurnItem::FunctionCallOutput(output) = &item else {
        return Err("not a function call output".into());
    };
    assert_eq!(output.namespace.as_deref(), Some("ext"));
    assert_eq!(item.type_name(), "FunctionCallOutput");
    assert_eq!(serde_json::to_value(&item)?, parts);
    Ok(())
}

#[test]
fn function_call_output_item_reads_outputs_tolerantly() -> TestResult {
    let single: TurnItem = serde_json::from_value(json!({
        "type": "FunctionCallOutput", "id": "f", "name": "n",
        "output": {"type": "input_text", "text": "one"}
    }))?;
    let TurnItem::FunctionCallOutput(single) = single else {
        return Err("not a function call output".into());
    };
    assert_eq!(
        single.output,
        FunctionCallOutputBody::ContentItems(vec![
            crate::models::FunctionCallOutputContentItem::input_text("one")
        ])
    );
    let parts = json!([{"type": "hologram", "data": 1}]);
    let unknown: TurnItem = serde_json::from_value(json!({
        "type": "FunctionCallOutput", "id": "f", "name": "n", "output": parts
    }))?;
    let TurnItem::FunctionCallOutput(unknown) = unknown else {
        return Err("not a function call output".into());
    };
    assert_eq!(
        unknown.output,
        FunctionCallOutputBody::Text(parts.to_string()),
        "unknown content kinds are kept as text"
    );
    Ok(())
}

#[test]
fn agent_message_questions_are_camel_case_and_skipped_when_absent() -> TestResult {
    let mut message = AgentMessageItem::new("m", Vec::new());
    message.questions = Some(vec![
        AsyncUserInputQuestion {
            title: "Which branch?".to_string(),
            options: Some(vec!["main".to_string(), "dev".to_string()]),
        },
        AsyncUserInputQuestion {
            title: "Anything else?".to_string(),
            options: None,
        },
    ]);
    let item = TurnItem::AgentMessage(message);
    let json = serde_json::to_value(&item)?;
    assert_eq!(
        json["questions"],
        json!([
            {"title": "Which branch?", "options": ["main", "dev"]},
            {"title": "Anything else?", "options": null}
        ])
    );
    assert_eq!(serde_json::from_value::<TurnItem>(json)?, item);
    let unknown_key = serde_json::from_value::<TurnItem>(json!({
        "type": "AgentMessage", "id": "m", "content": [],
        "questions": [{"title": "t", "options": null, "extra": 1}]
    }));
    assert!(unknown_key.is_err(), "questions deny unknown fields");
    Ok(())
}

#[test]
fn sub_agent_activity_writes_model_and_effort_even_when_null() -> TestResult {
    let thread = crate::thread_id::ThreadId::new();
    let item = TurnItem::SubAgentActivity(SubAgentActivityItem {
        model: Some("gpt-5.5".to_string()),
        reasoning_effort: Some("high".to_string()),
        id: "a".to_string(),
        kind: SubAgentActivityKind::Completed,
        agent_thread_id: thread,
        agent_path: "/root/worker".to_string(),
    });
    let json = serde_json::to_value(&item)?;
    assert_eq!(
        json,
        json!({"type": "SubAgentActivity", "model": "gpt-5.5", "reasoning_effort": "high",
               "id": "a", "kind": "completed", "agent_thread_id": thread.to_string(),
               "agent_path": "/root/worker"})
    );
    let older: TurnItem = serde_json::from_value(json!({
        "type": "SubAgentActivity", "id": "a", "kind": "started",
        "agent_thread_id": thread.to_string(), "agent_path": "/root/worker"
    }))?;
    let written = serde_json::to_value(&older)?;
    assert_eq!(written["model"], json!(null));
    assert_eq!(written["reasoning_effort"], json!(null));
    Ok(())
}

#[test]
fn agent_status_unit_states_are_strings_and_data_states_are_objects() -> TestResult {
    assert_eq!(
        serde_json::to_value(AgentStatus::Running)?,
        json!("running")
    );
    assert_eq!(
        serde_json::to_value(AgentStatus::Completed(Some("ok".to_string())))?,
        json!({"completed": "ok"})
    );
    assert_eq!(
        serde_json::to_value(AgentStatus::Completed(None))?,
        json!({"completed": null})
    );
    assert_eq!(AgentStatus::default(), AgentStatus::PendingInit);
    Ok(())
}

#[test]
fn review_target_is_camel_case_tagged() -> TestResult {
    assert_eq!(
        serde_json::to_value(ReviewTarget::UncommittedChanges)?,
        json!({"type": "uncommittedChanges"})
    );
    assert_eq!(
        serde_json::to_value(ReviewTarget::BaseBranch {
            branch: "main".to_string()
        })?,
        json!({"type": "baseBranch", "branch": "main"})
    );
    Ok(())
}

#[test]
fn every_variant_reports_its_own_id() {
    for item in crate::items::tests::one_of_each() {
        assert_eq!(item.id(), format!("id-{}", item.type_name()));
    }
}

/// One item per variant, each with id `id-<Variant>`.
pub(crate) fn one_of_each() -> Vec<TurnItem> {
    let id = |name: &str| format!("id-{name}");
    let mut extension_fields = serde_json::Map::new();
    extension_fields.insert("durationMs".to_string(), json!(5));
    vec![
        TurnItem::UserMessage(UserMessageItem {
            id: id("UserMessage"),
            client_id: None,
            content: vec![UserInput::text("hi")],
        }),
        TurnItem::FunctionCallOutput(FunctionCallOutputItem {
            id: id("FunctionCallOutput"),
            name: "tool".to_string(),
            namespace: None,
            output: FunctionCallOutputBody::Text("ok".to_string()),
        }),
        TurnItem::HookPrompt(HookPromptItem {
            id: id("HookPrompt"),
            fragments: Vec::new(),
        }),
        TurnItem::AgentMessage(AgentMessageItem::new(id("AgentMessage"), Vec::new())),
        TurnItem::Plan(PlanItem {
            id: id("Plan"),
            text: String::new(),
        }),
        TurnItem::Reasoning(ReasoningItem {
            id: id("Reasoning"),
            summary_text: Vec::new(),
            raw_content: Vec::new(),
        }),
        TurnItem::CommandExecution(CommandExecutionItem {
            id: id("CommandExecution"),
            plugin_id: None,
            script_path: None,
            process_id: None,
            command: Vec::new(),
            cwd: "/".to_string(),
            parsed_cmd: Vec::new(),
            source: ExecCommandSource::Agent,
            interaction_input: None,
            status: CommandExecutionStatus::InProgress,
            aggregated_output: None,
            exit_code: None,
            duration: None,
        }),
        TurnItem::DynamicToolCall(DynamicToolCallItem {
            id: id("DynamicToolCall"),
            namespace: None,
            tool: "t".to_string(),
            arguments: json!({}),
            status: DynamicToolCallStatus::InProgress,
            content_items: None,
            success: None,
            error: None,
            duration: None,
        }),
        TurnItem::CollabAgentToolCall(CollabAgentToolCallItem {
            id: id("CollabAgentToolCall"),
            tool: CollabAgentTool::Wait,
            status: CollabAgentToolCallStatus::InProgress,
            sender_thread_id: crate::thread_id::ThreadId::new(),
            receiver_thread_ids: Vec::new(),
            receiver_agents: Vec::new(),
            prompt: None,
            model: None,
            reasoning_effort: None,
            agents_states: Default::default(),
        }),
        TurnItem::SubAgentActivity(SubAgentActivityItem {
            model: None,
            reasoning_effort: None,
            id: id("SubAgentActivity"),
            kind: SubAgentActivityKind::Started,
            agent_thread_id: crate::thread_id::ThreadId::new(),
            agent_path: "/root/worker".to_string(),
        }),
        TurnItem::WebSearch(WebSearchItem {
            id: id("WebSearch"),
            query: String::new(),
            action: crate::models::WebSearchAction::Other,
            results: None,
        }),
        TurnItem::ImageView(ImageViewItem {
            id: id("ImageView"),
            path: "/a.png".to_string(),
        }),
        TurnItem::Extension(ExtensionItem::new(
            "clock.sleep",
            id("Extension"),
            extension_fields,
        )),
        TurnItem::ImageGeneration(ImageGenerationItem {
            id: id("ImageGeneration"),
            status: "completed".to_string(),
            revised_prompt: None,
            result: String::new(),
            saved_path: None,
        }),
        TurnItem::EnteredReviewMode(EnteredReviewModeItem {
            id: id("EnteredReviewMode"),
            target: ReviewTarget::UncommittedChanges,
            user_facing_hint: String::new(),
        }),
        TurnItem::ExitedReviewMode(ExitedReviewModeItem {
            id: id("ExitedReviewMode"),
            review_output: None,
        }),
        TurnItem::FileChange(FileChangeItem {
            id: id("FileChange"),
            changes: Default::default(),
            status: None,
            auto_approved: None,
            stdout: None,
            stderr: None,
        }),
        TurnItem::McpToolCall(McpToolCallItem {
            id: id("McpToolCall"),
            server: "s".to_string(),
            tool: "t".to_string(),
            arguments: json!(null),
            connector_id: None,
            mcp_app_resource_uri: None,
            mcp_app_ui: None,
            link_id: None,
            app_name: None,
            action_name: None,
            plugin_id: None,
            read_only_hint: None,
            template_id: None,
            status: McpToolCallStatus::Completed,
            result: None,
            error: None,
            duration: None,
        }),
        TurnItem::ContextCompaction(ContextCompactionItem {
            id: id("ContextCompaction"),
        }),
    ]
}

#[test]
fn one_of_each_covers_all_nineteen_variants() -> TestResult {
    let items = one_of_each();
    let names: std::collections::BTreeSet<&str> = items.iter().map(TurnItem::type_name).collect();
    assert_eq!(names.len(), 19);
    for item in items {
        let json = serde_json::to_value(&item)?;
        assert_eq!(json["type"], json!(item.type_name()));
        let back: TurnItem = serde_json::from_value(json)?;
        assert_eq!(back, item);
    }
    Ok(())
}

#[test]
fn an_item_as_started_leaves_out_what_only_its_end_says() -> Result<(), serde_json::Error> {
    let completed: TurnItem = serde_json::from_value(serde_json::json!({
        "type": "CommandExecution",
        "id": "call_1",
        "command": ["ls"],
        "cwd": "/tmp",
        "parsed_cmd": [],
        "status": "completed",
        "aggregated_output": "a\nb\n",
        "exit_code": 0,
        "duration": {"secs": 0, "nanos": 5},
    }))?;
    let TurnItem::CommandExecution(started) = completed.as_started() else {
        panic!("a command starts as a command");
    };
    assert_eq!(started.status, CommandExecutionStatus::InProgress);
    assert_eq!(
        (
            started.aggregated_output,
            started.exit_code,
            started.duration
        ),
        (None, None, None)
    );
    assert_eq!(started.command, ["ls"]);
    let message = TurnItem::ContextCompaction(ContextCompactionItem { id: "c".into() });
    assert_eq!(message.as_started(), message);
    Ok(())
}
