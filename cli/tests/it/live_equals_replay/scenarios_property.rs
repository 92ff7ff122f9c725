//! Live equals replay as a property: for any sequence of turns built from the scripted
//! actions, a client reducing the live stream ends with the turns rebuilt from what
//! codex-rollout's policy persists, in both history modes. (The same through the real
//! recorder and a file on disk, for the catalogue: [`super::recorder`].)
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeMap;

use codex_protocol::event::CodexErrorInfo;
use codex_protocol::models::MessagePhase;
use codex_protocol::rollout::HistoryMode;
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;
use proptest::prelude::*;

use codex_app_server_protocol::JSONRPCMessage;
use codex_app_server_protocol::scenarios::{
    Party, Scenario, Script, all_scenarios, as_recorded, without_item_times,
};
use codex_app_server_protocol::v2::{ThreadItem, Turn};
use codex_app_server_protocol::{
    ClientRequest, ServerNotification, ServerRequest, ThreadState, build_turns_from_rollout_items,
};
use codex_protocol::rollout::RolloutItem;

#[derive(Debug, Clone)]
enum Action {
    Message(Vec<String>),
    Reasoning(Vec<String>),
    Command {
        approve: bool,
        output: Vec<u8>,
        split: usize,
        exit_code: i32,
    },
    Patch {
        approve: bool,
        success: bool,
    },
}

#[derive(Debug, Clone, Copy)]
enum Ending {
    Complete,
    Fail,
    Abort,
}

#[derive(Debug, Clone)]
struct TurnPlan {
    actions: Vec<Action>,
    ending: Ending,
    rollback_after: Option<u32>,
}

fn action() -> impl Strategy<Value = Action> {
    let words = prop::collection::vec("[a-z ]{1,6}", 1..4);
    prop_oneof![
        words.clone().prop_map(Action::Message),
        words.prop_map(Action::Reasoning),
        (
            any::<bool>(),
            prop::collection::vec(any::<u8>(), 0..24),
            any::<usize>(),
            0..3i32
        )
            .prop_map(|(approve, output, split, exit_code)| Action::Command {
                approve,
                output,
                split,
                exit_code
            }),
        (any::<bool>(), any::<bool>())
            .prop_map(|(approve, success)| Action::Patch { approve, success }),
    ]
}

fn turn_plan() -> impl Strategy<Value = TurnPlan> {
    (
        prop::collection::vec(action(), 0..5),
        prop_oneof![
            Just(Ending::Complete),
            Just(Ending::Fail),
            Just(Ending::Abort)
        ],
        prop::option::weighted(0.2, 1..3u32),
    )
        .prop_map(|(actions, ending, rollback_after)| TurnPlan {
            actions,
            ending,
            rollback_after,
        })
}

fn scenario(plans: &[TurnPlan]) -> Scenario {
    let thread_id = ThreadId::new();
    let mut script = Script::new(thread_id);
    for (index, plan) in plans.iter().enumerate() {
        script.start_turn(&format!("turn-{index}"));
        script.user_message(&format!("request {index}"));
        for action in &plan.actions {
            match action {
                Action::Message(words) => {
                    let deltas: Vec<&str> = words.iter().map(String::as_str).collect();
                    script.agent_message(&deltas, MessagePhase::Commentary);
                }
                Action::Reasoning(words) => {
                    let deltas: Vec<&str> = words.iter().map(String::as_str).collect();
                    script.reasoning(&deltas);
                }
                Action::Command {
                    approve,
                    output,
                    split,
                    exit_code,
                } => {
                    let call = script.exec_approval(&["make", "check"]);
                    if *approve {
                        script.client_answers(&call, serde_json::json!("accept"));
                    }
                    let split = split % (output.len() + 1);
                    let (first, second) = output.split_at(split);
                    script.exec_command(&call, &["make", "check"], &[first, second], *exit_code);
                }
                Action::Patch { approve, success } => {
                    let call = script.patch_approval("f.txt");
                    if *approve {
                        script.client_answers(&call, serde_json::json!("decline"));
                    }
                    script.patch_apply(&call, "f.txt", *success);
                }
            }
        }
        match plan.ending {
            Ending::Complete => script.complete_turn(None),
            Ending::Fail => {
                script.error("usage limit", CodexErrorInfo::UsageLimitExceeded);
                script.complete_turn(None);
            }
            Ending::Abort => script.abort_turn(),
        }
        if let Some(num_turns) = plan.rollback_after {
            script.client_rollback(num_turns);
        }
    }
    Scenario {
        name: "generated",
        description: "generated",
        thread_id,
        steps: script.into_steps(),
    }
}

/// What a session file of `mode` keeps of `items`: codex-rollout's policy.
fn kept(items: &[RolloutItem], mode: HistoryMode) -> Vec<RolloutItem> {
    codex_rollout::persisted_rollout_items(items, &mode)
}

fn paginated(items: &[RolloutItem]) -> Vec<RolloutItem> {
    kept(items, HistoryMode::Paginated)
}

fn reduce(scenario: &Scenario) -> ThreadState {
    let mut state = ThreadState::new();
    let mut rollbacks = BTreeMap::new();
    for entry in scenario.live_transcript(&paginated).unwrap() {
        match (entry.from, entry.message) {
            (Party::Server, JSONRPCMessage::Notification(notification)) => {
                state.apply_notification(&ServerNotification::try_from(notification).unwrap());
            }
            (Party::Server, JSONRPCMessage::Request(request)) => {
                state.apply_request(&ServerRequest::try_from(request).unwrap());
            }
            (Party::Server, JSONRPCMessage::Response(response)) => {
                if let Some(num_turns) = rollbacks.remove(&response.id) {
                    state.rollback(num_turns);
                }
            }
            (Party::Client, JSONRPCMessage::Request(request)) => {
                if let ClientRequest::ThreadRollback { request_id, params } =
                    ClientRequest::try_from(request).unwrap()
                {
                    rollbacks.insert(request_id, params.num_turns);
                }
            }
            _ => {}
        }
    }
    state
}

fn without_minted_ids(turns: &[Turn]) -> Vec<Turn> {
    let mut turns = turns.to_vec();
    for (turn_index, turn) in turns.iter_mut().enumerate() {
        for (item_index, item) in turn.items.iter_mut().enumerate() {
            if matches!(
                item.item,
                ThreadItem::UserMessage { .. }
                    | ThreadItem::AgentMessage { .. }
                    | ThreadItem::Reasoning { .. }
            ) {
                item.set_id(format!("{turn_index}.{item_index}"));
            }
        }
    }
    turns
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn live_stream_equals_replay(plans in prop::collection::vec(turn_plan(), 1..5)) {
        let scenario = scenario(&plans);
        let live = reduce(&scenario);
        prop_assert!(live.pending_requests.is_empty());
        let exact = build_turns_from_rollout_items(&kept(&scenario.emitted(), HistoryMode::Paginated));
        prop_assert_eq!(without_item_times(&as_recorded(&live.turns, true)), without_item_times(&exact));
        let legacy = build_turns_from_rollout_items(&kept(&scenario.emitted(), HistoryMode::Legacy));
        prop_assert_eq!(
            without_minted_ids(&without_item_times(&as_recorded(&live.turns, false))),
            without_minted_ids(&without_item_times(&legacy))
        );
    }
}

#[test]
fn every_catalogued_scenario_has_a_unique_name_and_a_transcript() {
    let scenarios = all_scenarios();
    let mut names: Vec<&str> = scenarios.iter().map(|scenario| scenario.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), scenarios.len());
    for scenario in &scenarios {
        assert!(
            !scenario.live_transcript(&paginated).unwrap().is_empty(),
            "{}",
            scenario.name
        );
    }
}
