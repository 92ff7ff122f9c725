use codex_protocol::items::{AgentMessageContent, HookPromptFragment, TurnItem, UserMessageItem};
use codex_protocol::models::{
    ContentItem, ImageDetail, MessagePhase, ResponseItem, WebSearchAction,
};
use codex_protocol::response_item_id::ResponseItemId;
use codex_protocol::user_input::UserInput;
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::contextual::{ContextFragment, build_hook_prompt_message};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A message with an id, a role and content; no phase.
fn message(id: Option<&str>, role: &str, content: Vec<ContentItem>) -> ResponseItem {
    let mut item = ResponseItem::message(role, content);
    item.set_id(id.map(ResponseItemId::from));
    item
}

fn user(content: Vec<ContentItem>) -> ResponseItem {
    message(None, "user", content)
}

fn assistant(
    id: Option<&str>,
    content: Vec<ContentItem>,
    phase: Option<MessagePhase>,
) -> ResponseItem {
    let mut item = message(id, "assistant", content);
    if let ResponseItem::Message { phase: slot, .. } = &mut item {
        *slot = phase;
    }
    item
}

fn text(value: &str) -> ContentItem {
    ContentItem::input_text(value)
}

fn item_from(value: serde_json::Value) -> Result<ResponseItem, serde_json::Error> {
    serde_json::from_value(value)
}

fn user_message(item: &ResponseItem) -> Result<UserMessageItem, String> {
    match parse_turn_item(item) {
        Some(TurnItem::UserMessage(message)) => Ok(message),
        other => Err(format!("expected UserMessage, got {other:?}")),
    }
}

fn agent_message(item: &ResponseItem) -> Result<codex_protocol::items::AgentMessageItem, String> {
    match parse_turn_item(item) {
        Some(TurnItem::AgentMessage(message)) => Ok(message),
        other => Err(format!("expected AgentMessage, got {other:?}")),
    }
}

/// Replaces generated ids so the output can be snapshotted.
fn with_stable_id(mut item: TurnItem) -> TurnItem {
    if let TurnItem::UserMessage(message) = &mut item {
        message.id = "<generated>".to_string();
    }
    item
}

#[test]
fn parses_user_message_with_text_and_two_images() -> TestResult {
    let item = user(vec![
        text("compare these"),
        ContentItem::input_image_url("https://example.com/a.png", Some(ImageDetail::Low)),
        ContentItem::input_image_url("data:image/png;base64,AAAA", None),
    ]);
    let parsed = user_message(&item)?;
    assert_eq!(
        parsed.content,
        vec![
            UserInput::text("compare these"),
            UserInput::Image {
                image_url: "https://example.com/a.png".to_string(),
                detail: Some(ImageDetail::Low),
            },
            UserInput::Image {
                image_url: "data:image/png;base64,AAAA".to_string(),
                detail: None,
            },
        ]
    );
    insta::assert_json_snapshot!(
        "user_message_with_text_and_two_images",
        with_stable_id(TurnItem::UserMessage(parsed))
    );
    Ok(())
}

#[test]
fn user_message_gets_a_fresh_id_not_the_response_item_id() -> TestResult {
    let parsed = user_message(&message(Some("msg_1"), "user", vec![text("hi")]))?;
    assert_ne!(parsed.id, "msg_1");
    assert!(uuid::Uuid::parse_str(&parsed.id).is_ok(), "{}", parsed.id);
    Ok(())
}

#[test]
fn skips_local_image_label_text() -> TestResult {
    let item = user(vec![
        text("look"),
        text("<image name=[Image #1] path=\"/tmp/a.png\">"),
        ContentItem::input_image_url("data:image/png;base64,AAAA", Some(ImageDetail::High)),
        text("</image>"),
    ]);
    assert_eq!(
        user_message(&item)?.content,
        vec![
            UserInput::text("look"),
            UserInput::Image {
                image_url: "data:image/png;base64,AAAA".to_string(),
                detail: Some(ImageDetail::High),
            },
        ]
    );
    Ok(())
}

#[test]
fn skips_unnamed_image_label_text() -> TestResult {
    let item = user(vec![
        text("<image>"),
        ContentItem::input_image_url("https://e/x.png", None),
        text("</image>"),
        text("what is it?"),
    ]);
    assert_eq!(
        user_message(&item)?.content,
        vec![
            UserInput::Image {
                image_url: "https://e/x.png".to_string(),
                detail: None
            },
            UserInput::text("what is it?"),
        ]
    );
    Ok(())
}

#[test]
fn skips_local_audio_label_text() -> TestResult {
    let item = user(vec![
        text("<audio name=[Audio #1] path=\"/tmp/a.wav\">"),
        ContentItem::input_audio("data:audio/wav;base64,UklG"),
        text("</audio>"),
    ]);
    assert_eq!(
        user_message(&item)?.content,
        vec![UserInput::Audio {
            audio_url: "data:audio/wav;base64,UklG".to_string()
        }]
    );
    Ok(())
}

#[test]
fn label_text_without_adjacent_media_is_the_persons_text() -> TestResult {
    // A person may type the tags; only tags framing a media part are labels.
    let item = user(vec![text("<image>"), text("</image>"), text("<audio>")]);
    assert_eq!(
        user_message(&item)?.content,
        vec![
            UserInput::text("<image>"),
            UserInput::text("</image>"),
            UserInput::text("<audio>"),
        ]
    );
    // An image label is not an audio label.
    let crossed = user(vec![
        text("<image>"),
        ContentItem::input_audio("data:audio/wav;base64,UklG"),
    ]);
    assert_eq!(user_message(&crossed)?.content.len(), 2);
    Ok(())
}

#[test]
fn multimodal_user_message_keeps_order_and_filters_labels() -> TestResult {
    let item = user(vec![
        text("first"),
        text("<image name=[Image #1] path=\"a.png\">"),
        ContentItem::input_image_url("data:image/png;base64,AA", None),
        text("</image>"),
        text("between"),
        text("<audio name=[Audio #1] path=\"b.wav\">"),
        ContentItem::input_audio("data:audio/wav;base64,BB"),
        text("</audio>"),
        ContentItem::input_image_url("https://e/c.png", Some(ImageDetail::Original)),
        text("last"),
    ]);
    let parsed = user_message(&item)?;
    insta::assert_json_snapshot!(
        "multimodal_user_message",
        with_stable_id(TurnItem::UserMessage(parsed))
    );
    Ok(())
}

#[test]
fn output_text_in_user_message_is_warned_and_skipped() -> TestResult {
    let item = user(vec![text("mine"), ContentItem::output_text("not mine")]);
    assert_eq!(user_message(&item)?.content, vec![UserInput::text("mine")]);
    Ok(())
}

#[test]
fn skips_user_instructions_and_env() {
    let cases = [
        ContextFragment::agents_md(Some("/repo"), "rules")
            .render()
            .to_string(),
        "<user_instructions>\nrules\n</user_instructions>".to_string(),
        "<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>".to_string(),
        ContextFragment::skill("demo", "SKILL.md", "body")
            .render()
            .to_string(),
        ContextFragment::user_shell_command("ls", 0, 0.1, "")
            .render()
            .to_string(),
    ];
    for case in &cases {
        let item = user(vec![text(case)]);
        assert_eq!(parse_turn_item(&item), None, "{case}");
    }
    let mixed = user(vec![
        text("<environment_context>x</environment_context>"),
        text("a real question"),
    ]);
    assert_eq!(parse_turn_item(&mixed), None);
}

#[test]
fn agents_md_is_contextual_but_not_a_visible_user_message() {
    let fragment = ContextFragment::agents_md(None, "Do not delete tests to make CI green.");
    let item = fragment.into_message();
    assert!(crate::contextual::is_contextual_user_message_content(
        item.message_content().unwrap_or_default()
    ));
    assert_eq!(parse_turn_item(&item), None);
}

#[test]
fn unregistered_lookalike_tag_stays_visible_user_text() -> TestResult {
    let typed = "<project_context>\nmy notes\n</project_context>";
    assert_eq!(
        user_message(&user(vec![text(typed)]))?.content,
        vec![UserInput::text(typed)]
    );
    Ok(())
}

#[test]
fn parses_hook_prompt_message_as_distinct_turn_item() -> TestResult {
    let item = build_hook_prompt_message(&[HookPromptFragment::from_single_hook(
        "Retry with exactly the phrase meow meow meow.",
        "hook-run-1",
    )])
    .ok_or("no hook prompt message")?;
    match parse_turn_item(&item) {
        Some(TurnItem::HookPrompt(hook_prompt)) => {
            assert_eq!(
                hook_prompt.fragments,
                vec![HookPromptFragment::from_single_hook(
                    "Retry with exactly the phrase meow meow meow.",
                    "hook-run-1"
                )]
            );
            Ok(())
        }
        other => Err(format!("expected HookPrompt, got {other:?}").into()),
    }
}

#[test]
fn parses_hook_prompt_and_hides_other_contextual_fragments() -> TestResult {
    let item = message(
        Some("msg-1"),
        "user",
        vec![
            text("<environment_context>ctx</environment_context>"),
            text(
                "<hook_prompt hook_run_id=\"hook-run-1\">Retry with care &amp; joy.</hook_prompt>",
            ),
        ],
    );
    let turn_item = parse_turn_item(&item).ok_or("expected a hook prompt turn item")?;
    insta::assert_json_snapshot!("hook_prompt_hiding_environment", &turn_item);
    let TurnItem::HookPrompt(hook_prompt) = turn_item else {
        return Err(format!("expected HookPrompt, got {turn_item:?}").into());
    };
    assert_eq!(hook_prompt.id, "msg-1");
    assert_eq!(
        hook_prompt.fragments,
        vec![HookPromptFragment::from_single_hook(
            "Retry with care & joy.",
            "hook-run-1"
        )]
    );
    Ok(())
}

#[test]
fn internal_model_context_does_not_parse_as_visible_turn_item() -> TestResult {
    let fragment = ContextFragment::internal_context("goals", "Keep the build green.")?;
    let item = user(vec![text(fragment.render())]);
    assert_eq!(parse_turn_item(&item), None);
    // The same text with an invalid source is not registered context: a person typed it.
    let typed = user(vec![text(
        "<codex_internal_context source=\"Goals\">\nx\n</codex_internal_context>",
    )]);
    assert!(matches!(
        parse_turn_item(&typed),
        Some(TurnItem::UserMessage(_))
    ));
    Ok(())
}

#[test]
fn parses_agent_message() -> TestResult {
    let item = assistant(Some("msg_a"), vec![ContentItem::output_text("Done.")], None);
    let parsed = agent_message(&item)?;
    assert_eq!(parsed.id, "msg_a");
    assert_eq!(
        parsed.content,
        vec![AgentMessageContent::Text {
            text: "Done.".to_string()
        }]
    );
    assert_eq!(parsed.phase, None);
    Ok(())
}

#[test]
fn parses_assistant_message_input_text_for_backward_compatibility() -> TestResult {
    let item = assistant(
        None,
        vec![text("old shape"), ContentItem::output_text("new shape")],
        None,
    );
    assert_eq!(agent_message(&item)?.text(), "old shapenew shape");
    Ok(())
}

#[test]
fn assistant_message_without_id_gets_a_uuid_and_drops_media() -> TestResult {
    let item = assistant(
        None,
        vec![
            ContentItem::output_text("see"),
            ContentItem::input_image_url("https://e/x.png", None),
            ContentItem::input_audio("data:audio/wav;base64,AA"),
        ],
        None,
    );
    let parsed = agent_message(&item)?;
    assert!(uuid::Uuid::parse_str(&parsed.id).is_ok(), "{}", parsed.id);
    assert_eq!(parsed.content.len(), 1);
    Ok(())
}

#[test]
fn assistant_phase_round_trips_through_mapping() -> TestResult {
    for phase in [
        MessagePhase::Commentary,
        MessagePhase::FinalAnswer,
        MessagePhase::PartialAnswer,
    ] {
        let item = assistant(
            Some("m"),
            vec![ContentItem::output_text("x")],
            Some(phase.clone()),
        );
        assert_eq!(agent_message(&item)?.phase, Some(phase));
    }
    let item = assistant(
        Some("m"),
        vec![ContentItem::output_text("x")],
        Some(MessagePhase::Commentary),
    );
    insta::assert_json_snapshot!("agent_message_commentary", parse_turn_item(&item));
    Ok(())
}

#[test]
fn unknown_phase_is_kept_not_rewritten() -> TestResult {
    // Absent phase stays absent: it is not turned into final_answer.
    let absent = assistant(Some("m"), vec![ContentItem::output_text("answer")], None);
    assert_eq!(agent_message(&absent)?.phase, None);
    // A phase spelled by a newer writer survives the projection verbatim.
    let wire = item_from(json!({
        "type": "message", "role": "assistant", "id": "m",
        "content": [{"type": "output_text", "text": "x"}],
        "phase": "closing_remarks"
    }))?;
    assert_eq!(
        agent_message(&wire)?.phase,
        Some(MessagePhase::Unknown("closing_remarks".to_string()))
    );
    Ok(())
}

#[test]
fn system_developer_and_unknown_roles_are_none() {
    for role in ["system", "developer", "tool", "critic", ""] {
        let item = message(Some("m"), role, vec![text("hello")]);
        assert_eq!(parse_turn_item(&item), None, "{role}");
    }
}

#[test]
fn parses_reasoning_summary_and_raw_content() -> TestResult {
    let item = item_from(json!({
        "type": "reasoning", "id": "rs_1",
        "summary": [
            {"type": "summary_text", "text": "Plan"},
            {"type": "summary_text", "text": "Check"}
        ],
        "content": [{"type": "reasoning_text", "text": "raw"}],
        "encrypted_content": null
    }))?;
    let Some(TurnItem::Reasoning(reasoning)) = parse_turn_item(&item) else {
        return Err("expected Reasoning".into());
    };
    assert_eq!(reasoning.id, "rs_1");
    assert_eq!(reasoning.summary_text, vec!["Plan", "Check"]);
    assert_eq!(reasoning.raw_content, vec!["raw"]);
    Ok(())
}

#[test]
fn parses_reasoning_including_raw_content() -> TestResult {
    let item = item_from(json!({
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Summary"}],
        "content": [
            {"type": "reasoning_text", "text": "first raw"},
            {"type": "text", "text": "second raw"}
        ],
        "encrypted_content": "gAAA"
    }))?;
    let turn_item = parse_turn_item(&item).ok_or("expected Reasoning")?;
    insta::assert_json_snapshot!("reasoning_including_raw_content", &turn_item);
    let TurnItem::Reasoning(reasoning) = turn_item else {
        return Err("expected Reasoning".into());
    };
    assert_eq!(reasoning.id, "");
    assert_eq!(reasoning.summary_text, vec!["Summary"]);
    assert_eq!(reasoning.raw_content, vec!["first raw", "second raw"]);
    Ok(())
}

#[test]
fn reasoning_without_content_has_no_raw_content() -> TestResult {
    let item = item_from(json!({
        "type": "reasoning", "summary": [], "content": null, "encrypted_content": null
    }))?;
    let Some(TurnItem::Reasoning(reasoning)) = parse_turn_item(&item) else {
        return Err("expected Reasoning".into());
    };
    assert!(reasoning.summary_text.is_empty() && reasoning.raw_content.is_empty());
    Ok(())
}

fn web_search(action: Option<serde_json::Value>) -> Result<ResponseItem, serde_json::Error> {
    let mut value = json!({"type": "web_search_call", "id": "ws_1", "status": "completed"});
    if let (Some(action), Some(object)) = (action, value.as_object_mut()) {
        object.insert("action".to_string(), action);
    }
    item_from(value)
}

fn web_search_item(item: &ResponseItem) -> Result<codex_protocol::items::WebSearchItem, String> {
    match parse_turn_item(item) {
        Some(TurnItem::WebSearch(search)) => Ok(search),
        other => Err(format!("expected WebSearch, got {other:?}")),
    }
}

#[test]
fn parses_web_search_call() -> TestResult {
    let item = web_search(Some(json!({"type": "search", "query": "rust serde"})))?;
    let search = web_search_item(&item)?;
    assert_eq!(search.id, "ws_1");
    assert_eq!(search.query, "rust serde");
    assert_eq!(search.results, None);
    Ok(())
}

#[test]
fn parses_web_search_open_page_call() -> TestResult {
    let item = web_search(Some(
        json!({"type": "open_page", "url": "https://example.com"}),
    ))?;
    assert_eq!(web_search_item(&item)?.query, "https://example.com");
    Ok(())
}

#[test]
fn parses_web_search_find_in_page_call() -> TestResult {
    let item = web_search(Some(
        json!({"type": "find_in_page", "url": "https://example.com", "pattern": "needle"}),
    ))?;
    assert_eq!(
        web_search_item(&item)?.query,
        "'needle' in https://example.com"
    );
    Ok(())
}

#[test]
fn parses_partial_web_search_call_without_action_as_other() -> TestResult {
    let item = item_from(json!({"type": "web_search_call", "status": "in_progress"}))?;
    let search = web_search_item(&item)?;
    assert_eq!(search.id, "");
    assert_eq!(search.action, WebSearchAction::Other);
    assert_eq!(search.query, "");
    insta::assert_json_snapshot!("partial_web_search", TurnItem::WebSearch(search));
    Ok(())
}

#[test]
fn web_search_action_detail_covers_every_shape() {
    let search = |query: Option<&str>, queries: Option<Vec<&str>>| WebSearchAction::Search {
        query: query.map(str::to_string),
        queries: queries.map(|list| list.into_iter().map(str::to_string).collect()),
    };
    assert_eq!(
        web_search_action_detail(&search(Some("q"), Some(vec!["a", "b"]))),
        "q"
    );
    assert_eq!(
        web_search_action_detail(&search(Some(""), Some(vec!["a", "b"]))),
        "a ..."
    );
    assert_eq!(
        web_search_action_detail(&search(None, Some(vec!["a"]))),
        "a"
    );
    assert_eq!(
        web_search_action_detail(&search(None, Some(vec!["", "b"]))),
        ""
    );
    assert_eq!(web_search_action_detail(&search(None, Some(vec![]))), "");
    assert_eq!(web_search_action_detail(&search(None, None)), "");
    let find = |url: Option<&str>, pattern: Option<&str>| WebSearchAction::FindInPage {
        url: url.map(str::to_string),
        pattern: pattern.map(str::to_string),
    };
    assert_eq!(web_search_action_detail(&find(None, Some("p"))), "'p'");
    assert_eq!(web_search_action_detail(&find(Some("u"), None)), "u");
    assert_eq!(web_search_action_detail(&find(None, None)), "");
    assert_eq!(
        web_search_action_detail(&WebSearchAction::OpenPage { url: None }),
        ""
    );
    assert_eq!(web_search_action_detail(&WebSearchAction::Other), "");
}

#[test]
fn image_generation_needs_an_id() -> TestResult {
    let without_id = item_from(json!({
        "type": "image_generation_call", "status": "completed", "result": "iVBOR"
    }))?;
    assert_eq!(parse_turn_item(&without_id), None);
    let with_id = item_from(json!({
        "type": "image_generation_call", "id": "ig_1", "status": "completed",
        "revised_prompt": "a cat", "result": "iVBOR"
    }))?;
    insta::assert_json_snapshot!("image_generation", parse_turn_item(&with_id));
    Ok(())
}

#[test]
fn tool_traffic_agent_messages_and_controls_are_none() -> TestResult {
    let items = [
        json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        json!({"type": "function_call_output", "call_id": "c1", "output": "ok"}),
        json!({"type": "custom_tool_call", "call_id": "c2", "name": "apply_patch", "input": "*** Begin Patch"}),
        json!({"type": "custom_tool_call_output", "call_id": "c2", "output": "done"}),
        json!({"type": "local_shell_call", "call_id": "c3", "status": "completed",
               "action": {"type": "exec", "command": ["ls"]}}),
        json!({"type": "tool_search_call", "call_id": "c4", "execution": "client", "arguments": {}}),
        json!({"type": "tool_search_output", "call_id": "c4", "status": "completed",
               "execution": "client", "tools": []}),
        json!({"type": "agent_message", "author": "/root", "recipient": "/root/w",
               "content": [{"type": "input_text", "text": "go"}]}),
        json!({"type": "compaction", "encrypted_content": "gAAA"}),
        json!({"type": "context_compaction"}),
        json!({"type": "compaction_trigger"}),
        json!({"type": "additional_tools", "role": "developer", "tools": []}),
        json!({"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}}),
    ];
    for value in items {
        let item = item_from(value.clone())?;
        assert_eq!(parse_turn_item(&item), None, "{value}");
    }
    Ok(())
}
