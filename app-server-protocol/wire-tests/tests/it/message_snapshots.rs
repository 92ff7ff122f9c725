//! Wire shape of every notification, request and envelope, one snapshot each, and their
//! round trip through the untyped JSON-RPC envelope.

use codex_app_server_protocol::v2::{
    AgentMessageDeltaNotification, ClientInfo, CodexErrorInfo, CommandAction,
    CommandExecutionApprovalDecision, CommandExecutionOutputDeltaNotification,
    CommandExecutionRequestApprovalParams, CommandExecutionRequestApprovalResponse,
    DeprecationNoticeNotification, ErrorNotification, FileChangeApprovalDecision,
    FileChangeRequestApprovalParams, FileChangeRequestApprovalResponse, InitializeParams,
    ItemCompletedNotification, ItemStartedNotification, NetworkPolicyAmendment,
    NetworkPolicyRuleAction, PlanDeltaNotification, ReasoningSummaryPartAddedNotification,
    ReasoningSummaryTextDeltaNotification, ReasoningTextDeltaNotification,
    ServerRequestResolvedNotification, SessionSource, TerminalInteractionNotification, Thread,
    ThreadItem, ThreadNameUpdatedNotification, ThreadReadParams, ThreadResumeParams,
    ThreadRollbackParams, ThreadSource, ThreadStartParams, ThreadStartedNotification, ThreadStatus,
    ThreadStatusChangedNotification, ThreadTokenUsage, ThreadTokenUsageUpdatedNotification,
    TimedThreadItem, TokenUsageBreakdown, Turn, TurnCompletedNotification,
    TurnDiffUpdatedNotification, TurnError, TurnInterruptParams, TurnStartParams,
    TurnStartedNotification, TurnStatus, UserInput, WarningNotification,
};
use codex_app_server_protocol::{
    ClientNotification, ClientRequest, JSONRPCError, JSONRPCErrorError, JSONRPCMessage,
    JSONRPCNotification, JSONRPCRequest, JSONRPCResponse, RequestId, ServerNotification,
    ServerRequest,
};
use insta::assert_json_snapshot;
use pretty_assertions::assert_eq;
use serde_json::json;

const THREAD: &str = "01977300-0000-7000-8000-000000000001";

fn ids() -> (String, String) {
    (THREAD.to_owned(), "turn-1".to_owned())
}

fn thread() -> Thread {
    Thread {
        id: THREAD.to_owned(),
        environments: None,
        extra: None,
        session_id: THREAD.to_owned(),
        forked_from_id: None,
        attached_to_thread_id: None,
        parent_thread_id: None,
        preview: "Explain the build".to_owned(),
        ephemeral: false,
        section: None,
        section_entered_at: None,
        project_id: None,
        history_mode: codex_app_server_protocol::v2::ThreadHistoryMode::Paginated,
        model_provider: "openai".to_owned(),
        model: Some("gpt-5.5".to_owned()),
        reasoning_effort: None,
        created_at: 1_750_000_000,
        updated_at: 1_750_000_100,
        recency_at: Some(1_750_000_100),
        status: ThreadStatus::Active {
            active_flags: vec![codex_app_server_protocol::v2::ThreadActiveFlag::WaitingOnApproval],
        },
        path: Some("/home/me/.codex/sessions/rollout.jsonl".to_owned()),
        cwd: "/repo".to_owned(),
        cli_version: "0.1.0".to_owned(),
        originator: Some("codex_vscode".to_owned()),
        source: SessionSource::VsCode,
        can_accept_direct_input: None,
        thread_source: Some(ThreadSource::User),
        agent_nickname: None,
        agent_role: None,
        git_info: None,
        name: None,
        daybreak_enabled: None,
        turns: Vec::new(),
    }
}

fn breakdown(total: i64) -> TokenUsageBreakdown {
    TokenUsageBreakdown {
        total_tokens: total,
        input_tokens: total - 10,
        cached_input_tokens: 0,
        output_tokens: 10,
        reasoning_output_tokens: 4,
    }
}

/// One example of every notification; the match below fails to compile when a variant is
/// added without an example.
fn every_notification() -> Vec<ServerNotification> {
    let (thread_id, turn_id) = ids();
    let delta = |delta: &str| {
        (
            thread_id.clone(),
            turn_id.clone(),
            "item-1".to_owned(),
            delta.to_owned(),
        )
    };
    let (t, u, i, d) = delta("text");
    let completed_turn = Turn {
        status: TurnStatus::Completed,
        completed_at: Some(1_750_000_020),
        duration_ms: Some(20_000),
        ..Turn::in_progress("turn-1", Some(1_750_000_000))
    };
    let agent = ThreadItem::AgentMessage {
        moderation: None,
        id: "item-1".to_owned(),
        text: "Hi".to_owned(),
        phase: None,
        memory_citation: None,
        delivery: None,
        questions: None,
    };
    let notifications = vec![
        ServerNotification::Error(ErrorNotification {
            error: TurnError {
                message: "stream disconnected".to_owned(),
                codex_error_info: Some(CodexErrorInfo::ResponseStreamDisconnected {
                    http_status_code: Some(502),
                }),
                additional_details: Some("retrying 1/5".to_owned()),
                misalignment: None,
            },
            will_retry: true,
            thread_id: t.clone(),
            turn_id: u.clone(),
        }),
        ServerNotification::ThreadStarted(ThreadStartedNotification {
            thread: Box::new(thread()),
        }),
        ServerNotification::ThreadStatusChanged(ThreadStatusChangedNotification {
            thread_id: t.clone(),
            status: ThreadStatus::Idle,
        }),
        ServerNotification::ThreadNameUpdated(ThreadNameUpdatedNotification {
            thread_id: t.clone(),
            thread_name: Some("Build notes".to_owned()),
        }),
        ServerNotification::ThreadTokenUsageUpdated(ThreadTokenUsageUpdatedNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            token_usage: ThreadTokenUsage {
                total: breakdown(5000),
                last: breakdown(1200),
                model_context_window: Some(200_000),
            },
        }),
        ServerNotification::TurnStarted(TurnStartedNotification {
            thread_id: t.clone(),
            turn: Turn::in_progress("turn-1", Some(1_750_000_000)),
        }),
        ServerNotification::TurnCompleted(TurnCompletedNotification {
            thread_id: t.clone(),
            turn: completed_turn,
        }),
        ServerNotification::TurnDiffUpdated(TurnDiffUpdatedNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            diff: "--- a\n+++ b\n".to_owned(),
        }),
        ServerNotification::ItemStarted(ItemStartedNotification {
            item: TimedThreadItem::new(agent.clone(), Some(1_750_000_001_000), None),
            thread_id: t.clone(),
            turn_id: u.clone(),
            started_at_ms: 1_750_000_001_000,
        }),
        ServerNotification::ItemCompleted(ItemCompletedNotification {
            item: TimedThreadItem::new(agent, Some(1_750_000_001_000), Some(1_750_000_002_000)),
            thread_id: t.clone(),
            turn_id: u.clone(),
            completed_at_ms: 1_750_000_002_000,
            content_token_count: None,
        }),
        ServerNotification::AgentMessageDelta(AgentMessageDeltaNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            item_id: i.clone(),
            delta: d,
        }),
        ServerNotification::PlanDelta(PlanDeltaNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            item_id: i.clone(),
            delta: "1. ".to_owned(),
        }),
        ServerNotification::CommandExecutionOutputDelta(CommandExecutionOutputDeltaNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            item_id: i.clone(),
            delta: "ok\n".to_owned(),
        }),
        ServerNotification::TerminalInteraction(TerminalInteractionNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            item_id: i.clone(),
            process_id: "pty-1".to_owned(),
            stdin: "y\n".to_owned(),
        }),
        ServerNotification::ReasoningSummaryTextDelta(ReasoningSummaryTextDeltaNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            item_id: i.clone(),
            delta: "Checking".to_owned(),
            summary_index: 0,
        }),
        ServerNotification::ReasoningSummaryPartAdded(ReasoningSummaryPartAddedNotification {
            thread_id: t.clone(),
            turn_id: u.clone(),
            item_id: i.clone(),
            summary_index: 1,
        }),
        ServerNotification::ReasoningTextDelta(ReasoningTextDeltaNotification {
            thread_id: t.clone(),
            turn_id: u,
            item_id: i,
            delta: "raw".to_owned(),
            content_index: 0,
        }),
        ServerNotification::ServerRequestResolved(ServerRequestResolvedNotification {
            thread_id: t.clone(),
            request_id: RequestId::Integer(0),
        }),
        ServerNotification::Warning(WarningNotification {
            thread_id: Some(t),
            message: "approaching the context window".to_owned(),
        }),
        ServerNotification::DeprecationNotice(DeprecationNoticeNotification {
            summary: "thread/compacted is deprecated".to_owned(),
            details: None,
        }),
    ];
    for notification in &notifications {
        match notification {
            ServerNotification::Error(_)
            | ServerNotification::ThreadStarted(_)
            | ServerNotification::ThreadStatusChanged(_)
            | ServerNotification::ThreadNameUpdated(_)
            | ServerNotification::ThreadTokenUsageUpdated(_)
            | ServerNotification::TurnStarted(_)
            | ServerNotification::TurnCompleted(_)
            | ServerNotification::TurnDiffUpdated(_)
            | ServerNotification::ItemStarted(_)
            | ServerNotification::ItemCompleted(_)
            | ServerNotification::AgentMessageDelta(_)
            | ServerNotification::PlanDelta(_)
            | ServerNotification::CommandExecutionOutputDelta(_)
            | ServerNotification::TerminalInteraction(_)
            | ServerNotification::ReasoningSummaryTextDelta(_)
            | ServerNotification::ReasoningSummaryPartAdded(_)
            | ServerNotification::ReasoningTextDelta(_)
            | ServerNotification::ServerRequestResolved(_)
            | ServerNotification::Warning(_)
            | ServerNotification::DeprecationNotice(_) => {}
        }
    }
    notifications
}

#[test]
fn every_notification_snapshot_and_round_trip() -> Result<(), Box<dyn std::error::Error>> {
    let notifications = every_notification();
    assert_eq!(
        notifications.len(),
        20,
        "one example per notification method"
    );
    for notification in notifications {
        let name = notification.method().replace('/', "__");
        assert_json_snapshot!(format!("notification__{name}"), notification);
        let envelope = notification.to_jsonrpc()?;
        assert_eq!(envelope.method, notification.method());
        let back = ServerNotification::try_from(envelope)?;
        assert_eq!(back, notification);
    }
    Ok(())
}

fn every_server_request() -> Vec<ServerRequest> {
    let (thread_id, turn_id) = ids();
    vec![
        ServerRequest::CommandExecutionRequestApproval {
            request_id: RequestId::Integer(0),
            params: CommandExecutionRequestApprovalParams {
                thread_id: thread_id.clone(),
                turn_id: turn_id.clone(),
                item_id: "call-1".to_owned(),
                started_at_ms: 1_750_000_003_000,
                approval_id: None,
                reason: Some("runs the test suite".to_owned()),
                command: Some("cargo test".to_owned()),
                cwd: Some("/repo".to_owned()),
                command_actions: Some(vec![CommandAction::Unknown {
                    command: "cargo test".to_owned(),
                }]),
                proposed_execpolicy_amendment: Some(vec!["cargo".to_owned(), "test".to_owned()]),
                proposed_network_policy_amendments: None,
            },
        },
        ServerRequest::FileChangeRequestApproval {
            request_id: RequestId::String("req-2".to_owned()),
            params: FileChangeRequestApprovalParams {
                thread_id,
                turn_id,
                item_id: "patch-1".to_owned(),
                started_at_ms: 1_750_000_004_000,
                reason: None,
                grant_root: Some("/repo/docs".to_owned()),
            },
        },
    ]
}

#[test]
fn every_server_request_snapshot_and_round_trip() -> Result<(), Box<dyn std::error::Error>> {
    for request in every_server_request() {
        let name = request.method().replace('/', "__");
        assert_json_snapshot!(format!("request__{name}"), request);
        let back = ServerRequest::try_from(request.to_jsonrpc()?)?;
        assert_eq!(back, request);
    }
    Ok(())
}

#[test]
fn approval_decisions_snapshot() {
    assert_json_snapshot!(
        "command_execution_decisions",
        vec![
            CommandExecutionApprovalDecision::Accept,
            CommandExecutionApprovalDecision::AcceptForSession,
            CommandExecutionApprovalDecision::AcceptWithExecpolicyAmendment {
                execpolicy_amendment: vec!["cargo".to_owned(), "test".to_owned()],
            },
            CommandExecutionApprovalDecision::ApplyNetworkPolicyAmendment {
                network_policy_amendment: NetworkPolicyAmendment {
                    host: "crates.io".to_owned(),
                    action: NetworkPolicyRuleAction::Allow,
                },
            },
            CommandExecutionApprovalDecision::Decline,
            CommandExecutionApprovalDecision::Cancel,
        ]
    );
    assert_json_snapshot!(
        "file_change_decisions",
        vec![
            FileChangeApprovalDecision::Accept,
            FileChangeApprovalDecision::AcceptForSession,
            FileChangeApprovalDecision::Decline,
            FileChangeApprovalDecision::Cancel,
        ]
    );
    assert_json_snapshot!(
        "approval_responses",
        json!([
            CommandExecutionRequestApprovalResponse {
                decision: CommandExecutionApprovalDecision::Accept
            },
            FileChangeRequestApprovalResponse {
                decision: FileChangeApprovalDecision::Decline
            },
        ])
    );
}

#[test]
fn every_client_request_snapshot_and_round_trip() -> Result<(), Box<dyn std::error::Error>> {
    let requests = vec![
        ClientRequest::Initialize {
            request_id: RequestId::Integer(1),
            params: InitializeParams {
                client_info: ClientInfo {
                    name: "demo_client".to_owned(),
                    title: Some("Demo".to_owned()),
                    version: "1.0.0".to_owned(),
                },
            },
        },
        ClientRequest::ThreadStart {
            request_id: RequestId::Integer(2),
            params: ThreadStartParams {
                model: Some("gpt-5".to_owned()),
                cwd: Some("/repo".to_owned()),
                ephemeral: None,
            },
        },
        ClientRequest::ThreadResume {
            request_id: RequestId::Integer(3),
            params: ThreadResumeParams {
                thread_id: THREAD.to_owned(),
                exclude_turns: None,
            },
        },
        ClientRequest::ThreadRead {
            request_id: RequestId::Integer(4),
            params: ThreadReadParams {
                thread_id: THREAD.to_owned(),
                include_turns: true,
            },
        },
        ClientRequest::ThreadRollback {
            request_id: RequestId::Integer(5),
            params: ThreadRollbackParams {
                thread_id: THREAD.to_owned(),
                num_turns: 1,
            },
        },
        ClientRequest::TurnStart {
            request_id: RequestId::Integer(6),
            params: TurnStartParams {
                thread_id: THREAD.to_owned(),
                input: vec![UserInput::Text {
                    text: "hi".to_owned(),
                    text_elements: Vec::new(),
                }],
                client_id: Some("c-1".to_owned()),
            },
        },
        ClientRequest::TurnInterrupt {
            request_id: RequestId::Integer(7),
            params: TurnInterruptParams {
                thread_id: THREAD.to_owned(),
                turn_id: "turn-1".to_owned(),
            },
        },
    ];
    for request in requests {
        let name = request.method().replace('/', "__");
        assert_json_snapshot!(format!("client_request__{name}"), request);
        let back = ClientRequest::try_from(request.to_jsonrpc()?)?;
        assert_eq!(back, request);
    }
    assert_json_snapshot!(
        "client_notification__initialized",
        ClientNotification::Initialized
    );
    Ok(())
}

#[test]
fn envelope_has_no_jsonrpc_field_and_accepts_both_id_kinds() -> Result<(), serde_json::Error> {
    let messages = vec![
        JSONRPCMessage::Request(JSONRPCRequest {
            id: RequestId::Integer(7),
            method: "turn/start".to_owned(),
            params: Some(json!({"threadId": THREAD})),
        }),
        JSONRPCMessage::Notification(JSONRPCNotification {
            method: "initialized".to_owned(),
            params: None,
        }),
        JSONRPCMessage::Response(JSONRPCResponse {
            id: RequestId::String("abc".to_owned()),
            result: json!({}),
        }),
        JSONRPCMessage::Error(JSONRPCError {
            error: JSONRPCErrorError {
                code: -32601,
                message: "no such method".to_owned(),
                data: None,
            },
            id: RequestId::Integer(8),
        }),
    ];
    assert_json_snapshot!("envelopes", messages);
    for message in &messages {
        let text = serde_json::to_string(message)?;
        assert!(!text.contains("jsonrpc"), "{text}");
        let back: JSONRPCMessage = serde_json::from_str(&text)?;
        assert_eq!(&back, message);
    }
    // A peer that does send the version is still understood.
    let with_version: JSONRPCMessage =
        serde_json::from_str(r#"{"jsonrpc":"2.0","id":"x","method":"thread/read","params":{}}"#)?;
    assert!(matches!(with_version, JSONRPCMessage::Request(_)));
    Ok(())
}
