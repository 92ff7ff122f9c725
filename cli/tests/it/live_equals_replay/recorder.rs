//! Live equals replay, through the real recorder: a client that reduces the live
//! notification stream of a scripted thread ends with the same turns and items as a client
//! that resumes the session file codex-rollout's `RolloutRecorder` wrote of the same events,
//! in both history modes: the file is written, read back from disk, and projected into turns
//! the way `codex-thread thread` does (`client_view_items`, then the thread builder).
//!
//! Scripted turns cover an agent message with deltas, a command with output deltas (and a
//! repeated begin, and a character split across chunks), a patch, an interrupted turn, a
//! failed turn and a client rollback. Every message goes through its JSON wire form first.
//! What no session file can hold (an `error` event; a legacy file's commands) is named by
//! `scenarios::as_recorded`; everything else must come back exactly.

use std::collections::BTreeMap;

use codex_app_server_protocol::scenarios::{
    Party, Scenario, all_scenarios, as_recorded, without_item_times,
};
use codex_app_server_protocol::v2::{ThreadItem, ThreadRollbackResponse, Turn, TurnStatus};
use codex_app_server_protocol::{
    ClientRequest, JSONRPCMessage, RequestId, ServerNotification, ServerRequest, ThreadState,
    build_turns_from_rollout_items,
};
use codex_protocol::rollout::{HistoryMode, RolloutItem};
use codex_rollout::RolloutContents;
use codex_rollout::RolloutRecorder;
use codex_rollout::client_view_items;
use codex_rollout::persisted_rollout_items;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// What a session file of `mode` keeps of `items`: the recorder's own policy.
fn kept(items: &[RolloutItem], mode: HistoryMode) -> Vec<RolloutItem> {
    persisted_rollout_items(items, &mode)
}

fn paginated(items: &[RolloutItem]) -> Vec<RolloutItem> {
    kept(items, HistoryMode::Paginated)
}

/// Records everything `scenario` emitted with a real `RolloutRecorder` in `mode`, reads the
/// file back and builds the turns a resuming client gets.
fn recorded_turns(
    scenario: &Scenario,
    mode: HistoryMode,
) -> Result<Vec<Turn>, Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("rollout.jsonl");
    let mut emitted = scenario.emitted().into_iter();
    let Some(RolloutItem::SessionMeta(mut meta)) = emitted.next() else {
        return Err("a scenario starts with its session meta".into());
    };
    meta.meta.history_mode = Some(mode);
    let rest: Vec<RolloutItem> = emitted.collect();
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()?;
    runtime.block_on(async {
        let recorder = RolloutRecorder::create_at(&path, *meta)?;
        recorder.record_items(&rest).await?;
        recorder.shutdown().await
    })?;
    let contents = RolloutContents::read(std::fs::File::open(&path)?)?;
    assert!(contents.problems().is_empty(), "{:?}", contents.problems());
    Ok(build_turns_from_rollout_items(&client_view_items(
        &contents,
    )))
}

/// Reduces a scenario's live transcript the way a client does, from JSON text.
fn reduce_live(scenario: &Scenario) -> Result<ThreadState, Box<dyn std::error::Error>> {
    let mut state = ThreadState::new();
    let mut rollbacks: BTreeMap<RequestId, u32> = BTreeMap::new();
    for entry in scenario.live_transcript(&paginated)? {
        let text = serde_json::to_string(&entry.message)?;
        let message: JSONRPCMessage = serde_json::from_str(&text)?;
        match (entry.from, message) {
            (Party::Server, JSONRPCMessage::Notification(notification)) => {
                state.apply_notification(&ServerNotification::try_from(notification)?);
            }
            (Party::Server, JSONRPCMessage::Request(request)) => {
                state.apply_request(&ServerRequest::try_from(request)?);
            }
            (Party::Server, JSONRPCMessage::Response(response)) => {
                if let Some(num_turns) = rollbacks.remove(&response.id) {
                    state.rollback(num_turns);
                    let answer: ThreadRollbackResponse = serde_json::from_value(response.result)?;
                    assert_eq!(
                        without_item_times(&answer.thread.turns),
                        without_item_times(&state.turns),
                        "rollback response vs client state"
                    );
                }
            }
            (Party::Client, JSONRPCMessage::Request(request)) => {
                if let ClientRequest::ThreadRollback { request_id, params } =
                    ClientRequest::try_from(request)?
                {
                    rollbacks.insert(request_id, params.num_turns);
                }
            }
            (Party::Client, JSONRPCMessage::Response(_)) => {}
            (from, other) => panic!("unexpected message from {from:?}: {other:?}"),
        }
    }
    Ok(state)
}

/// Replaces the ids that legacy records do not carry (messages, reasoning, compaction) by
/// their position, so histories from legacy events compare with live ones.
fn without_minted_ids(turns: &[Turn]) -> Vec<Turn> {
    let mut turns = turns.to_vec();
    for (turn_index, turn) in turns.iter_mut().enumerate() {
        for (item_index, item) in turn.items.iter_mut().enumerate() {
            if matches!(
                item.item,
                ThreadItem::UserMessage { .. }
                    | ThreadItem::AgentMessage { .. }
                    | ThreadItem::Reasoning { .. }
                    | ThreadItem::ContextCompaction { .. }
            ) {
                item.set_id(format!("t{turn_index}-i{item_index}"));
            }
        }
    }
    turns
}

#[test]
fn live_stream_equals_the_paginated_file_the_recorder_wrote() -> TestResult {
    for scenario in all_scenarios() {
        let live = reduce_live(&scenario)?;
        let replay = recorded_turns(&scenario, HistoryMode::Paginated)?;
        assert_eq!(
            without_item_times(&as_recorded(&live.turns, true)),
            without_item_times(&replay),
            "scenario {}",
            scenario.name
        );
        assert!(
            live.pending_requests.is_empty(),
            "scenario {}: approvals left open",
            scenario.name
        );
    }
    Ok(())
}

#[test]
fn live_stream_equals_the_legacy_file_the_recorder_wrote() -> TestResult {
    for scenario in all_scenarios() {
        let live = reduce_live(&scenario)?;
        let replay = recorded_turns(&scenario, HistoryMode::Legacy)?;
        assert_eq!(
            without_minted_ids(&without_item_times(&as_recorded(&live.turns, false))),
            without_minted_ids(&without_item_times(&replay)),
            "scenario {}",
            scenario.name
        );
    }
    Ok(())
}

fn scenario(name: &str) -> Result<Scenario, String> {
    all_scenarios()
        .into_iter()
        .find(|scenario| scenario.name == name)
        .ok_or_else(|| format!("no scenario {name}"))
}

#[test]
fn scenarios_end_in_the_expected_states() -> TestResult {
    let statuses = |name: &str| -> Result<Vec<TurnStatus>, Box<dyn std::error::Error>> {
        let live = reduce_live(&scenario(name)?)?;
        Ok(live.turns.iter().map(|turn| turn.status).collect())
    };
    assert_eq!(statuses("streamed_answer")?, vec![TurnStatus::Completed]);
    assert_eq!(
        statuses("command_with_output")?,
        vec![TurnStatus::Completed]
    );
    assert_eq!(
        statuses("interrupted_turn")?,
        vec![TurnStatus::Completed, TurnStatus::Interrupted]
    );
    assert_eq!(statuses("failed_turn")?, vec![TurnStatus::Failed]);
    assert_eq!(
        statuses("rollback")?,
        vec![TurnStatus::Completed, TurnStatus::Completed]
    );

    let rollback = reduce_live(&scenario("rollback")?)?;
    let ids: Vec<&str> = rollback.turns.iter().map(|turn| turn.id.as_str()).collect();
    assert_eq!(ids, vec!["turn-1", "turn-3"]);

    let failed = reduce_live(&scenario("failed_turn")?)?;
    let error = failed.turns[0]
        .error
        .as_ref()
        .map(|error| error.message.as_str());
    assert_eq!(
        error,
        Some("Your input exceeds the context window of this model.")
    );
    Ok(())
}

#[test]
fn command_output_streams_then_the_completed_item_replaces_it() -> TestResult {
    let scenario = scenario("command_with_output")?;
    let mut state = ThreadState::new();
    let mut started = 0;
    let mut streamed = String::new();
    for entry in scenario.live_transcript(&paginated)? {
        let JSONRPCMessage::Notification(notification) = entry.message else {
            continue;
        };
        let notification = ServerNotification::try_from(notification)?;
        match &notification {
            ServerNotification::ItemStarted(started_item)
                if matches!(started_item.item.item, ThreadItem::CommandExecution { .. }) =>
            {
                started += 1;
            }
            ServerNotification::CommandExecutionOutputDelta(delta) => {
                streamed.push_str(&delta.delta)
            }
            ServerNotification::ItemCompleted(completed) => {
                if let ThreadItem::CommandExecution { id, .. } = &completed.item.item {
                    // Just before completion, the active item holds exactly the streamed text.
                    let active = state.turns[0].item(id).cloned();
                    let Some(ThreadItem::CommandExecution {
                        aggregated_output, ..
                    }) = active
                    else {
                        panic!("command item not active before completion");
                    };
                    assert_eq!(aggregated_output.as_deref(), Some(streamed.as_str()));
                }
            }
            _ => {}
        }
        state.apply_notification(&notification);
    }
    assert_eq!(
        started, 1,
        "begin was sent twice but must be announced once"
    );
    assert_eq!(streamed, "running 2 tests\ntest a ... ok \u{2713}\n");
    Ok(())
}
