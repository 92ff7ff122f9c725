//! Unit tests of `EventMsg` reading: tag aliases, legacy shapes and typed failures.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn turn_lifecycle_writes_task_tags_and_accepts_turn_aliases() -> TestResult {
    let started: EventMsg = serde_json::from_value(json!({
        "type": "turn_started", "turn_id": "t1", "model_context_window": 1000,
        "collaboration_mode_kind": "default"
    }))?;
    assert!(matches!(started, EventMsg::TurnStarted(ref event) if event.turn_id == "t1"));
    assert_eq!(
        serde_json::to_value(&started)?["type"],
        json!("task_started")
    );

    let complete: EventMsg = serde_json::from_value(json!({
        "type": "turn_complete", "turn_id": "t1", "last_agent_message": null
    }))?;
    assert!(matches!(complete, EventMsg::TurnComplete(_)));
    assert_eq!(
        serde_json::to_value(&complete)?["type"],
        json!("task_complete")
    );

    let canonical: EventMsg = serde_json::from_value(json!({
        "type": "task_complete", "turn_id": "t1", "last_agent_message": "bye"
    }))?;
    assert_eq!(canonical.type_name(), "task_complete");
    Ok(())
}

#[test]
fn unknown_event_tag_reads_as_other() -> TestResult {
    let event: EventMsg = serde_json::from_value(json!({
        "type": "realtime_conversation_sdp", "sdp": "v=0"
    }))?;
    assert_eq!(event, EventMsg::Other);
    assert_eq!(serde_json::to_value(&event)?, json!({"type": "other"}));
    Ok(())
}

#[test]
fn a_known_tag_with_a_wrong_field_is_an_error_not_other() {
    let result = serde_json::from_value::<EventMsg>(json!({
        "type": "thread_rolled_back", "num_turns": "two"
    }));
    assert!(result.is_err());
}

#[test]
fn field_less_events_are_just_their_tag() -> TestResult {
    assert_eq!(
        serde_json::to_value(EventMsg::ContextCompacted(ContextCompactedEvent {}))?,
        json!({"type": "context_compacted"})
    );
    assert_eq!(
        serde_json::to_value(EventMsg::ShutdownComplete)?,
        json!({"type": "shutdown_complete"})
    );
    let back: EventMsg = serde_json::from_value(json!({"type": "context_compacted"}))?;
    assert_eq!(back, EventMsg::ContextCompacted(ContextCompactedEvent {}));
    Ok(())
}

#[test]
fn exec_output_chunk_is_base64_of_raw_bytes() -> TestResult {
    let event = EventMsg::ExecCommandOutputDelta(ExecCommandOutputDeltaEvent {
        call_id: "call21".to_string(),
        stream: ExecOutputStream::Stdout,
        chunk: vec![1, 2, 3, 4, 5],
    });
    let json = serde_json::to_value(&event)?;
    assert_eq!(
        json,
        json!({"type": "exec_command_output_delta", "call_id": "call21", "stream": "stdout", "chunk": "AQIDBAU="})
    );
    assert_eq!(serde_json::from_value::<EventMsg>(json)?, event);
    let invalid = serde_json::from_value::<EventMsg>(json!({
        "type": "exec_command_output_delta", "call_id": "c", "stream": "stderr", "chunk": "%%%"
    }));
    assert!(invalid.is_err());
    Ok(())
}

#[test]
fn codex_error_info_unit_kinds_are_strings_and_data_kinds_are_objects() -> TestResult {
    assert_eq!(
        serde_json::to_value(CodexErrorInfo::ContextWindowExceeded)?,
        json!("context_window_exceeded")
    );
    let http: CodexErrorInfo =
        serde_json::from_value(json!({"http_connection_failed": {"http_status_code": 502}}))?;
    assert_eq!(
        http,
        CodexErrorInfo::HttpConnectionFailed {
            http_status_code: Some(502)
        }
    );
    let unknown: CodexErrorInfo = serde_json::from_value(json!("quantum_flux"))?;
    assert_eq!(unknown, CodexErrorInfo::Other);
    assert!(!CodexErrorInfo::ThreadRollbackFailed.affects_turn_status());
    assert!(
        !CodexErrorInfo::ActiveTurnNotSteerable {
            turn_kind: NonSteerableTurnKind::Review
        }
        .affects_turn_status()
    );
    assert!(CodexErrorInfo::ServerOverloaded.affects_turn_status());
    Ok(())
}

#[test]
fn error_event_writes_codex_error_info_null_when_unknown() -> TestResult {
    let event = EventMsg::Error(ErrorEvent {
        message: "boom".to_string(),
        codex_error_info: None,
    });
    assert_eq!(
        serde_json::to_value(&event)?,
        json!({"type": "error", "message": "boom", "codex_error_info": null})
    );
    Ok(())
}

#[test]
fn token_count_reads_every_rate_limit_shape() -> TestResult {
    let flat: TokenCountEvent = serde_json::from_value(json!({
        "info": null,
        "rate_limits": {"primary_used_percent": 35, "secondary_used_percent": 10.5,
            "primary_to_secondary_ratio_percent": 0, "primary_window_minutes": 299,
            "secondary_window_minutes": 10079}
    }))?;
    let limits = flat.rate_limits.ok_or("missing rate limits")?;
    assert_eq!(limits.primary_window_minutes, Some(299));
    assert_eq!(
        limits.secondary_used_percent.and_then(|n| n.as_f64()),
        Some(10.5)
    );

    let relative: TokenCountEvent = serde_json::from_value(json!({
        "info": null,
        "rate_limits": {"primary": {"used_percent": 0, "window_minutes": 299, "resets_in_seconds": 17940},
            "secondary": null}
    }))?;
    let primary = relative
        .rate_limits
        .and_then(|limits| limits.primary)
        .ok_or("missing primary")?;
    assert_eq!(primary.resets_in_seconds, Some(17940));
    assert_eq!(primary.resets_at, None);

    let current: TokenCountEvent = serde_json::from_value(json!({
        "info": {"total_token_usage": {"input_tokens": 10, "cached_input_tokens": 4,
            "output_tokens": 2, "reasoning_output_tokens": 1, "total_tokens": 12},
            "last_token_usage": {"input_tokens": 10, "cached_input_tokens": 4,
            "cache_write_input_tokens": 3, "output_tokens": 2, "reasoning_output_tokens": 1,
            "total_tokens": 12},
            "model_context_window": 258400},
        "rate_limits": {"limit_id": "codex", "limit_name": null,
            "primary": {"used_percent": 52, "window_minutes": 300, "resets_at": 1763422724},
            "secondary": null, "credits": {"has_credits": false, "unlimited": false, "balance": "0"},
            "plan_type": "pro", "individual_limit": null, "rate_limit_reached_type": null,
            "spend_control_reached": false}
    }))?;
    let info = current.info.ok_or("missing info")?;
    assert_eq!(info.total_token_usage.cache_write_input_tokens, 0);
    assert_eq!(info.last_token_usage.cache_write_input_tokens, 3);
    assert_eq!(info.total_token_usage.non_cached_input(), 6);
    let window = current
        .rate_limits
        .and_then(|limits| limits.primary)
        .ok_or("missing primary")?;
    assert_eq!(window.used_percent(), 52.0);
    assert_eq!(serde_json::to_value(&window)?["used_percent"], json!(52));
    Ok(())
}

#[test]
fn token_usage_info_accumulates_the_last_response() {
    let mut info = TokenUsageInfo::default();
    let last = TokenUsage {
        input_tokens: 10,
        cached_input_tokens: 2,
        cache_write_input_tokens: 0,
        output_tokens: 5,
        reasoning_output_tokens: 1,
        total_tokens: 15,
    };
    info.append_last_usage(&last);
    info.append_last_usage(&last);
    assert_eq!(info.total_token_usage.total_tokens, 30);
    assert_eq!(info.last_token_usage, last);
}

#[test]
fn user_message_event_writes_the_minimal_upstream_shape() -> TestResult {
    let event = UserMessageEvent {
        message: "hello".to_string(),
        ..UserMessageEvent::default()
    };
    assert_eq!(
        serde_json::to_value(&event)?,
        json!({"message": "hello", "local_images": [], "local_audio": [], "text_elements": []})
    );
    let null_lists: UserMessageEvent = serde_json::from_value(json!({
        "message": "x", "audio": null, "local_audio": null, "local_images": null
    }))?;
    assert!(null_lists.local_audio.is_empty());
    assert_eq!(null_lists.audio, None);
    Ok(())
}

#[test]
fn agent_message_event_writes_phase_and_citation_as_null() -> TestResult {
    let event = AgentMessageEvent {
        message: "hi".to_string(),
        ..AgentMessageEvent::default()
    };
    assert_eq!(
        serde_json::to_value(&event)?,
        json!({"message": "hi", "phase": null, "memory_citation": null})
    );
    Ok(())
}

#[test]
fn turn_aborted_reads_the_oldest_shape() -> TestResult {
    let event: EventMsg =
        serde_json::from_value(json!({"type": "turn_aborted", "reason": "interrupted"}))?;
    let EventMsg::TurnAborted(aborted) = event else {
        return Err("not turn_aborted".into());
    };
    assert_eq!(aborted.turn_id, None);
    assert_eq!(aborted.reason, TurnAbortReason::Interrupted);
    Ok(())
}

#[test]
fn event_timestamps_accept_seconds_and_rfc3339() -> TestResult {
    let seconds: EventTimestamp = serde_json::from_value(json!(1_700_000_000))?;
    assert_eq!(seconds.unix_seconds(), Some(1_700_000_000));
    let text: EventTimestamp = serde_json::from_value(json!("2023-11-14T22:13:20Z"))?;
    assert_eq!(text.unix_seconds(), Some(1_700_000_000));
    assert_eq!(serde_json::to_value(&text)?, json!("2023-11-14T22:13:20Z"));
    let garbage = EventTimestamp::Rfc3339("soon".to_string());
    assert_eq!(garbage.unix_seconds(), None);
    Ok(())
}

#[test]
fn session_configured_thread_id_falls_back_to_session_id() -> TestResult {
    let event: SessionConfiguredEvent = serde_json::from_value(json!({
        "session_id": "019a93b9-f380-7600-98ff-940e6b99603c", "model": "gpt-5",
        "model_provider_id": "openai", "approval_policy": "never",
        "sandbox_policy": {"type": "read-only"}, "cwd": "/repo"
    }))?;
    assert_eq!(event.effective_thread_id(), event.session_id);
    assert!(event.sandbox_policy.is_some());
    Ok(())
}

#[test]
fn mcp_tool_call_end_result_uses_ok_and_err_keys() -> TestResult {
    let event: McpToolCallEndEvent = serde_json::from_value(json!({
        "call_id": "c", "invocation": {"server": "s", "tool": "t", "arguments": null},
        "duration": {"secs": 0, "nanos": 4000000}, "result": {"Err": "timed out"}
    }))?;
    assert_eq!(event.result, Err("timed out".to_string()));
    assert!(!event.is_success());
    assert_eq!(event.turn_id, "");
    assert_eq!(event.duration, std::time::Duration::from_millis(4));
    Ok(())
}

#[test]
fn network_protocol_accepts_legacy_spellings() -> TestResult {
    for spelling in ["https", "https_connect", "http-connect"] {
        let protocol: NetworkApprovalProtocol = serde_json::from_value(json!(spelling))?;
        assert_eq!(protocol, NetworkApprovalProtocol::Https);
    }
    Ok(())
}

#[test]
fn review_decision_default_is_a_denial() -> TestResult {
    assert_eq!(
        serde_json::to_value(ReviewDecision::default())?,
        json!({"denied": {"rejection": "denied"}})
    );
    assert_eq!(
        serde_json::to_value(ReviewDecision::Approved)?,
        json!("approved")
    );
    Ok(())
}

#[test]
fn deltas_are_flagged_as_transient() {
    let delta = EventMsg::AgentMessageContentDelta(AgentMessageContentDeltaEvent {
        thread_id: "t".to_string(),
        turn_id: "u".to_string(),
        item_id: "i".to_string(),
        delta: "x".to_string(),
    });
    assert!(delta.is_delta());
    assert!(!EventMsg::ShutdownComplete.is_delta());
}
