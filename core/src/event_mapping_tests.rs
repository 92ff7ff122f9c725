use codex_protocol::items::{AgentMessageContent, HookPromptFragment, TurnItem, UserMessageItem};
use codex_protocol::models::{ContentItem, ImageDetail, MessagePhase, ResponseItem};
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
fn with_a_sessions_ids_every_minted_id_comes_from_the_source() -> TestResult {
    use crate::session::clock::SequentialIds;
    let ids = SequentialIds::new(uuid::Uuid::nil());
    let from_the_source = |n: u128| uuid::Uuid::from_u128(n).to_string();

    let Some(TurnItem::UserMessage(person)) =
        parse_turn_item_with_ids(&message(Some("msg-9"), "user", vec![text("hi")]), &ids)
    else {
        return Err("expected a user message".into());
    };
    assert_eq!(person.id, from_the_source(1));

    let Some(TurnItem::AgentMessage(agent)) =
        parse_turn_item_with_ids(&assistant(None, vec![text("done")], None), &ids)
    else {
        return Err("expected an agent message".into());
    };
    assert_eq!(agent.id, from_the_source(2));

    let hook = user(vec![text(
        "<hook_prompt hook_run_id=\"run-1\">again</hook_prompt>",
    )]);
    let Some(TurnItem::HookPrompt(prompt)) = parse_turn_item_with_ids(&hook, &ids) else {
        return Err("expected a hook prompt".into());
    };
    assert_eq!(prompt.id, from_the_source(3));

    // An id the message has is kept, and mints nothing.
    let Some(TurnItem::AgentMessage(agent)) =
        parse_turn_item_with_ids(&assistant(Some("msg-2"), vec![text("ok")], None), &ids)
    else {
        return Err("expected an agent message".into());
    };
    assert_eq!(agent.id, "msg-2");
    assert_eq!(
        crate::session::clock::IdSource::next_uuid(&ids),
        uuid::Uuid::from_u128(4)
    );
    Ok(())
}
