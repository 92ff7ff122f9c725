//! Reconstruction end to end: a real compacted session, a session recorded by our recorder
//! for scripted turns (with a live rollback), a hand-written rollback fixture, and a property:
//! rebuilding any sequence of turns, compactions and rollbacks gives the history as it was
//! before the rolled-back turns started.
#![allow(clippy::print_stderr)]

use std::sync::Arc;

use codex_core::{ContextManager, TruncationPolicy, is_api_message};
use codex_core::{
    InMemoryEventSink, InitialContextInputs, ModelSettings, Session, SessionConfiguration,
};
use codex_core::{
    ModelResponse, ScriptedModel, ScriptedTools, TurnInterrupt, TurnOutcome, TurnRunner,
};
use codex_protocol::event::{EventMsg, ThreadRolledBackEvent, TokenUsage};
use codex_protocol::models::{MessagePhase, ResponseItem};
use codex_protocol::rollout::{CompactedItem, RolloutItem};
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use codex_rollout::RolloutRecorder;
use codex_rollout::load_rollout_items;
use codex_rollout::new_session_meta;
use codex_rollout::{
    ReconstructOptions, reconstruct_history_from_rollout, reconstruct_history_with,
};
use codex_test_support::real_fixtures_dir;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const COMPACTED_0104: &str =
    "madshn__localpush__rollout-2026-02-23T12-54-34-019c8a59-e9dd-71f0-9ae3-4079fe9726a9.jsonl";

/// A budget no real tool output reaches, so replayed items can be compared verbatim.
const NO_TRUNCATION: ReconstructOptions = ReconstructOptions {
    truncation_policy: TruncationPolicy::Bytes(usize::MAX / 2),
};

#[test]
fn compacted_0104_session_reconstructs_from_replacement_history_plus_later_items() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let path = dir.join(COMPACTED_0104);
    let loaded = load_rollout_items(&path)?;
    let items = loaded.contents.items();
    let (index, replacement) = items
        .iter()
        .enumerate()
        .find_map(|(index, item)| match item {
            RolloutItem::Compacted(compacted) => compacted
                .replacement_history
                .as_ref()
                .map(|history| (index, history.clone())),
            _ => None,
        })
        .ok_or("the 0.104 session has a compaction with replacement history")?;
    assert_eq!(replacement.len(), 40);

    let rebuilt = reconstruct_history_with(items, &NO_TRUNCATION);
    assert_eq!(rebuilt.stats.base_compaction, Some(index));
    assert_eq!(rebuilt.stats.replayed_from, index + 1);
    let mut expected = replacement;
    expected.extend(items[index + 1..].iter().filter_map(|item| match item {
        RolloutItem::ResponseItem(item) if is_api_message(item) => Some(item.clone()),
        _ => None,
    }));
    assert_eq!(rebuilt.history.raw_items(), expected.as_slice());
    // The reverse scan stopped inside the turns after the compaction.
    assert!(rebuilt.stats.scanned_down_to > 0, "{:?}", rebuilt.stats);
    let last_context = items.iter().rev().find_map(|item| match item {
        RolloutItem::TurnContext(context) => Some(context.as_ref().clone()),
        _ => None,
    });
    assert_eq!(rebuilt.reference_context_item, last_context);
    assert_eq!(
        rebuilt
            .previous_turn_settings
            .map(|settings| settings.model),
        last_context.map(|context| context.model)
    );
    assert!(rebuilt.token_info.is_some());
    Ok(())
}

fn usage(total: i64) -> TokenUsage {
    TokenUsage {
        input_tokens: total - 10,
        output_tokens: 10,
        total_tokens: total,
        ..TokenUsage::default()
    }
}

/// Two scripted turns recorded through our recorder, then a live rollback of the second: the
/// file reloads into the history the live session held at each point.
#[tokio::test]
async fn scripted_session_written_by_the_recorder_reconstructs_to_the_live_history() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout-scripted.jsonl");
    let thread_id = ThreadId::new();
    let recorder = RolloutRecorder::create_at(&path, new_session_meta(thread_id, "/repo", "test"))?;
    let configuration = SessionConfiguration::new(
        thread_id,
        ModelSettings::new("gpt-test", "You are Codex, a coding agent."),
    );
    let session = Session::new(
        configuration,
        Some(Arc::new(recorder.clone())),
        Arc::new(InMemoryEventSink::new()),
    );
    let model = ScriptedModel::new(vec![
        ModelResponse::new(vec![ResponseItem::function_call(
            "shell",
            r#"{"command":["ls"]}"#,
            "call_1",
        )]),
        ModelResponse::new(vec![ResponseItem::assistant_text(
            "Found 2 files.",
            Some(MessagePhase::FinalAnswer),
        )])
        .with_usage(usage(128)),
        ModelResponse::new(vec![ResponseItem::assistant_text("Done.", None)])
            .with_usage(usage(256)),
    ]);
    let tools = ScriptedTools::new().with_output("shell", "a.txt\nb.txt");
    let runner = TurnRunner::new(&model, &tools).with_initial_context(InitialContextInputs {
        developer_instructions: Some("Be brief.".to_string()),
        ..InitialContextInputs::default()
    });
    for (turn_id, text) in [("turn-1", "list the files"), ("turn-2", "thanks")] {
        let turn = session.new_turn_context(turn_id).await;
        let outcome = runner
            .run(
                &session,
                &turn,
                &[UserInput::text(text)],
                &TurnInterrupt::new(),
            )
            .await?;
        assert!(
            matches!(outcome, TurnOutcome::Completed { .. }),
            "{outcome:?}"
        );
    }
    recorder.flush().await?;

    let live = session.clone_history().await;
    let rebuilt = reconstruct_history_from_rollout(load_rollout_items(&path)?.contents.items());
    assert_eq!(rebuilt.history.raw_items(), live.raw_items());
    assert_eq!(rebuilt.token_info, live.token_info());
    assert_eq!(live.len(), 7, "{:?}", live.raw_items());

    // A live rollback of the last turn, persisted as its marker.
    let mut rolled_back = live.clone();
    rolled_back.drop_last_n_user_turns(1);
    session.replace_history(rolled_back.clone()).await;
    recorder
        .record_items(&[RolloutItem::EventMsg(EventMsg::ThreadRolledBack(
            ThreadRolledBackEvent { num_turns: 1 },
        ))])
        .await?;
    recorder.shutdown().await?;
    let rebuilt = reconstruct_history_from_rollout(load_rollout_items(&path)?.contents.items());
    assert_eq!(rebuilt.history.raw_items(), rolled_back.raw_items());
    assert_eq!(rebuilt.history.len(), 5);
    assert_eq!(rebuilt.stats.rollbacks_applied, 1);
    Ok(())
}

/// A rollout written by hand: three turns, a compaction inside the third, a rollback of two.
#[test]
fn hand_written_rollback_fixture_reconstructs() -> TestResult {
    let id = ThreadId::new();
    let lines = [
        format!(
            r#"{{"timestamp":"2025-10-01T10:00:00.000Z","type":"session_meta","payload":{{"id":"{id}","timestamp":"2025-10-01T10:00:00.000Z","cwd":"/repo","originator":"test","cli_version":"0.0.0","instructions":null}}}}"#
        ),
        r#"{"timestamp":"2025-10-01T10:00:01.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t1","model_context_window":null}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"first"}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:01.000Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/repo","approval_policy":"never","sandbox_policy":{"mode":"read-only"},"model":"model-one","summary":"auto"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"one"}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:02.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t1","last_agent_message":"one"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:03.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t2","model_context_window":null}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:03.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"second"}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:03.000Z","type":"turn_context","payload":{"turn_id":"t2","cwd":"/repo","approval_policy":"never","sandbox_policy":{"mode":"read-only"},"model":"model-two","summary":"auto"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:04.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"two"}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:04.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t2","last_agent_message":"two"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:05.000Z","type":"event_msg","payload":{"type":"task_started","turn_id":"t3","model_context_window":null}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:05.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"third"}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:05.000Z","type":"turn_context","payload":{"turn_id":"t3","cwd":"/repo","approval_policy":"never","sandbox_policy":{"mode":"read-only"},"model":"model-three","summary":"auto"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:06.000Z","type":"compacted","payload":{"message":"summary","replacement_history":[{"type":"message","role":"user","content":[{"type":"input_text","text":"first"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"second"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"third"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"summary"}]}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:06.000Z","type":"event_msg","payload":{"type":"context_compacted"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:07.000Z","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"three"}]}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:07.000Z","type":"event_msg","payload":{"type":"task_complete","turn_id":"t3","last_agent_message":"three"}}"#.to_string(),
        r#"{"timestamp":"2025-10-01T10:00:08.000Z","type":"event_msg","payload":{"type":"thread_rolled_back","num_turns":2}}"#.to_string(),
    ];
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollback.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n")?;
    let loaded = load_rollout_items(&path)?;
    assert!(
        loaded.contents.problems().is_empty(),
        "{:?}",
        loaded.contents.problems()
    );
    assert_eq!(loaded.thread_id, id);
    let rebuilt = reconstruct_history_from_rollout(loaded.contents.items());
    assert_eq!(
        rebuilt.history.raw_items(),
        &[
            ResponseItem::user_text("first"),
            ResponseItem::assistant_text("one", None)
        ]
    );
    assert_eq!(
        rebuilt
            .previous_turn_settings
            .map(|settings| settings.model),
        Some("model-one".to_string())
    );
    assert_eq!(
        rebuilt.reference_context_item.map(|context| context.model),
        Some("model-one".to_string())
    );
    assert_eq!(rebuilt.stats.compactions_undone, 1);
    Ok(())
}

/// One step of a generated session.
#[derive(Debug, Clone)]
enum Step {
    /// A user turn with `calls` tool calls; `compact_after` compacts mid-turn after that many
    /// calls (when not larger than `calls`).
    Turn {
        calls: usize,
        compact_after: Option<usize>,
    },
    /// A turn that only compacts (a manual `/compact`).
    CompactOnly,
    /// A rollback of `n` user turns.
    Rollback(u32),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (0usize..3, proptest::option::of(0usize..3))
            .prop_map(|(calls, compact_after)| Step::Turn { calls, compact_after }),
        1 => Just(Step::CompactOnly),
        2 => (0u32..4).prop_map(Step::Rollback),
    ]
}

/// The reference model: history as a value, the turn settings and the reference context
/// (by model name), and the state as it was before each surviving user turn. A rollback of `n`
/// restores the state from before the `n`-th last user turn.
#[derive(Debug, Clone, Default, PartialEq)]
struct State {
    history: Vec<ResponseItem>,
    settings: Option<String>,
    reference: Option<String>,
}

#[derive(Debug, Default)]
struct Model {
    state: State,
    before_turns: Vec<State>,
}

impl Model {
    fn compact(&mut self, label: &str, items: &mut Vec<RolloutItem>) {
        let replacement = vec![ResponseItem::user_text(format!("summary {label}"))];
        let mut compacted = CompactedItem::from_message(format!("summary {label}"));
        compacted.replacement_history = Some(replacement.clone());
        items.push(RolloutItem::Compacted(Box::new(compacted)));
        self.state.history = replacement;
        self.state.reference = None;
    }

    fn push(&mut self, item: ResponseItem, items: &mut Vec<RolloutItem>) {
        self.state.history.push(item.clone());
        items.push(RolloutItem::ResponseItem(item));
    }

    fn rollback(&mut self, n: u32) {
        let n = n as usize;
        if n == 0 || self.before_turns.is_empty() {
            return;
        }
        let keep = self.before_turns.len().saturating_sub(n);
        self.state = self.before_turns[keep].clone();
        self.before_turns.truncate(keep);
    }
}

fn turn_event(started: bool, turn_id: &str) -> Result<RolloutItem, serde_json::Error> {
    let kind = if started {
        "task_started"
    } else {
        "task_complete"
    };
    Ok(RolloutItem::EventMsg(serde_json::from_value(
        serde_json::json!({
            "type": kind,
            "turn_id": turn_id,
            "model_context_window": null,
            "last_agent_message": null,
        }),
    )?))
}

fn turn_context(turn_id: &str, model: &str) -> RolloutItem {
    let mut context = codex_protocol::rollout::TurnContextItem::new(
        "/repo",
        serde_json::json!("never"),
        serde_json::json!({}),
        model,
    );
    context.turn_id = Some(turn_id.to_string());
    RolloutItem::TurnContext(Box::new(context))
}

fn generate(steps: &[Step]) -> Result<(Vec<RolloutItem>, State), serde_json::Error> {
    let mut items = vec![RolloutItem::SessionMeta(Box::new(new_session_meta(
        ThreadId::new(),
        "/repo",
        "test",
    )))];
    let mut model = Model::default();
    model.push(
        ResponseItem::developer_text("<permissions instructions>x</permissions instructions>"),
        &mut items,
    );
    for (index, step) in steps.iter().enumerate() {
        let turn_id = format!("t{index}");
        match step {
            Step::Turn {
                calls,
                compact_after,
            } => {
                model.before_turns.push(model.state.clone());
                items.push(turn_event(true, &turn_id)?);
                model.push(ResponseItem::user_text(format!("user {index}")), &mut items);
                let model_name = format!("model-{index}");
                items.push(turn_context(&turn_id, &model_name));
                model.state.settings = Some(model_name.clone());
                model.state.reference = Some(model_name);
                for call in 0..*calls {
                    if *compact_after == Some(call) {
                        model.compact(&format!("{index}.{call}"), &mut items);
                    }
                    let call_id = format!("call_{index}_{call}");
                    model.push(
                        ResponseItem::function_call("shell", "{}", &call_id),
                        &mut items,
                    );
                    model.push(
                        ResponseItem::function_call_output(&call_id, format!("out {index}")),
                        &mut items,
                    );
                }
                if *compact_after == Some(*calls) {
                    model.compact(&format!("{index}.end"), &mut items);
                }
                model.push(
                    ResponseItem::assistant_text(format!("reply {index}"), None),
                    &mut items,
                );
                items.push(turn_event(false, &turn_id)?);
            }
            Step::CompactOnly => {
                items.push(turn_event(true, &turn_id)?);
                model.compact(&format!("{index}"), &mut items);
                items.push(turn_event(false, &turn_id)?);
            }
            Step::Rollback(n) => {
                model.rollback(*n);
                items.push(RolloutItem::EventMsg(EventMsg::ThreadRolledBack(
                    ThreadRolledBackEvent { num_turns: *n },
                )));
            }
        }
    }
    Ok((items, model.state))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn reconstruction_equals_the_history_before_the_rolled_back_turns(
        steps in proptest::collection::vec(step(), 0..24)
    ) {
        let (items, expected) = generate(&steps).map_err(|err| TestCaseError::fail(err.to_string()))?;
        let rebuilt = reconstruct_history_from_rollout(&items);
        prop_assert_eq!(rebuilt.history.raw_items(), expected.history.as_slice());
        prop_assert_eq!(
            rebuilt.previous_turn_settings.clone().map(|settings| settings.model),
            expected.settings
        );
        prop_assert_eq!(
            rebuilt.reference_context_item.clone().map(|context| context.model),
            expected.reference
        );
        // The owned path moves instead of cloning and must rebuild the same thread.
        let owned = reconstruct_history_with(items, &ReconstructOptions::default());
        prop_assert_eq!(owned.history.raw_items(), rebuilt.history.raw_items());
        prop_assert_eq!(owned.previous_turn_settings, rebuilt.previous_turn_settings);
        prop_assert_eq!(owned.reference_context_item, rebuilt.reference_context_item);
        prop_assert_eq!(owned.stats, rebuilt.stats);
    }

    /// Without compactions, replaying the markers with core's own rollback on a live history
    /// gives the same history.
    #[test]
    fn reconstruction_matches_live_rollback_without_compaction(
        steps in proptest::collection::vec(step(), 0..24)
    ) {
        let steps: Vec<Step> = steps
            .into_iter()
            .map(|step| match step {
                Step::Turn { calls, .. } => Step::Turn { calls, compact_after: None },
                Step::CompactOnly => Step::Rollback(0),
                other => other,
            })
            .collect();
        let (items, _) = generate(&steps).map_err(|err| TestCaseError::fail(err.to_string()))?;
        let mut live = ContextManager::new();
        for item in &items {
            match item {
                RolloutItem::ResponseItem(item) => {
                    live.record_items(std::iter::once(item), TruncationPolicy::Tokens(10_000));
                }
                RolloutItem::EventMsg(EventMsg::ThreadRolledBack(rollback)) => {
                    live.drop_last_n_user_turns(rollback.num_turns);
                }
                _ => {}
            }
        }
        let rebuilt = reconstruct_history_from_rollout(&items);
        prop_assert_eq!(rebuilt.history.raw_items(), live.raw_items());
    }
}
