//! One test per wire trap of the upstream format (reference protocol-wire §2-3): places where
//! a natural serde default would write or read a different JSON than upstream.

use pretty_assertions::assert_eq;
use serde_json::Value;
use serde_json::json;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn write(item: &ResponseItem) -> Result<Value, serde_json::Error> {
    serde_json::to_value(item)
}

fn read(value: Value) -> Result<ResponseItem, serde_json::Error> {
    serde_json::from_value(value)
}

fn reasoning(content: Option<Vec<ReasoningItemContent>>) -> ResponseItem {
    ResponseItem::Reasoning {
        id: None,
        summary: vec![],
        content,
        encrypted_content: None,
        internal_chat_message_metadata_passthrough: None,
    }
}

#[test]
fn reasoning_content_none_is_written_as_null() -> TestResult {
    assert_eq!(
        write(&reasoning(None))?,
        json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": null})
    );
    Ok(())
}

#[test]
fn reasoning_content_without_reasoning_text_is_omitted() -> TestResult {
    for content in [
        vec![],
        vec![ReasoningItemContent::Text {
            text: "plain".to_string(),
        }],
    ] {
        let json = write(&reasoning(Some(content)))?;
        assert_eq!(json.get("content"), None, "{json}");
    }
    let kept = write(&reasoning(Some(vec![
        ReasoningItemContent::ReasoningText {
            text: "raw".to_string(),
        },
    ])))?;
    assert_eq!(
        kept["content"],
        json!([{"type": "reasoning_text", "text": "raw"}])
    );
    Ok(())
}

#[test]
fn reasoning_content_missing_key_stays_missing() -> TestResult {
    let wire = json!({"type": "reasoning", "id": "rs_1", "summary": [], "encrypted_content": "e"});
    assert_eq!(write(&read(wire.clone())?)?, wire);
    let null =
        json!({"type": "reasoning", "summary": [], "content": null, "encrypted_content": null});
    assert_eq!(write(&read(null.clone())?)?, null);
    Ok(())
}

#[test]
fn classic_reasoning_reads_a_plain_string_id() -> TestResult {
    let item = read(json!({"type": "reasoning", "id": "rs_0a99", "summary": [
        {"type": "summary_text", "text": "**Deciding**"}], "content": null, "encrypted_content": "gAAA"}))?;
    assert_eq!(item.id().map(|id| id.as_str()), Some("rs_0a99"));
    Ok(())
}

#[test]
fn ids_are_written_when_present_and_omitted_when_absent() -> TestResult {
    let mut item = ResponseItem::user_text("hi");
    assert_eq!(write(&item)?.get("id"), None);
    item.set_id(Some(crate::response_item_id::ResponseItemId::from_server(
        "msg_1",
    )));
    assert_eq!(write(&item)?["id"], json!("msg_1"));
    Ok(())
}

#[test]
fn nullable_call_ids_are_written_as_null() -> TestResult {
    let shell = read(json!({"type": "local_shell_call", "status": "completed",
        "action": {"type": "exec", "command": ["ls"]}}))?;
    let json = write(&shell)?;
    assert_eq!(json["call_id"], Value::Null);
    assert_eq!(
        json["action"],
        json!({"type": "exec", "command": ["ls"], "timeout_ms": null,
               "working_directory": null, "env": null, "user": null})
    );

    let search = read(json!({"type": "tool_search_call", "execution": "server",
        "arguments": {"q": "x"}}))?;
    assert_eq!(write(&search)?["call_id"], Value::Null);
    let output = read(json!({"type": "tool_search_output", "status": "completed",
        "execution": "server", "tools": []}))?;
    assert_eq!(write(&output)?["call_id"], Value::Null);
    Ok(())
}

#[test]
fn function_call_output_call_id_is_skipped_when_absent() -> TestResult {
    let named = read(json!({"type": "function_call_output", "name": "external",
        "output": "x"}))?;
    assert_eq!(
        write(&named)?,
        json!({"type": "function_call_output", "name": "external", "output": "x"})
    );
    Ok(())
}

#[test]
fn tool_output_success_is_never_written() -> TestResult {
    let item = ResponseItem::function_call_output(
        "c1",
        FunctionCallOutputPayload::from_text("denied").with_success(false),
    );
    assert_eq!(
        write(&item)?,
        json!({"type": "function_call_output", "call_id": "c1", "output": "denied"})
    );
    Ok(())
}

#[test]
fn classic_custom_tool_output_plain_string_reads() -> TestResult {
    let item = read(json!({"type": "custom_tool_call_output", "call_id": "c",
        "output": "Success. Updated the following files:\nM a.rs\n"}))?;
    let ResponseItem::CustomToolCallOutput { output, .. } = &item else {
        return Err("not a custom tool output".into());
    };
    assert_eq!(
        output.text_content(),
        Some("Success. Updated the following files:\nM a.rs\n")
    );
    Ok(())
}

#[test]
fn unknown_types_read_as_other_and_write_as_other() -> TestResult {
    let ghost = read(json!({"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}}))?;
    assert_eq!(ghost, ResponseItem::Other);
    assert_eq!(write(&ghost)?, json!({"type": "other"}));
    Ok(())
}

#[test]
fn compaction_summary_is_an_alias_of_compaction() -> TestResult {
    let item = read(json!({"type": "compaction_summary", "encrypted_content": "blob"}))?;
    assert_eq!(
        write(&item)?,
        json!({"type": "compaction", "encrypted_content": "blob"})
    );
    Ok(())
}

#[test]
fn compaction_trigger_is_a_bare_tag() -> TestResult {
    assert_eq!(
        serde_json::to_string(&ResponseItem::CompactionTrigger {})?,
        r#"{"type":"compaction_trigger"}"#
    );
    assert_eq!(
        read(json!({"type": "compaction_trigger", "extra": 1}))?,
        ResponseItem::CompactionTrigger {}
    );
    Ok(())
}

#[test]
fn extra_keys_from_newer_writers_are_ignored() -> TestResult {
    let item = read(
        json!({"type": "function_call", "id": "fn-1", "call_id": "call-2",
        "name": "shell", "namespace": null, "arguments": "{}", "brand_new": [1],
        "metadata": {"turn_id": "t"},
        "internal_chat_message_metadata_passthrough": {"turn_id": "t", "unknown": true}}),
    )?;
    assert_eq!(item.turn_id(), Some("t"));
    assert_eq!(item.call_id(), Some("call-2"));
    Ok(())
}

#[test]
fn null_function_arguments_read_as_empty_text() -> TestResult {
    let item = read(
        json!({"type": "function_call", "name": "f", "arguments": null,
        "call_id": "c"}),
    )?;
    assert!(matches!(&item, ResponseItem::FunctionCall { arguments, .. } if arguments.is_empty()));
    Ok(())
}

#[test]
fn empty_encrypted_function_args_round_trip() -> TestResult {
    let wire = json!({"type": "function_call", "name": "f", "arguments": "{}",
        "encrypted_function_args": [], "call_id": "c"});
    assert_eq!(write(&read(wire.clone())?)?, wire);
    Ok(())
}

#[test]
fn absent_phase_stays_absent() -> TestResult {
    let wire = json!({"type": "message", "role": "assistant",
        "content": [{"type": "output_text", "text": "hi"}]});
    let item = read(wire.clone())?;
    assert!(matches!(&item, ResponseItem::Message { phase: None, .. }));
    assert_eq!(write(&item)?, wire);
    Ok(())
}

#[test]
fn web_search_call_without_action_and_with_unknown_action() -> TestResult {
    let partial = json!({"type": "web_search_call", "id": "ws_partial", "status": "in_progress"});
    assert_eq!(write(&read(partial.clone())?)?, partial);
    let unknown = read(json!({"type": "web_search_call", "status": "completed",
        "action": {"type": "screenshot", "url": "u"}}))?;
    assert!(matches!(
        unknown,
        ResponseItem::WebSearchCall {
            action: Some(WebSearchAction::Other),
            ..
        }
    ));
    Ok(())
}

#[test]
fn wrong_field_types_fail_with_the_field_named() {
    let err = read(json!({"type": "message", "role": 5, "content": []}))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(err.contains("invalid type"), "{err}");
    let missing = read(json!({"type": "function_call", "name": "f", "arguments": "{}"}))
        .err()
        .map(|e| e.to_string())
        .unwrap_or_default();
    assert!(missing.contains("call_id"), "{missing}");
}
