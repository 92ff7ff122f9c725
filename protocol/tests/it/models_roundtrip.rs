//! Wire snapshots and round trips of every model type, plus a check over real session files.
//!
//! Each family gets one snapshot of its JSON (reviewed, committed under `snapshots/`) and a
//! read-back that must equal the value written.

use crate::common;

use std::collections::BTreeMap;
use std::collections::BTreeSet;

use codex_protocol::models::*;
use codex_test_support::{jsonl_files_in, real_fixtures_dir};
use pretty_assertions::assert_eq;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

mod newest_shapes;
mod samples;

use samples::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Asserts that every value reads back from its own JSON unchanged.
fn assert_round_trips<T>(values: &[T]) -> TestResult
where
    T: Serialize + DeserializeOwned + PartialEq + std::fmt::Debug,
{
    for value in values {
        let json = serde_json::to_string(value)?;
        let back: T = serde_json::from_str(&json)?;
        assert_eq!(&back, value, "{json}");
    }
    Ok(())
}

#[test]
fn message_items_wire_shape() -> TestResult {
    let items = message_family();
    insta::assert_json_snapshot!("message_items", items);
    assert_round_trips(&items)
}

#[test]
fn reasoning_items_wire_shape() -> TestResult {
    let items = reasoning_family();
    insta::assert_json_snapshot!("reasoning_items", items);
    assert_round_trips(&items)
}

#[test]
fn tool_items_wire_shape() -> TestResult {
    let items = tool_family();
    insta::assert_json_snapshot!("tool_items", items);
    assert_round_trips(&items)
}

#[test]
fn provider_tool_items_wire_shape() -> TestResult {
    let items = provider_family();
    insta::assert_json_snapshot!("provider_tool_items", items);
    assert_round_trips(&items)
}

#[test]
fn compaction_and_control_items_wire_shape() -> TestResult {
    let items = compaction_family();
    insta::assert_json_snapshot!("compaction_and_control_items", items);
    assert_round_trips(&items)
}

#[test]
fn response_input_items_wire_shape_and_promotion() -> TestResult {
    let inputs = input_items();
    insta::assert_json_snapshot!("response_input_items", inputs);
    // An MCP result loses `success` through JSON (never written), so compare the others.
    let without_mcp: Vec<_> = inputs
        .iter()
        .filter(|item| !matches!(item, ResponseInputItem::McpToolCallOutput { .. }))
        .cloned()
        .collect();
    assert_round_trips(&without_mcp)?;

    let promoted: Vec<ResponseItem> = inputs.into_iter().map(ResponseItem::from).collect();
    insta::assert_json_snapshot!("promoted_input_items", promoted);
    assert!(promoted.iter().all(|item| item.id().is_none()));
    let call_ids: Vec<Option<&str>> = promoted.iter().map(ResponseItem::call_id).collect();
    assert_eq!(
        call_ids,
        vec![
            None,
            None,
            Some("call_1"),
            Some("call_2"),
            Some("call_3"),
            Some("call_4")
        ]
    );
    assert!(matches!(
        &promoted[1],
        ResponseItem::Message {
            phase: Some(MessagePhase::Commentary),
            ..
        }
    ));
    assert!(
        matches!(&promoted[3], ResponseItem::FunctionCallOutput { output, .. }
        if output.success == Some(true))
    );
    Ok(())
}

#[test]
fn base_instructions_wire_shape() -> TestResult {
    let values = vec![
        BaseInstructions::new("You are Codex."),
        BaseInstructions {
            text: "Custom".to_string(),
            provenance: Some(BaseInstructionsProvenance::Custom),
        },
        BaseInstructions {
            text: "Default".to_string(),
            provenance: Some(BaseInstructionsProvenance::Model {
                model: "gpt-5".to_string(),
            }),
        },
    ];
    insta::assert_json_snapshot!("base_instructions", values);
    assert_round_trips(&values)
}

/// The snapshot families above cover every `ResponseItem` and `ResponseInputItem` variant:
/// adding a variant without a snapshot case fails here.
#[test]
fn snapshot_families_cover_every_variant() -> TestResult {
    let covered: BTreeSet<String> = [
        message_family(),
        reasoning_family(),
        tool_family(),
        provider_family(),
        compaction_family(),
    ]
    .iter()
    .flatten()
    .map(|item| item.item_type().to_string())
    .collect();
    let declared = common::schema_tags(&serde_json::to_value(schemars::schema_for!(ResponseItem))?);
    assert_eq!(declared.len(), 18, "{declared:?}");
    assert_eq!(covered, declared);

    let inputs: BTreeSet<String> = input_items()
        .iter()
        .map(|item| {
            serde_json::to_value(item).map(|json| json["type"].as_str().unwrap_or("").to_string())
        })
        .collect::<Result<_, _>>()?;
    let declared_inputs = common::schema_tags(&serde_json::to_value(schemars::schema_for!(
        ResponseInputItem
    ))?);
    assert_eq!(declared_inputs.len(), 5, "{declared_inputs:?}");
    assert_eq!(inputs, declared_inputs);
    Ok(())
}

/// Every response item in every real file (enveloped `response_item` payloads, the items of
/// `compacted.replacement_history`, and bare items of the legacy format) parses, and only the
/// retired `ghost_snapshot` falls back to `Other`.
#[test]
fn real_response_items_parse_into_known_variants() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let mut parsed_by_type: BTreeMap<String, usize> = BTreeMap::new();
    let mut exact = 0usize;
    let mut total = 0usize;
    for path in jsonl_files_in(&dir)? {
        let bytes = std::fs::read(&path)?;
        for line in String::from_utf8_lossy(&bytes).lines() {
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            for raw in response_item_values(&value) {
                let tag = raw
                    .get("type")
                    .and_then(Value::as_str)
                    .unwrap_or_default()
                    .to_string();
                let item: ResponseItem = serde_json::from_value(raw.clone())
                    .map_err(|e| format!("{}: {tag}: {e}", path.display()))?;
                if item == ResponseItem::Other {
                    assert_eq!(tag, "ghost_snapshot", "{raw}");
                }
                total += 1;
                if serde_json::to_value(&item)? == *raw {
                    exact += 1;
                }
                *parsed_by_type
                    .entry(item.item_type().to_string())
                    .or_default() += 1;
            }
        }
    }
    assert!(
        parsed_by_type.get("function_call").copied().unwrap_or(0) > 500,
        "{parsed_by_type:?}"
    );
    assert!(
        parsed_by_type.contains_key("custom_tool_call_output"),
        "{parsed_by_type:?}"
    );
    assert!(
        parsed_by_type.contains_key("web_search_call"),
        "{parsed_by_type:?}"
    );
    #[allow(clippy::print_stderr)]
    {
        eprintln!(
            "real response items: {total}, re-serialized identically: {exact}, by type: {parsed_by_type:?}"
        );
    }
    Ok(())
}

fn response_item_values(line: &Value) -> Vec<&Value> {
    match line.get("type").and_then(Value::as_str) {
        Some("response_item") => line.get("payload").into_iter().collect(),
        Some("compacted") => line
            .pointer("/payload/replacement_history")
            .and_then(Value::as_array)
            .map(|items| items.iter().collect())
            .unwrap_or_default(),
        Some(_) if line.get("payload").is_none() && line.get("record_type").is_none() => {
            // Legacy files without the envelope hold bare items (and a bare session meta,
            // which has no `type`).
            vec![line]
        }
        _ => Vec::new(),
    }
}
