//! A session built with a stepping clock and sequential ids records the same thing on every
//! run, tool calls included: every UUID in its rollout items and events is its thread id or
//! one of the ids its source handed out, none a random one.

use std::sync::Arc;
use std::time::{Duration, UNIX_EPOCH};

use codex_core::InMemoryEventSink;
use codex_core::InMemoryRolloutSink;
use codex_core::ModelResponse;
use codex_core::ModelSettings;
use codex_core::ScriptedModel;
use codex_core::ScriptedTools;
use codex_core::Session;
use codex_core::SessionConfiguration;
use codex_core::TurnInterrupt;
use codex_core::TurnRunner;
use codex_core::{SequentialIds, SteppingClock};
use codex_protocol::models::{ContentItem, ResponseItem};
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use serde_json::Value;
use uuid::Uuid;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const THREAD: u128 = 0x0197_a2c4_5e00_7000_8000_0000_0000_0001;
/// The id source counts up from here: its ids are `BASE + 1`, `BASE + 2`, …
const BASE: u128 = 0x0197_a2c4_5e00_7000_8000_0000_1000_0000;

/// One turn through core's turn driver: an assistant message without an id, a shell call, a
/// patch call without a call id, the answer; then a hook prompt and a user message recorded
/// as items. Returns the rollout items and the events, as JSON.
async fn record_one_turn() -> Result<Value, Box<dyn std::error::Error>> {
    let rollout = InMemoryRolloutSink::new();
    let events = InMemoryEventSink::new();
    let start = UNIX_EPOCH + Duration::from_secs(1_750_000_000);
    let session = Session::new(
        SessionConfiguration::new(
            ThreadId::from(Uuid::from_u128(THREAD)),
            ModelSettings::new("gpt-test", "Be Codex."),
        ),
        Some(Arc::new(rollout.clone())),
        Arc::new(events.clone()),
    )
    .with_clock_and_ids(
        Arc::new(SteppingClock::new(start, Duration::from_millis(250))),
        Arc::new(SequentialIds::new(Uuid::from_u128(BASE))),
    );
    let patch = "*** Begin Patch\n*** Update File: src/lib.rs\n@@\n-old\n+new\n*** End Patch";
    let model = ScriptedModel::new(vec![
        ModelResponse::new(vec![
            ResponseItem::assistant_text("Running the tests first.", None),
            ResponseItem::function_call("shell", r#"{"command":["cargo","test"]}"#, "call_sh"),
        ]),
        ModelResponse::new(vec![ResponseItem::custom_tool_call(
            "apply_patch",
            patch,
            "",
        )]),
        ModelResponse::new(vec![ResponseItem::assistant_text("Fixed.", None)]),
    ]);
    let tools = ScriptedTools::new()
        .with_output("shell", "1 failed")
        .with_exit_code("shell", 101)
        .with_output("apply_patch", "Success. Updated src/lib.rs");
    let turn = session.new_turn_context("turn-1").await;
    TurnRunner::new(&model, &tools)
        .with_cwd("/repo")
        .run(
            &session,
            &turn,
            &[UserInput::text("fix the test")],
            &TurnInterrupt::new(),
        )
        .await?;
    // Items recorded outside the driver: a hook prompt and a person's message, both without
    // ids, whose turn items the session projects (the user message mints an id of its own).
    for text in [
        "<hook_prompt hook_run_id=\"run-1\">Run the tests again.</hook_prompt>",
        "thanks",
    ] {
        let message = ResponseItem::message("user", vec![ContentItem::input_text(text)]);
        session
            .record_response_item_and_emit_turn_item(&turn, message)
            .await
            .ok_or("the message has no turn item")?;
    }
    Ok(serde_json::json!({
        "rollout": serde_json::to_value(rollout.snapshot())?,
        "events": serde_json::to_value(events.snapshot())?,
    }))
}

/// Every UUID (8-4-4-4-12 hex digits) inside the strings of `value`, in order.
fn uuids_in(value: &Value, found: &mut Vec<Uuid>) {
    match value {
        Value::String(text) => {
            let bytes = text.as_bytes();
            let mut at = 0;
            while at + 36 <= bytes.len() {
                let parsed = text
                    .get(at..at + 36)
                    .filter(|slice| slice.as_bytes()[8] == b'-' && slice.as_bytes()[23] == b'-')
                    .and_then(|slice| Uuid::try_parse(slice).ok());
                match parsed {
                    Some(uuid) => {
                        found.push(uuid);
                        at += 36;
                    }
                    None => at += 1,
                }
            }
        }
        Value::Array(values) => values.iter().for_each(|value| uuids_in(value, found)),
        Value::Object(map) => map.values().for_each(|value| uuids_in(value, found)),
        _ => {}
    }
}

#[tokio::test]
async fn two_runs_record_the_same_ids_and_every_id_comes_from_the_source() -> TestResult {
    let first = record_one_turn().await?;
    let second = record_one_turn().await?;
    assert_eq!(first, second, "two runs of the same turn differ");

    let mut found = Vec::new();
    uuids_in(&first, &mut found);
    let minted: Vec<u128> = found
        .iter()
        .map(|uuid| uuid.as_u128())
        .filter(|&value| value != THREAD)
        .collect();
    let not_from_the_source: Vec<String> = minted
        .iter()
        .filter(|&&value| !(BASE + 1..BASE + 1000).contains(&value))
        .map(|&value| Uuid::from_u128(value).to_string())
        .collect();
    assert!(
        not_from_the_source.is_empty(),
        "ids minted outside the session's id source: {not_from_the_source:?}"
    );
    // At least: the submitted user message's item, the recorded one's, four messages' and two
    // calls' `msg_`/`fc_`/`ctc_` ids (the patch call's also names its file change item).
    let mut distinct = minted;
    distinct.sort_unstable();
    distinct.dedup();
    assert!(
        distinct.len() >= 8,
        "expected at least eight ids from the source, found {distinct:?}"
    );
    let first_issued = distinct.first().copied();
    assert_eq!(first_issued, Some(BASE + 1));
    Ok(())
}
