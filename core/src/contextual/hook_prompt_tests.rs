//! Hook prompts: rendering, strict and visible parsing, and building the message.

use codex_protocol::items::HookPromptFragment;
use codex_protocol::models::{ContentItem, ResponseItem};
use pretty_assertions::assert_eq;

use super::*;
use crate::contextual::is_contextual_user_message_content;

fn text(value: &str) -> ContentItem {
    ContentItem::input_text(value)
}

fn user_contextual(value: &str) -> bool {
    is_contextual_user_message_content(&[text(value)])
}

#[test]
fn detects_hook_prompt_fragment_and_roundtrips_escaping() {
    let fragment = HookPromptFragment::from_single_hook("Retry with care & <joy> \"now\"", "run-1");
    let rendered = render_hook_prompt_fragment(&fragment);
    assert_eq!(
        rendered,
        "<hook_prompt hook_run_id=\"run-1\">Retry with care &amp; &lt;joy&gt; &quot;now&quot;</hook_prompt>"
    );
    assert!(user_contextual(&rendered));
    assert_eq!(parse_hook_prompt_fragment(&rendered), Some(fragment));
}

#[test]
fn hook_prompt_parse_rejects_blank_run_id_and_markup() {
    assert_eq!(
        parse_hook_prompt_fragment("<hook_prompt hook_run_id=\"  \">x</hook_prompt>"),
        None
    );
    assert_eq!(
        parse_hook_prompt_fragment("<hook_prompt>x</hook_prompt>"),
        None
    );
    assert_eq!(
        parse_hook_prompt_fragment("<hook_prompt hook_run_id=\"a\"><b>x</b></hook_prompt>"),
        None
    );
    assert_eq!(
        parse_hook_prompt_fragment("<hook_prompt hook_run_id=\"a\">x &bogus; y</hook_prompt>"),
        None
    );
    assert_eq!(
        parse_hook_prompt_fragment("<hook_prompt hook_run_id=\"a\">unterminated"),
        None
    );
    assert_eq!(
        parse_hook_prompt_fragment("<hook_promptx hook_run_id=\"a\">x</hook_promptx>"),
        None
    );
}

#[test]
fn hook_prompt_parse_accepts_whitespace_quotes_and_numeric_references() {
    assert_eq!(
        parse_hook_prompt_fragment(
            "  <hook_prompt  hook_run_id = 'r&amp;1' >a&#38;b&#x21;</hook_prompt>\n"
        ),
        Some(HookPromptFragment::from_single_hook("a&b!", "r&1"))
    );
}

#[test]
fn builds_hook_prompt_message_and_parses_it_back() -> Result<(), Box<dyn std::error::Error>> {
    let fragments = vec![
        HookPromptFragment::from_single_hook("first", "run-1"),
        HookPromptFragment::from_single_hook("dropped", " "),
        HookPromptFragment::from_single_hook("second & last", "run-2"),
    ];
    let message = build_hook_prompt_message(&fragments).ok_or("no message")?;
    let ResponseItem::Message {
        id, role, content, ..
    } = &message
    else {
        return Err("not a message".into());
    };
    assert_eq!(role, "user");
    let id = id.as_ref().ok_or("no id")?;
    assert!(id.as_str().starts_with("msg_"), "{id}");
    assert_eq!(content.len(), 2);
    let parsed = parse_hook_prompt_message(Some(id.as_str()), content).ok_or("no parse")?;
    assert_eq!(parsed.id, id.as_str());
    assert_eq!(
        parsed.fragments,
        vec![fragments[0].clone(), fragments[2].clone()]
    );
    assert_eq!(
        build_hook_prompt_message(&[HookPromptFragment::from_single_hook("x", "")]),
        None
    );
    Ok(())
}

#[test]
fn strict_hook_prompt_parse_requires_every_part_to_be_a_hook() {
    let hook = "<hook_prompt hook_run_id=\"r\">x</hook_prompt>";
    let env = "<environment_context>c</environment_context>";
    assert!(parse_hook_prompt_message(None, &[text(hook)]).is_some());
    assert!(parse_hook_prompt_message(None, &[text(env), text(hook)]).is_none());
    // The visible reading skips registered context beside the hook...
    assert!(parse_visible_hook_prompt_message(None, &[text(env), text(hook)]).is_some());
    // ...but not plain text, media, or a message with no hook at all.
    assert!(parse_visible_hook_prompt_message(None, &[text("hi"), text(hook)]).is_none());
    assert!(
        parse_visible_hook_prompt_message(
            None,
            &[text(hook), ContentItem::input_image_url("u", None)]
        )
        .is_none()
    );
    assert!(parse_visible_hook_prompt_message(None, &[text(env)]).is_none());
}
