//! Wire shapes of each line kind, pinned as snapshots, plus the JSON Schema / TypeScript
//! derives that other layers export.

use serde_json::json;

use super::*;
use crate::rollout::{
    CompactedItem, CompactionWindowId, GitInfo, SessionMeta, SessionMetaLine, TurnContextItem,
    parse_rollout_line,
};
use crate::thread_id::ThreadId;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const TS: &str = "2026-01-01T00:00:00.000Z";

fn lines() -> Result<Vec<RolloutLine>, Box<dyn std::error::Error>> {
    let id = ThreadId::from_string("0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")?;
    let mut meta = SessionMeta::new(id, TS, "/w", "codex_cli_rs", "0.1.0");
    meta.model_provider = Some("openai".to_string());
    let mut turn_context = TurnContextItem::new(
        "/w",
        json!("on-request"),
        json!({"type": "workspace-write", "network_access": false}),
        "gpt-5",
    );
    turn_context.turn_id = Some("t1".to_string());
    turn_context.effort = Some("high".to_string());
    turn_context.summary = Some("auto".to_string());
    let mut compacted = CompactedItem::from_message("summary of the work so far");
    compacted.replacement_history = Some(vec![serde_json::from_value(json!({
        "type": "message", "role": "user",
        "content": [{"type": "input_text", "text": "hi"}]
    }))?]);
    compacted.window_number = Some(1);
    compacted.window_id = Some(CompactionWindowId::Id("w-2".to_string()));
    let mut with_ordinal = RolloutLine::new(
        TS,
        RolloutItem::ResponseItem(serde_json::from_value(json!({
            "type": "function_call", "name": "shell", "arguments": "{\"command\":[\"ls\"]}",
            "call_id": "call_1"
        }))?),
    );
    with_ordinal.ordinal = Some(3);
    with_ordinal.extra = vec![(
        "metadata".to_string(),
        RawJson::from_text(r#"{"client_authored":false}"#)?,
    )];
    Ok(vec![
        RolloutLine::new(
            TS,
            RolloutItem::SessionMeta(Box::new(SessionMetaLine {
                meta,
                git: Some(GitInfo {
                    commit_hash: Some("0f02".to_string()),
                    branch: Some("main".to_string()),
                    repository_url: None,
                }),
            })),
        ),
        RolloutLine::new(TS, RolloutItem::TurnContext(Box::new(turn_context))),
        with_ordinal,
        RolloutLine::new(TS, RolloutItem::Compacted(Box::new(compacted))),
        RolloutLine::new(
            TS,
            RolloutItem::EventMsg(serde_json::from_value(
                json!({"type": "context_compacted"}),
            )?),
        ),
        RolloutLine::new(
            TS,
            RolloutItem::InterAgentCommunicationMetadata(
                crate::rollout::InterAgentCommunicationMetadata {
                    trigger_turn: false,
                },
            ),
        ),
        RolloutLine::new(
            TS,
            RolloutItem::WorldState(Box::new(crate::rollout::WorldStateItem {
                full: false,
                state: json!({"model": "gpt-5"}),
            })),
        ),
        RolloutLine::new(
            TS,
            RolloutItem::TokenUsageRecord(Box::new(serde_json::from_value(json!({
                "turn_id": "t1",
                "response_id": "resp_1",
                "usage": {"input_tokens": 10, "cached_input_tokens": 2, "output_tokens": 3,
                          "reasoning_output_tokens": 1, "total_tokens": 13},
            }))?)),
        ),
        RolloutLine::new(
            TS,
            RolloutItem::InterAgentCommunication(Box::new(serde_json::from_value(json!({
                "author": "/root", "recipient": "/root/worker", "content": "go",
                "trigger_turn": true,
            }))?)),
        ),
        RolloutLine::new(
            TS,
            RolloutItem::RealtimeItem(RawJson::from_text(r#"{"b":1,"kind":"fact"}"#)?),
        ),
        RolloutLine::new(
            TS,
            RolloutItem::Unknown(crate::rollout::UnknownRolloutItem {
                tag: "brand_new_line".to_string(),
                payload: Some(RawJson::from_text(r#"{"x":false}"#)?),
            }),
        ),
    ])
}

#[test]
fn every_line_kind_has_a_pinned_wire_shape() -> TestResult {
    let mut rendered = String::new();
    for line in lines()? {
        rendered.push_str(&line.to_json_line()?);
        rendered.push('\n');
    }
    insta::assert_snapshot!("rollout_lines_jsonl", rendered);
    Ok(())
}

#[test]
fn written_lines_parse_back_exactly() -> TestResult {
    for line in lines()? {
        let text = line.to_json_line()?;
        let parsed = parse_rollout_line(text.as_bytes())?;
        assert!(
            !parsed.is_original_kept(),
            "our own output must round-trip: {text}"
        );
        assert_eq!(parsed.line(), Some(&line));
        let via_serde: RolloutLine = serde_json::from_str(&text)?;
        assert_eq!(via_serde, line);
    }
    Ok(())
}

#[test]
fn legacy_numeric_window_id_fills_the_window_number() -> TestResult {
    let item: CompactedItem = serde_json::from_value(json!({"message": "m", "window_id": 4}))?;
    assert_eq!(item.window(), (Some(4), None));
    assert_eq!(
        serde_json::to_value(&item)?,
        json!({"message": "m", "window_id": 4})
    );
    let item: CompactedItem =
        serde_json::from_value(json!({"message": "m", "window_number": 2, "window_id": "w"}))?;
    assert_eq!(item.window(), (Some(2), Some("w")));
    Ok(())
}

#[test]
fn minimal_turn_context_is_accepted() -> TestResult {
    let item: TurnContextItem = serde_json::from_value(json!({
        "cwd": "/tmp", "approval_policy": "never",
        "sandbox_policy": {"type": "danger-full-access"}, "model": "gpt-5"
    }))?;
    assert_eq!(item.model, "gpt-5");
    assert_eq!(item.summary, None);
    Ok(())
}

#[test]
fn rollout_line_exports_json_schema_and_typescript() -> TestResult {
    use ts_rs::TS;
    let schema = serde_json::to_value(schemars::schema_for!(RolloutLine))?;
    let text = schema.to_string();
    for kind in [
        "session_meta",
        "response_item",
        "compacted",
        "turn_context",
        "event_msg",
    ] {
        assert!(text.contains(kind), "schema lacks {kind}");
    }
    assert!(text.contains("timestamp"));
    let declaration = RolloutLine::decl(&ts_rs::Config::default());
    assert!(declaration.contains("timestamp: string"), "{declaration}");
    assert!(declaration.contains("ordinal?: number"), "{declaration}");
    Ok(())
}

#[test]
fn compaction_summary_converts_to_an_assistant_message() -> TestResult {
    let item = crate::models::ResponseItem::from(CompactedItem::from_message("the summary"));
    assert_eq!(
        serde_json::to_value(&item)?,
        json!({"type": "message", "role": "assistant",
               "content": [{"type": "output_text", "text": "the summary"}]})
    );
    Ok(())
}
