#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::time::Duration;

use codex_protocol::event::{
    AgentMessageContentDeltaEvent, CodexErrorInfo, ErrorEvent, EventMsg, ExecApprovalRequestEvent,
    ExecCommandBeginEvent, ExecCommandEndEvent, ExecCommandOutputDeltaEvent, ExecOutputStream,
    ItemStartedEvent, ReasoningRawContentDeltaEvent, TurnAbortReason, TurnAbortedEvent,
    TurnCompleteEvent, TurnStartedEvent,
};
use codex_protocol::items::{
    CommandExecutionItem, CommandExecutionStatus, ExecCommandSource, TurnItem,
};
use codex_protocol::thread_id::ThreadId;
use pretty_assertions::assert_eq;

use super::*;
use crate::v2::TurnStatus;

fn projector() -> EventProjector {
    EventProjector::with_clock("thread-1", || 42)
}

fn started(turn_id: &str) -> EventMsg {
    EventMsg::TurnStarted(TurnStartedEvent {
        started_at: Some(100.into()),
        ..TurnStartedEvent::new(turn_id)
    })
}

fn complete(turn_id: &str) -> EventMsg {
    EventMsg::TurnComplete(TurnCompleteEvent {
        completed_at: Some(110.into()),
        duration_ms: Some(10_000),
        ..TurnCompleteEvent::new(turn_id)
    })
}

fn error(info: Option<CodexErrorInfo>) -> EventMsg {
    EventMsg::Error(ErrorEvent {
        message: "boom".to_owned(),
        codex_error_info: info,
    })
}

fn begin(call_id: &str, source: ExecCommandSource) -> EventMsg {
    EventMsg::ExecCommandBegin(ExecCommandBeginEvent {
        call_id: call_id.to_owned(),
        plugin_id: None,
        script_path: None,
        process_id: Some("pty-1".to_owned()),
        turn_id: "turn-1".to_owned(),
        started_at_ms: 5,
        command: vec!["ls".to_owned()],
        cwd: "/repo".to_owned(),
        parsed_cmd: Vec::new(),
        source,
        interaction_input: Some("q\n".to_owned()),
    })
}

fn end(call_id: &str) -> EventMsg {
    EventMsg::ExecCommandEnd(ExecCommandEndEvent {
        call_id: call_id.to_owned(),
        plugin_id: None,
        script_path: None,
        process_id: None,
        turn_id: "turn-1".to_owned(),
        completed_at_ms: 9,
        command: vec!["ls".to_owned()],
        cwd: "/repo".to_owned(),
        parsed_cmd: Vec::new(),
        source: ExecCommandSource::Agent,
        interaction_input: None,
        stdout: None,
        stderr: None,
        aggregated_output: "a\n".to_owned(),
        exit_code: 0,
        duration: Duration::from_millis(3),
        formatted_output: None,
        status: None,
    })
}

fn approval(call_id: &str) -> EventMsg {
    EventMsg::ExecApprovalRequest(ExecApprovalRequestEvent {
        call_id: call_id.to_owned(),
        approval_id: None,
        turn_id: String::new(),
        command: vec!["rm".to_owned(), "-rf".to_owned(), "build dir".to_owned()],
        cwd: "/repo".into(),
        reason: None,
        network_approval_context: None,
        proposed_execpolicy_amendment: None,
        proposed_network_policy_amendments: None,
        additional_permissions: None,
        available_decisions: None,
        parsed_cmd: Vec::new(),
    })
}

fn methods(messages: &[ServerMessage]) -> Vec<&'static str> {
    messages
        .iter()
        .map(|message| match message {
            ServerMessage::Notification(notification) => notification.method(),
            ServerMessage::Request(request) => request.method(),
        })
        .collect()
}

fn completed_turn(messages: &[ServerMessage]) -> Turn {
    messages
        .iter()
        .find_map(|message| match message {
            ServerMessage::Notification(ServerNotification::TurnCompleted(done)) => {
                Some(done.turn.clone())
            }
            _ => None,
        })
        .expect("turn/completed")
}

#[test]
fn turn_started_is_in_progress_with_items_not_loaded() {
    let out = projector().project(&started("turn-1"));
    let [ServerMessage::Notification(ServerNotification::TurnStarted(started))] = out.as_slice()
    else {
        panic!("{out:?}");
    };
    assert_eq!(started.turn, Turn::in_progress("turn-1", Some(100)));
    assert_eq!(started.turn.items_view, TurnItemsView::NotLoaded);
}

#[test]
fn turn_complete_is_completed_or_failed_from_the_last_error() {
    let mut projector = projector();
    projector.project(&started("turn-1"));
    let turn = completed_turn(&projector.project(&complete("turn-1")));
    assert_eq!((turn.status, turn.error), (TurnStatus::Completed, None));
    assert_eq!(
        (turn.started_at, turn.completed_at, turn.duration_ms),
        (Some(100), Some(110), Some(10_000))
    );

    projector.project(&started("turn-2"));
    assert_eq!(
        methods(&projector.project(&error(Some(CodexErrorInfo::UsageLimitExceeded)))),
        vec!["error"]
    );
    let turn = completed_turn(&projector.project(&complete("turn-2")));
    assert_eq!(turn.status, TurnStatus::Failed);
    assert_eq!(
        turn.error.map(|error| error.message),
        Some("boom".to_owned())
    );

    // A refused rollback is reported but does not fail the turn.
    projector.project(&started("turn-3"));
    projector.project(&error(Some(CodexErrorInfo::ThreadRollbackFailed)));
    assert_eq!(
        completed_turn(&projector.project(&complete("turn-3"))).status,
        TurnStatus::Completed
    );
}

#[test]
fn turn_aborted_is_interrupted() {
    let mut projector = projector();
    projector.project(&started("turn-1"));
    let out = projector.project(&EventMsg::TurnAborted(TurnAbortedEvent {
        root_turn_id: None,
        turn_id: None,
        reason: TurnAbortReason::Replaced,
        error: None,
        started_at: None,
        completed_at: None,
        duration_ms: None,
    }));
    let turn = completed_turn(&out);
    assert_eq!(
        (turn.id.as_str(), turn.status),
        ("turn-1", TurnStatus::Interrupted)
    );
}

#[test]
fn a_command_is_started_once_even_when_begin_repeats() {
    let mut projector = projector();
    projector.project(&started("turn-1"));
    assert_eq!(
        methods(&projector.project(&begin("call-1", ExecCommandSource::Agent))),
        vec!["item/started"]
    );
    assert!(
        projector
            .project(&begin("call-1", ExecCommandSource::Agent))
            .is_empty()
    );
    let item_started = EventMsg::ItemStarted(ItemStartedEvent {
        thread_id: ThreadId::new().to_string(),
        turn_id: "turn-1".to_owned(),
        item: TurnItem::CommandExecution(CommandExecutionItem {
            id: "call-1".to_owned(),
            plugin_id: None,
            script_path: None,
            process_id: None,
            command: vec!["ls".to_owned()],
            cwd: "/repo".to_owned(),
            parsed_cmd: Vec::new(),
            source: ExecCommandSource::Agent,
            interaction_input: None,
            status: CommandExecutionStatus::InProgress,
            aggregated_output: None,
            exit_code: None,
            duration: None,
        }),
        started_at_ms: 5,
    });
    assert!(projector.project(&item_started).is_empty());
    assert_eq!(
        methods(&projector.project(&end("call-1"))),
        vec!["item/completed"]
    );
    assert!(projector.project(&end("call-1")).is_empty());
}

#[test]
fn unified_exec_interaction_is_a_terminal_interaction_not_a_new_item() {
    let mut projector = projector();
    projector.project(&started("turn-1"));
    let out = projector.project(&begin("call-2", ExecCommandSource::UnifiedExecInteraction));
    assert_eq!(
        methods(&out),
        vec!["item/commandExecution/terminalInteraction"]
    );
}

#[test]
fn approvals_are_requests_resolved_exactly_once() {
    let mut projector = projector();
    projector.project(&started("turn-1"));
    let out = projector.project(&approval("call-1"));
    let [
        ServerMessage::Request(ServerRequest::CommandExecutionRequestApproval {
            request_id,
            params,
        }),
    ] = out.as_slice()
    else {
        panic!("{out:?}");
    };
    assert_eq!(params.command.as_deref(), Some("rm -rf 'build dir'"));
    assert_eq!(
        (params.turn_id.as_str(), params.started_at_ms),
        ("turn-1", 42)
    );
    assert_eq!(projector.request_for_item("call-1"), Some(request_id));

    // The command going ahead settles the approval.
    assert_eq!(
        methods(&projector.project(&begin("call-1", ExecCommandSource::Agent))),
        vec!["serverRequest/resolved", "item/started"]
    );
    assert!(projector.resolve_request(request_id).is_none());

    // An approval still open when the turn ends is cancelled.
    projector.project(&approval("call-2"));
    assert_eq!(
        methods(&projector.project(&complete("turn-1"))),
        vec!["serverRequest/resolved", "turn/completed"]
    );
    assert_eq!(projector.pending_requests().count(), 0);
}

#[test]
fn output_split_inside_a_character_is_decoded_whole() {
    let mut projector = projector();
    projector.project(&started("turn-1"));
    let mut text = String::new();
    for chunk in [&b"caf"[..], &[0xC3], &[0xA9, b'!'], &[0xFF]] {
        for message in projector.project(&EventMsg::ExecCommandOutputDelta(
            ExecCommandOutputDeltaEvent {
                call_id: "call-1".to_owned(),
                stream: ExecOutputStream::Stdout,
                chunk: chunk.to_vec(),
            },
        )) {
            if let ServerMessage::Notification(ServerNotification::CommandExecutionOutputDelta(
                delta,
            )) = message
            {
                text.push_str(&delta.delta);
            }
        }
    }
    assert_eq!(text, "café!\u{FFFD}");
}

#[test]
fn the_one_to_one_mapping_covers_item_events_only() {
    let delta = EventMsg::AgentMessageContentDelta(AgentMessageContentDeltaEvent {
        thread_id: "thread-1".to_owned(),
        turn_id: "turn-1".to_owned(),
        item_id: "msg-1".to_owned(),
        delta: "Hi".to_owned(),
    });
    let Some(ServerNotification::AgentMessageDelta(notification)) =
        item_event_to_server_notification(&delta, "ignored", "ignored")
    else {
        panic!("agent message delta");
    };
    assert_eq!(
        (notification.item_id.as_str(), notification.delta.as_str()),
        ("msg-1", "Hi")
    );

    let raw = EventMsg::ReasoningRawContentDelta(ReasoningRawContentDeltaEvent {
        thread_id: "thread-1".to_owned(),
        turn_id: "turn-1".to_owned(),
        item_id: "rs-1".to_owned(),
        delta: "hmm".to_owned(),
        content_index: 2,
    });
    assert!(matches!(
        item_event_to_server_notification(&raw, "t", "u"),
        Some(ServerNotification::ReasoningTextDelta(ref delta)) if delta.content_index == 2
    ));
    assert_eq!(
        item_event_to_server_notification(&started("turn-1"), "t", "u"),
        None
    );
    assert_eq!(
        item_event_to_server_notification(&error(None), "t", "u"),
        None
    );
}
