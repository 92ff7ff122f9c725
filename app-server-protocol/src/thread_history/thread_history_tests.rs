#![allow(clippy::unwrap_used, clippy::expect_used)]

use codex_protocol::event::{
    AgentMessageEvent, AgentReasoningEvent, AgentReasoningRawContentEvent, CodexErrorInfo,
    ContextCompactedEvent, ErrorEvent, EventMsg, ItemCompletedEvent, ThreadRolledBackEvent,
    TurnAbortReason, TurnAbortedEvent, TurnCompleteEvent, TurnStartedEvent, UserMessageEvent,
};
use codex_protocol::items::{AgentMessageContent, AgentMessageItem, PlanItem, TurnItem};
use codex_protocol::rollout::{CompactedItem, RolloutItem};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;

pub(super) fn ev(event: EventMsg) -> RolloutItem {
    RolloutItem::EventMsg(event)
}

pub(super) fn user(text: &str) -> RolloutItem {
    ev(EventMsg::UserMessage(UserMessageEvent {
        message: text.to_owned(),
        ..UserMessageEvent::default()
    }))
}

pub(super) fn agent(text: &str) -> RolloutItem {
    ev(EventMsg::AgentMessage(AgentMessageEvent {
        message: text.to_owned(),
        ..AgentMessageEvent::default()
    }))
}

fn typed_agent(turn_id: &str, id: &str, text: &str) -> RolloutItem {
    ev(EventMsg::ItemCompleted(ItemCompletedEvent {
        thread_id: ThreadId::new().to_string(),
        turn_id: turn_id.to_owned(),
        item: TurnItem::AgentMessage(AgentMessageItem::new(
            id,
            vec![AgentMessageContent::Text {
                text: text.to_owned(),
            }],
        )),
        started_at_ms: None,
        completed_at_ms: 0,
    }))
}

fn start(turn_id: &str) -> RolloutItem {
    ev(EventMsg::TurnStarted(TurnStartedEvent {
        started_at: Some(7.into()),
        ..TurnStartedEvent::new(turn_id)
    }))
}

fn complete(turn_id: &str) -> RolloutItem {
    ev(EventMsg::TurnComplete(TurnCompleteEvent {
        completed_at: Some(9.into()),
        duration_ms: Some(2000),
        ..TurnCompleteEvent::new(turn_id)
    }))
}

fn aborted() -> RolloutItem {
    ev(EventMsg::TurnAborted(TurnAbortedEvent {
        root_turn_id: None,
        turn_id: None,
        reason: TurnAbortReason::Interrupted,
        error: None,
        started_at: None,
        completed_at: None,
        duration_ms: None,
    }))
}

fn rollback(num_turns: u32) -> RolloutItem {
    ev(EventMsg::ThreadRolledBack(ThreadRolledBackEvent {
        num_turns,
    }))
}

pub(super) fn kinds(turn: &Turn) -> Vec<&'static str> {
    turn.items.iter().map(|item| item.kind()).collect()
}

fn shape(turns: &[Turn]) -> Vec<(String, TurnStatus, Vec<&'static str>)> {
    turns
        .iter()
        .map(|turn| (turn.id.clone(), turn.status, kinds(turn)))
        .collect()
}

#[test]
fn old_files_get_one_implicit_turn_per_user_message() {
    let turns = build_turns_from_rollout_items(&[
        user("a"),
        agent("1"),
        user("b"),
        aborted(),
        user("c"),
        agent("3"),
    ]);
    assert_eq!(
        shape(&turns),
        vec![
            (
                "rollout-0".to_owned(),
                TurnStatus::Completed,
                vec!["userMessage", "agentMessage"]
            ),
            (
                "rollout-2".to_owned(),
                TurnStatus::Interrupted,
                vec!["userMessage"]
            ),
            (
                "rollout-4".to_owned(),
                TurnStatus::Completed,
                vec!["userMessage", "agentMessage"]
            ),
        ]
    );
    assert_eq!(turns[0].items[0].id(), "item-1");
}

#[test]
fn steering_messages_stay_in_their_explicit_turn() {
    let turns = build_turns_from_rollout_items(&[
        start("t1"),
        user("a"),
        user("more"),
        agent("ok"),
        complete("t1"),
    ]);
    assert_eq!(
        shape(&turns),
        vec![(
            "t1".to_owned(),
            TurnStatus::Completed,
            vec!["userMessage", "userMessage", "agentMessage"]
        )]
    );
    assert_eq!(
        (
            turns[0].started_at,
            turns[0].completed_at,
            turns[0].duration_ms
        ),
        (Some(7), Some(9), Some(2000))
    );
}

#[test]
fn task_started_after_the_user_message_adopts_its_turn() {
    let turns =
        build_turns_from_rollout_items(&[user("a"), start("t1"), agent("ok"), complete("t1")]);
    assert_eq!(
        shape(&turns),
        vec![(
            "t1".to_owned(),
            TurnStatus::Completed,
            vec!["userMessage", "agentMessage"]
        )]
    );
}

#[test]
fn rollback_drops_the_last_turns() {
    let turns = build_turns_from_rollout_items(&[
        start("t1"),
        user("a"),
        complete("t1"),
        start("t2"),
        user("b"),
        complete("t2"),
        rollback(1),
        start("t3"),
        user("c"),
        complete("t3"),
        rollback(5),
        user("d"),
    ]);
    assert_eq!(
        shape(&turns),
        vec![(
            "rollout-11".to_owned(),
            TurnStatus::Completed,
            vec!["userMessage"]
        )]
    );
}

#[test]
fn a_failed_turn_carries_its_error_but_a_refused_rollback_does_not_fail() {
    let failing = |info: CodexErrorInfo| {
        build_turns_from_rollout_items(&[
            start("t1"),
            user("a"),
            ev(EventMsg::Error(ErrorEvent {
                message: "no".to_owned(),
                codex_error_info: Some(info),
            })),
            complete("t1"),
        ])
    };
    let failed = failing(CodexErrorInfo::ContextWindowExceeded);
    assert_eq!(failed[0].status, TurnStatus::Failed);
    assert_eq!(
        failed[0].error.as_ref().map(|error| error.message.as_str()),
        Some("no")
    );
    assert_eq!(
        failing(CodexErrorInfo::ThreadRollbackFailed)[0].status,
        TurnStatus::Completed
    );
}

#[test]
fn a_message_recorded_twice_shows_once_with_the_typed_id() {
    for order in [
        vec![
            start("t1"),
            user("a"),
            typed_agent("t1", "msg_real", "done"),
            agent("done"),
            complete("t1"),
        ],
        vec![
            start("t1"),
            user("a"),
            agent("done"),
            typed_agent("t1", "msg_real", "done"),
            complete("t1"),
        ],
    ] {
        let turns = build_turns_from_rollout_items(&order);
        assert_eq!(kinds(&turns[0]), vec!["userMessage", "agentMessage"]);
        assert_eq!(turns[0].items[1].id(), "msg_real");
    }
    // Two different messages with the same text stay two.
    let turns = build_turns_from_rollout_items(&[
        start("t1"),
        user("a"),
        agent("same"),
        agent("same"),
        complete("t1"),
    ]);
    assert_eq!(
        kinds(&turns[0]),
        vec!["userMessage", "agentMessage", "agentMessage"]
    );
}

#[test]
fn a_compaction_line_and_its_event_are_one_item() {
    let compacted = RolloutItem::Compacted(Box::new(
        serde_json::from_value::<CompactedItem>(serde_json::json!({"message": "summary"})).unwrap(),
    ));
    let turns = build_turns_from_rollout_items(&[
        start("t1"),
        user("a"),
        compacted,
        ev(EventMsg::ContextCompacted(ContextCompactedEvent {})),
        complete("t1"),
    ]);
    assert_eq!(kinds(&turns[0]), vec!["userMessage", "contextCompaction"]);
}

#[test]
fn legacy_reasoning_paragraphs_merge_into_one_item() {
    let turns = build_turns_from_rollout_items(&[
        user("a"),
        ev(EventMsg::AgentReasoning(AgentReasoningEvent {
            text: "one".to_owned(),
        })),
        ev(EventMsg::AgentReasoning(AgentReasoningEvent {
            text: "two".to_owned(),
        })),
        ev(EventMsg::AgentReasoningRawContent(
            AgentReasoningRawContentEvent {
                text: "raw".to_owned(),
            },
        )),
        agent("answer"),
        ev(EventMsg::AgentReasoning(AgentReasoningEvent {
            text: "three".to_owned(),
        })),
    ]);
    let ThreadItem::Reasoning {
        summary, content, ..
    } = &turns[0].items[1].item
    else {
        panic!("{:?}", turns[0].items);
    };
    assert_eq!(
        (summary.clone(), content.clone()),
        (
            vec!["one".to_owned(), "two".to_owned()],
            vec!["raw".to_owned()]
        )
    );
    assert_eq!(
        kinds(&turns[0]),
        vec!["userMessage", "reasoning", "agentMessage", "reasoning"]
    );
}

#[test]
fn late_records_join_the_turn_they_name_or_the_last_turn() {
    let plan = |turn_id: &str| {
        ev(EventMsg::ItemCompleted(ItemCompletedEvent {
            thread_id: ThreadId::new().to_string(),
            turn_id: turn_id.to_owned(),
            item: TurnItem::Plan(PlanItem {
                id: format!("plan-{turn_id}"),
                text: "p".to_owned(),
            }),
            started_at_ms: None,
            completed_at_ms: 0,
        }))
    };
    let turns = build_turns_from_rollout_items(&[
        start("t1"),
        user("a"),
        complete("t1"),
        start("t2"),
        user("b"),
        plan("t1"),
        complete("t2"),
        agent("late"),
    ]);
    assert_eq!(
        shape(&turns),
        vec![
            (
                "t1".to_owned(),
                TurnStatus::Completed,
                vec!["userMessage", "plan"]
            ),
            (
                "t2".to_owned(),
                TurnStatus::Completed,
                vec!["userMessage", "agentMessage"]
            ),
        ]
    );
}

#[test]
fn an_explicit_turn_cut_short_by_the_next_start_is_interrupted_and_the_last_open_one_runs() {
    let turns = build_turns_from_rollout_items(&[start("t1"), user("a"), start("t2"), user("b")]);
    assert_eq!(
        shape(&turns),
        vec![
            (
                "t1".to_owned(),
                TurnStatus::Interrupted,
                vec!["userMessage"]
            ),
            ("t2".to_owned(), TurnStatus::InProgress, vec!["userMessage"]),
        ]
    );
}

#[test]
fn a_persisted_function_call_output_item_shows_in_its_turn() {
    let output = ev(EventMsg::ItemCompleted(ItemCompletedEvent {
        thread_id: ThreadId::new().to_string(),
        turn_id: "t1".to_owned(),
        item: TurnItem::FunctionCallOutput(codex_protocol::items::FunctionCallOutputItem {
            id: "out-1".to_owned(),
            name: "view_image".to_owned(),
            namespace: None,
            output: codex_protocol::models::FunctionCallOutputBody::Text("seen".to_owned()),
        }),
        started_at_ms: None,
        completed_at_ms: 0,
    }));
    let turns = build_turns_from_rollout_items(&[
        start("t1"),
        user("look"),
        output,
        agent("ok"),
        complete("t1"),
    ]);
    assert_eq!(
        shape(&turns),
        vec![(
            "t1".to_owned(),
            TurnStatus::Completed,
            vec!["userMessage", "functionCallOutput", "agentMessage"]
        )]
    );
}

/// What a builder fed from a turn's start says of its turns: they stand alone while every id
/// is the file's own, and not once an id counts what came before or a record reaches back.
#[test]
fn a_builder_says_when_its_turns_depend_on_earlier_items() {
    let fed = |items: &[RolloutItem]| {
        let mut builder = ThreadHistoryBuilder::new();
        for item in items {
            builder.handle_rollout_item(item);
        }
        builder.reads_earlier_items()
    };
    let own_ids = [
        start("t1"),
        typed_agent("t1", "a1", "one"),
        complete("t1"),
        start("t2"),
        typed_agent("t2", "a2", "two"),
        complete("t2"),
    ];
    assert!(!fed(&own_ids));
    // A rollback of the two turns here stands alone; of three, it reaches before them.
    assert!(!fed(&[&own_ids[..], &[rollback(2)]].concat()));
    assert!(fed(&[&own_ids[..], &[rollback(3)]].concat()));
    // A minted id counts the ids minted before; a compaction line's minted id replaced by
    // its typed item does not show.
    assert!(fed(&[&own_ids[..], &[agent("minted")]].concat()));
    let compaction = ev(EventMsg::ItemCompleted(ItemCompletedEvent {
        thread_id: ThreadId::new().to_string(),
        turn_id: "t2".to_owned(),
        item: TurnItem::ContextCompaction(codex_protocol::items::ContextCompactionItem {
            id: "c1".to_owned(),
        }),
        started_at_ms: None,
        completed_at_ms: 0,
    }));
    let compacted = RolloutItem::Compacted(Box::new(CompactedItem::from_message("summary")));
    let mut compacting = own_ids[..5].to_vec();
    compacting.extend([compacted, compaction, complete("t2")]);
    assert!(!fed(&compacting));
    // A record naming a turn not here, and a turn implied by a user message.
    assert!(fed(
        &[&own_ids[..], &[typed_agent("t0", "a0", "late")]].concat()
    ));
    assert!(fed(&[user("no turn started")]));
}

/// A scheduled second pass ([`ThreadHistoryBuilder::following`]): the turns it hands on and
/// those `finish` leaves, and how many it handed on before the end.
fn scheduled(items: &[RolloutItem], mode: TranscriptMode) -> (Vec<Turn>, usize) {
    let mut planner = ThreadHistoryBuilder::planner();
    items
        .iter()
        .for_each(|item| planner.handle_rollout_item(item));
    let schedule = planner.finish_schedule();
    let mut builder = ThreadHistoryBuilder::in_mode(mode).following(schedule);
    let mut turns = Vec::new();
    for item in items {
        builder.handle_rollout_item(item);
        turns.extend(builder.take_final_turns());
    }
    let early = turns.len();
    turns.extend(builder.finish());
    (turns, early)
}

#[test]
fn scheduled_turns_wait_for_late_records_and_rollbacks() {
    let items = vec![
        start("t1"),
        user("first"),
        complete("t1"),
        start("t2"),
        user("second"),
        complete("t2"),
        // A late record naming the first turn: neither turn may be handed on before it.
        typed_agent("t1", "late", "late answer"),
        start("t3"),
        user("third"),
        complete("t3"),
        start("t4"),
        user("fourth"),
        complete("t4"),
        // Drops t4: it is never handed on.
        rollback(1),
        user("fifth"),
        agent("reply"),
    ];
    for mode in [TranscriptMode::Codex, TranscriptMode::Complete] {
        let whole = build_turns_in_mode(&items, mode);
        let (turns, early) = scheduled(&items, mode);
        assert_eq!(turns, whole);
        assert_eq!(
            turns
                .iter()
                .map(|turn| turn.id.as_str())
                .collect::<Vec<_>>(),
            ["t1", "t2", "t3", "rollout-14"]
        );
        assert_eq!(early, 3, "t1, t2 and t3 are final before the file ends");
    }
}

/// A first pass settles closed turns before the last two (keeps their ids and places only):
/// a late record naming a settled turn still holds it back, and a rollback reaching past the
/// closed turns into the settled ones makes the newest settled turn the last closed one again.
#[test]
fn a_first_pass_settles_early_turns_and_still_schedules_them_right() {
    let items = vec![
        start("t1"),
        user("first"),
        complete("t1"),
        start("t2"),
        user("second"),
        complete("t2"),
        start("t3"),
        user("third"),
        complete("t3"),
        start("t4"),
        user("fourth"),
        complete("t4"),
        // t1 and t2 are settled by now.
        typed_agent("t1", "late", "late answer"),
        // Drops t4, t3 and the settled t2.
        rollback(3),
        // A late record for lack of an open turn: it lands in t1, the last turn again.
        agent("after the rollback"),
        user("fifth"),
        agent("reply"),
    ];
    for mode in [TranscriptMode::Codex, TranscriptMode::Complete] {
        let whole = build_turns_in_mode(&items, mode);
        let (turns, _) = scheduled(&items, mode);
        assert_eq!(turns, whole, "{mode:?}");
        let mut planner = ThreadHistoryBuilder::planner();
        for item in &items {
            planner.handle_rollout_item(item);
        }
        assert_eq!(planner.finish_schedule().turns(), whole.len(), "{mode:?}");
    }
}
