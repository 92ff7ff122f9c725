//! Sessions written by our recorder from core's turn driver, with tool items: a shell call,
//! an apply_patch call and an interrupted turn, recorded in each history mode, reload to the
//! live history and, through the app-server history builder, to the items a client saw live.
//! A resumed paginated file continues its ordinals.

use std::path::Path;
use std::sync::Arc;

use codex_app_server_protocol::v2::ThreadItem;
use codex_app_server_protocol::{
    EventProjector, ServerMessage, ServerNotification, build_turns_from_rollout_items,
};
use codex_core::ContextManager;
use codex_core::{InMemoryEventSink, ModelSettings, Session, SessionConfiguration};
use codex_core::{
    ModelResponse, ScriptedModel, ScriptedTools, TurnInterrupt, TurnOutcome, TurnRunner,
};
use codex_protocol::event::{Event, EventMsg};
use codex_protocol::models::{MessagePhase, ReasoningItemReasoningSummary, ResponseItem};
use codex_protocol::rollout::{HistoryMode, RolloutItem, parse_rollout_line, split_lines};
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use codex_rollout::RolloutRecorder;
use codex_rollout::load_rollout_items;
use codex_rollout::new_session_meta;
use codex_rollout::reconstruct_history_from_rollout;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;
type AnyResult<T> = Result<T, Box<dyn std::error::Error>>;

const CWD: &str = "/repo";
const PATCH: &str = "*** Begin Patch\n*** Update File: src/main.rs\n@@ struct Args {\n+    verbose: bool,\n }\n*** End Patch";

/// The client's view of a thread: each turn's id and its items, in order.
type TurnItems = Vec<(String, Vec<ThreadItem>)>;

/// A live session recording into a file, with the events it emitted.
struct Live {
    session: Session,
    recorder: RolloutRecorder,
    events: InMemoryEventSink,
}

impl Live {
    /// A new session at `path` in history mode `mode`.
    fn create(path: &Path, thread_id: ThreadId, mode: HistoryMode) -> AnyResult<Self> {
        let mut meta = new_session_meta(thread_id, CWD, "test");
        meta.meta.history_mode = Some(mode);
        Ok(Self::with_recorder(
            thread_id,
            RolloutRecorder::create_at(path, meta)?,
        ))
    }

    fn with_recorder(thread_id: ThreadId, recorder: RolloutRecorder) -> Self {
        let events = InMemoryEventSink::new();
        let session = Session::new(
            SessionConfiguration::new(thread_id, ModelSettings::new("gpt-test", "Be Codex.")),
            Some(Arc::new(recorder.clone())),
            Arc::new(events.clone()),
        );
        Self {
            session,
            recorder,
            events,
        }
    }

    /// Runs turn `id`: the person says `user`, the model answers `responses` in order, and
    /// `tools` runs the calls.
    async fn turn(
        &self,
        id: &str,
        user: &str,
        responses: Vec<ModelResponse>,
        tools: &ScriptedTools,
        interrupt: &TurnInterrupt,
    ) -> AnyResult<TurnOutcome> {
        let model = ScriptedModel::new(responses);
        let turn = self.session.new_turn_context(id).await;
        Ok(TurnRunner::new(&model, tools)
            .with_cwd(CWD)
            .run(&self.session, &turn, &[UserInput::text(user)], interrupt)
            .await?)
    }

    fn events(&self) -> Vec<Event> {
        self.events.snapshot()
    }
}

fn reasoning(summary: &str) -> ResponseItem {
    ResponseItem::Reasoning {
        id: None,
        summary: vec![ReasoningItemReasoningSummary::SummaryText {
            text: summary.to_string(),
        }],
        content: None,
        encrypted_content: Some("opaque".to_string()),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn shell(call_id: &str, command: &str) -> ResponseItem {
    let arguments = serde_json::json!({ "command": ["bash", "-lc", command] });
    ResponseItem::function_call("shell", arguments.to_string(), call_id)
}

fn answer(text: &str) -> ModelResponse {
    ModelResponse::new(vec![ResponseItem::assistant_text(
        text,
        Some(MessagePhase::FinalAnswer),
    )])
}

/// Turn 1: a shell call and an apply_patch call, then an answer.
async fn turn_with_tools(live: &Live, id: &str) -> TestResult {
    let tools = ScriptedTools::new()
        .with_output("shell", "Cargo.toml\nsrc\n")
        .with_exit_code("shell", 0)
        .with_output(
            "apply_patch",
            "Success. Updated the following files:\nM src/main.rs\n",
        );
    let outcome = live
        .turn(
            id,
            "add a --verbose flag",
            vec![
                ModelResponse::new(vec![reasoning("Looking around"), shell("call_ls", "ls")]),
                ModelResponse::new(vec![ResponseItem::custom_tool_call(
                    "apply_patch",
                    PATCH,
                    "call_patch",
                )]),
                answer("Added `--verbose`."),
            ],
            &tools,
            &TurnInterrupt::new(),
        )
        .await?;
    assert!(
        matches!(outcome, TurnOutcome::Completed { .. }),
        "{outcome:?}"
    );
    Ok(())
}

/// Turns 2 and 3: the tests' command is interrupted while it runs, then the person moves on.
async fn interrupted_turn_and_a_follow_up(live: &Live) -> TestResult {
    let interrupt = TurnInterrupt::new();
    let tools = ScriptedTools::new().interrupting("shell", interrupt.clone());
    let outcome = live
        .turn(
            "turn-2",
            "run the tests",
            vec![ModelResponse::new(vec![
                ResponseItem::assistant_text("Running them.", Some(MessagePhase::Commentary)),
                shell("call_test", "cargo test"),
            ])],
            &tools,
            &interrupt,
        )
        .await?;
    assert_eq!(outcome, TurnOutcome::Aborted);
    live.turn(
        "turn-3",
        "never mind",
        vec![answer("OK.")],
        &ScriptedTools::new(),
        &TurnInterrupt::new(),
    )
    .await?;
    Ok(())
}

/// Records the three-turn scenario at `path` in `mode`; returns the live session, flushed.
async fn record_scenario(path: &Path, mode: HistoryMode) -> AnyResult<Live> {
    let live = Live::create(path, ThreadId::new(), mode)?;
    turn_with_tools(&live, "turn-1").await?;
    interrupted_turn_and_a_follow_up(&live).await?;
    live.recorder.flush().await?;
    Ok(live)
}

/// What a client saw live: the events projected with the app-server projector, the
/// completed items grouped by turn.
fn live_turn_items(thread_id: ThreadId, events: &[Event]) -> TurnItems {
    let mut projector = EventProjector::with_clock(thread_id.to_string(), || 0);
    let mut turns: TurnItems = Vec::new();
    for event in events {
        for message in projector.project(&event.msg) {
            let ServerMessage::Notification(ServerNotification::ItemCompleted(done)) = message
            else {
                continue;
            };
            match turns.last_mut() {
                Some((turn_id, items)) if *turn_id == done.turn_id => items.push(done.item.item),
                _ => turns.push((done.turn_id, vec![done.item.item])),
            }
        }
    }
    turns
}

/// What a resume shows: the file's turns rebuilt by the app-server history builder.
fn resumed_turn_items(items: &[RolloutItem]) -> TurnItems {
    build_turns_from_rollout_items(items)
        .into_iter()
        .map(|turn| {
            (
                turn.id,
                turn.items.into_iter().map(|item| item.item).collect(),
            )
        })
        .collect()
}

/// Only the items of `kind` (`commandExecution`, `fileChange`...), turn by turn.
fn only(kind: &str, turns: &TurnItems) -> TurnItems {
    turns
        .iter()
        .map(|(id, items)| {
            let kept = items.iter().filter(|item| item.kind() == kind).cloned();
            (id.clone(), kept.collect())
        })
        .collect()
}

/// Every line's `ordinal`, in file order.
fn ordinals(path: &Path) -> AnyResult<Vec<Option<u64>>> {
    let bytes = std::fs::read(path)?;
    let mut ordinals = Vec::new();
    for (number, line) in split_lines(&bytes) {
        let parsed = parse_rollout_line(line).map_err(|err| format!("line {number}: {err}"))?;
        ordinals.push(parsed.line().and_then(|line| line.ordinal));
    }
    Ok(ordinals)
}

/// The event types of `items`, with the item type of each `item_completed`
/// (`item_completed/CommandExecution`).
fn event_kinds(items: &[RolloutItem]) -> Vec<String> {
    items
        .iter()
        .filter_map(|item| match item {
            RolloutItem::EventMsg(EventMsg::ItemCompleted(done)) => {
                Some(format!("item_completed/{}", done.item.type_name()))
            }
            RolloutItem::EventMsg(event) => Some(event.type_name().to_string()),
            _ => None,
        })
        .collect()
}

#[track_caller]
fn assert_reloads_to(path: &Path, live: &ContextManager) -> AnyResult<Vec<RolloutItem>> {
    let loaded = load_rollout_items(path)?;
    assert!(
        loaded.contents.problems().is_empty(),
        "{:?}",
        loaded.contents.problems()
    );
    let rebuilt = reconstruct_history_from_rollout(loaded.contents.items());
    assert_eq!(rebuilt.history.raw_items(), live.raw_items());
    Ok(loaded.contents.items().to_vec())
}

#[tokio::test]
async fn a_paginated_session_with_tools_reloads_to_the_live_history_and_items() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout-paginated.jsonl");
    let live = record_scenario(&path, HistoryMode::Paginated).await?;
    let items = assert_reloads_to(&path, &live.session.clone_history().await)?;

    let ordinals = ordinals(&path)?;
    let expected: Vec<Option<u64>> = (0..ordinals.len() as u64).map(Some).collect();
    assert_eq!(ordinals, expected, "every line numbered 0, 1, 2, ...");

    let kinds = event_kinds(&items);
    for legacy in [
        "user_message",
        "agent_message",
        "agent_reasoning",
        "patch_apply_end",
    ] {
        assert!(
            !kinds.iter().any(|kind| kind == legacy),
            "{legacy} in {kinds:?}"
        );
    }
    for typed in [
        "UserMessage",
        "AgentMessage",
        "Reasoning",
        "CommandExecution",
        "FileChange",
    ] {
        let kind = format!("item_completed/{typed}");
        assert!(kinds.contains(&kind), "{kind} missing from {kinds:?}");
    }

    // A resume shows exactly what the live notifications showed, turn by turn.
    let seen = live_turn_items(live.session.thread_id(), &live.events());
    let resumed = resumed_turn_items(&items);
    assert_eq!(resumed, seen);
    let commands = only("commandExecution", &seen);
    let turn_ids: Vec<&str> = commands.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(turn_ids, ["turn-1", "turn-2", "turn-3"]);
    assert_eq!(commands[0].1.len(), 1, "turn 1 ran ls");
    assert_eq!(commands[1].1.len(), 1, "turn 2's interrupted command");
    assert_eq!(only("fileChange", &seen)[0].1.len(), 1, "turn 1's patch");
    assert_eq!(only("fileChange", &resumed), only("fileChange", &seen));
    Ok(())
}

#[tokio::test]
async fn the_interrupted_command_is_shown_failed_live_and_on_resume() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout-interrupted.jsonl");
    let live = record_scenario(&path, HistoryMode::Paginated).await?;
    let items = assert_reloads_to(&path, &live.session.clone_history().await)?;
    let resumed = only("commandExecution", &resumed_turn_items(&items));
    let json = serde_json::to_value(&resumed[1].1)?;
    assert_eq!(json[0]["id"], "call_test");
    assert_eq!(json[0]["status"], "failed");
    assert_eq!(json[0]["exitCode"], serde_json::Value::Null);
    let done = serde_json::to_value(&resumed[0].1)?;
    assert_eq!(done[0]["status"], "completed");
    assert_eq!(done[0]["exitCode"], 0);
    assert_eq!(done[0]["aggregatedOutput"], "Cargo.toml\nsrc\n");
    assert_eq!(done[0]["cwd"], CWD);
    Ok(())
}

#[tokio::test]
async fn the_same_session_in_legacy_mode_reloads_to_the_live_history() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout-legacy.jsonl");
    let live = record_scenario(&path, HistoryMode::Legacy).await?;
    let items = assert_reloads_to(&path, &live.session.clone_history().await)?;

    assert!(
        ordinals(&path)?.iter().all(Option::is_none),
        "legacy lines have no ordinal"
    );
    let kinds = event_kinds(&items);
    for legacy in [
        "user_message",
        "agent_message",
        "agent_reasoning",
        "patch_apply_end",
    ] {
        assert!(
            kinds.iter().any(|kind| kind == legacy),
            "{legacy} missing from {kinds:?}"
        );
    }
    assert!(
        !kinds.iter().any(|kind| kind.starts_with("item_completed/")),
        "no item of this session is kept as item_completed in legacy mode: {kinds:?}"
    );

    // The patch comes back from its end event; a legacy file keeps no command results
    // (`exec_command_end` is transient, the output is in the function call output).
    let seen = live_turn_items(live.session.thread_id(), &live.events());
    let resumed = resumed_turn_items(&items);
    assert_eq!(only("fileChange", &resumed), only("fileChange", &seen));
    assert!(
        only("commandExecution", &resumed)
            .iter()
            .all(|(_, items)| items.is_empty())
    );
    Ok(())
}

#[tokio::test]
async fn a_resumed_paginated_session_continues_its_ordinals() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout-resumed.jsonl");
    let thread_id = ThreadId::new();
    let first = Live::create(&path, thread_id, HistoryMode::Paginated)?;
    turn_with_tools(&first, "turn-1").await?;
    first.recorder.flush().await?;
    let first_events = first.events();
    let lines_before = ordinals(&path)?.len();
    drop(first);

    let recorder = RolloutRecorder::resume(&path).await?;
    assert_eq!(recorder.history_mode(), &HistoryMode::Paginated);
    let second = Live::with_recorder(thread_id, recorder);
    let restored = reconstruct_history_from_rollout(load_rollout_items(&path)?.contents.items());
    second.session.replace_history(restored.history).await;
    interrupted_turn_and_a_follow_up(&second).await?;
    second.recorder.shutdown().await?;

    let ordinals = ordinals(&path)?;
    assert!(
        ordinals.len() > lines_before,
        "the resumed session wrote more lines"
    );
    let expected: Vec<Option<u64>> = (0..ordinals.len() as u64).map(Some).collect();
    assert_eq!(ordinals, expected, "no gap and no repeat across the resume");

    let items = assert_reloads_to(&path, &second.session.clone_history().await)?;
    let mut seen = live_turn_items(thread_id, &first_events);
    seen.extend(live_turn_items(thread_id, &second.events()));
    assert_eq!(resumed_turn_items(&items), seen);
    Ok(())
}
