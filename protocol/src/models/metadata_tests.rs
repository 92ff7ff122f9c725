//! Unit tests of the harness metadata passthrough: read order, lenient and write-only keys.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

#[test]
fn reads_turn_id_create_time_and_kinds_in_wire_order() -> Result<(), serde_json::Error> {
    let wire = r#"{"content_item_kinds":["multi_agent.mode_instructions"],"create_time":1788214171.128268,"turn_id":"t1"}"#;
    let meta: InternalChatMessageMetadataPassthrough = serde_json::from_str(wire)?;
    assert_eq!(meta.turn_id(), Some("t1"));
    assert_eq!(
        serde_json::to_string(&meta)?,
        r#"{"turn_id":"t1","create_time":1788214171.128268,"content_item_kinds":["multi_agent.mode_instructions"]}"#
    );
    Ok(())
}

#[test]
fn malformed_kinds_read_as_none() -> Result<(), serde_json::Error> {
    for kinds in [
        json!("user_text"),
        json!({"a": 1}),
        json!(["user_text", 123]),
    ] {
        let meta: InternalChatMessageMetadataPassthrough =
            serde_json::from_value(json!({"turn_id": "t", "content_item_kinds": kinds}))?;
        assert_eq!(meta.content_item_kinds, None);
        assert_eq!(meta.turn_id(), Some("t"));
    }
    Ok(())
}

#[test]
fn write_only_fields_are_written_but_never_read() -> Result<(), serde_json::Error> {
    let meta = InternalChatMessageMetadataPassthrough {
        cell_id: Some("cell".to_string()),
        executed_tool_calls: Some(vec![json!({"name": "shell", "arguments": {}})]),
        tool_calls_complete: Some(true),
        ..Default::default()
    };
    let wire = serde_json::to_value(&meta)?;
    assert_eq!(
        wire,
        json!({
            "cell_id": "cell",
            "executed_tool_calls": [{"name": "shell", "arguments": {}}],
            "tool_calls_complete": true
        })
    );
    let back: InternalChatMessageMetadataPassthrough = serde_json::from_value(wire)?;
    assert!(back.is_empty(), "{back:?}");
    Ok(())
}

#[test]
fn unknown_keys_are_ignored_and_empty_turn_id_counts_as_missing() -> Result<(), serde_json::Error> {
    let meta: InternalChatMessageMetadataPassthrough =
        serde_json::from_value(json!({"turn_id": "", "other": "ignored"}))?;
    assert_eq!(meta.turn_id(), None);
    assert_eq!(meta.turn_id.as_deref(), Some(""));
    Ok(())
}
