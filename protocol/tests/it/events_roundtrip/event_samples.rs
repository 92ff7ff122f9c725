//! Sample events of the turn lifecycle, item lifecycle and message families.

use std::path::PathBuf;

use codex_protocol::event::*;
use codex_protocol::items::*;
use codex_protocol::models::ContentItem;
use codex_protocol::models::ImageDetail;
use codex_protocol::models::MessagePhase;
use codex_protocol::models::ResponseItem;
use codex_protocol::user_input::ByteRange;
use codex_protocol::user_input::TextElement;
use serde_json::json;

use super::turn_item_samples::*;

fn item_completed(item: TurnItem) -> EventMsg {
    EventMsg::ItemCompleted(ItemCompletedEvent {
        thread_id: THREAD.to_string(),
        turn_id: text("turn-1"),
        item,
        started_at_ms: Some(1_763_000_000_000),
        completed_at_ms: 1_763_000_000_500,
    })
}

pub(crate) fn turn_events() -> Vec<(&'static str, EventMsg)> {
    vec![
        (
            "task_started",
            EventMsg::TurnStarted(TurnStartedEvent {
                turn_attribution: None,
                turn_id: text("turn-1"),
                root_turn_id: None,
                trace_id: Some(text("trace-1")),
                started_at: Some(EventTimestamp::UnixSeconds(1_763_000_000)),
                model_context_window: Some(258_400),
                collaboration_mode_kind: text("default"),
            }),
        ),
        (
            "task_complete",
            EventMsg::TurnComplete(TurnCompleteEvent {
                root_turn_id: None,
                turn_id: text("turn-1"),
                last_agent_message: Some(text("Done.")),
                error: None,
                started_at: Some(EventTimestamp::UnixSeconds(1_763_000_000)),
                completed_at: Some(EventTimestamp::UnixSeconds(1_763_000_009)),
                duration_ms: Some(9_000),
                time_to_first_token_ms: Some(300),
            }),
        ),
        (
            "task_complete_failed",
            EventMsg::TurnComplete(TurnCompleteEvent {
                root_turn_id: Some(text("root-turn")),
                turn_id: text("turn-2"),
                last_agent_message: None,
                error: Some(ErrorEvent {
                    message: text("context window exceeded"),
                    codex_error_info: Some(CodexErrorInfo::ContextWindowExceeded),
                }),
                started_at: None,
                completed_at: None,
                duration_ms: None,
                time_to_first_token_ms: None,
            }),
        ),
        (
            "turn_aborted",
            EventMsg::TurnAborted(TurnAbortedEvent {
                root_turn_id: None,
                turn_id: Some(text("turn-3")),
                reason: TurnAbortReason::Interrupted,
                error: None,
                started_at: None,
                completed_at: None,
                duration_ms: Some(10),
            }),
        ),
        (
            "thread_rolled_back",
            EventMsg::ThreadRolledBack(ThreadRolledBackEvent { num_turns: 2 }),
        ),
        (
            "context_compacted",
            EventMsg::ContextCompacted(ContextCompactedEvent {}),
        ),
        ("shutdown_complete", EventMsg::ShutdownComplete),
        (
            "turn_diff",
            EventMsg::TurnDiff(TurnDiffEvent {
                unified_diff: text("--- a\n+++ b\n"),
            }),
        ),
        (
            "plan_update",
            EventMsg::PlanUpdate(UpdatePlanArgs {
                explanation: Some(text("narrowed scope")),
                plan: vec![
                    PlanItemArg {
                        step: text("read"),
                        status: StepStatus::Completed,
                    },
                    PlanItemArg {
                        step: text("fix"),
                        status: StepStatus::InProgress,
                    },
                    PlanItemArg {
                        step: text("test"),
                        status: StepStatus::Pending,
                    },
                ],
            }),
        ),
        (
            "session_configured",
            EventMsg::SessionConfigured(SessionConfiguredEvent {
                session_id: thread(THREAD),
                thread_id: Some(thread(THREAD)),
                forked_from_id: None,
                parent_thread_id: None,
                thread_source: Some(text("user")),
                thread_name: None,
                model: text("gpt-5"),
                model_provider_id: text("openai"),
                service_tier: None,
                approval_policy: json!("never"),
                approvals_reviewer: Some(text("user")),
                permission_profile: Some(json!({"type": "managed"})),
                sandbox_policy: None,
                active_permission_profile: None,
                cwd: text("/repo"),
                reasoning_effort: Some(text("medium")),
                network_proxy: None,
                rollout_path: Some(text("/home/me/.codex/sessions/rollout.jsonl")),
            }),
        ),
    ]
}

pub(crate) fn item_events() -> Vec<(&'static str, EventMsg)> {
    let agent_message = TurnItem::AgentMessage(AgentMessageItem::new(
        "msg_1",
        vec![AgentMessageContent::Text { text: text("Hi") }],
    ));
    vec![
        (
            "item_started",
            EventMsg::ItemStarted(ItemStartedEvent {
                thread_id: THREAD.to_string(),
                turn_id: text("turn-1"),
                item: agent_message.clone(),
                started_at_ms: 1_763_000_000_000,
            }),
        ),
        ("item_completed", item_completed(agent_message)),
        (
            "agent_message_content_delta",
            EventMsg::AgentMessageContentDelta(AgentMessageContentDeltaEvent {
                thread_id: text(THREAD),
                turn_id: text("turn-1"),
                item_id: text("msg_1"),
                delta: text("Hi"),
            }),
        ),
        (
            "plan_delta",
            EventMsg::PlanDelta(PlanDeltaEvent {
                thread_id: text(THREAD),
                turn_id: text("turn-1"),
                item_id: text("item-plan"),
                delta: text("1. "),
            }),
        ),
        (
            "reasoning_content_delta",
            EventMsg::ReasoningContentDelta(ReasoningContentDeltaEvent {
                thread_id: text(THREAD),
                turn_id: text("turn-1"),
                item_id: text("rs_1"),
                delta: text("**Read"),
                summary_index: 1,
            }),
        ),
        (
            "reasoning_raw_content_delta",
            EventMsg::ReasoningRawContentDelta(ReasoningRawContentDeltaEvent {
                thread_id: text(THREAD),
                turn_id: text("turn-1"),
                item_id: text("rs_1"),
                delta: text("hmm"),
                content_index: 0,
            }),
        ),
        (
            "raw_response_item",
            EventMsg::RawResponseItem(RawResponseItemEvent {
                item: ResponseItem::Message {
                    id: None,
                    role: text("assistant"),
                    content: vec![ContentItem::output_text("Hi")],
                    phase: Some(MessagePhase::Commentary),
                    status: None,
                    encrypted_content: None,
                    internal_chat_message_metadata_passthrough: None,
                },
            }),
        ),
    ]
}

pub(crate) fn message_events() -> Vec<(&'static str, EventMsg)> {
    vec![
        (
            "user_message",
            EventMsg::UserMessage(UserMessageEvent {
                client_id: Some(text("client-7")),
                message: text("look at this"),
                images: Some(vec![text("https://example.com/a.png")]),
                image_details: vec![Some(ImageDetail::Low)],
                file_ids: None,
                file_id_details: Vec::new(),
                image_order: vec![ImageOrderKind::Inline],
                local_images: vec![PathBuf::from("/tmp/b.png")],
                local_image_details: vec![None],
                audio: None,
                local_audio: Vec::new(),
                text_elements: vec![TextElement::new(ByteRange::from(0..4), None)],
                kind: None,
            }),
        ),
        (
            "user_message_minimal",
            EventMsg::UserMessage(UserMessageEvent {
                message: text("hello"),
                ..UserMessageEvent::default()
            }),
        ),
        (
            "agent_message",
            EventMsg::AgentMessage(AgentMessageEvent {
                message: text("Done."),
                phase: Some(MessagePhase::FinalAnswer),
                memory_citation: None,
                delivery: None,
                questions: None,
            }),
        ),
        (
            "agent_reasoning",
            EventMsg::AgentReasoning(AgentReasoningEvent {
                text: text("**Planning**"),
            }),
        ),
        (
            "agent_reasoning_raw_content",
            EventMsg::AgentReasoningRawContent(AgentReasoningRawContentEvent { text: text("raw") }),
        ),
        (
            "agent_reasoning_section_break",
            EventMsg::AgentReasoningSectionBreak(AgentReasoningSectionBreakEvent {
                item_id: text("rs_1"),
                summary_index: 2,
            }),
        ),
        (
            "token_count",
            EventMsg::TokenCount(TokenCountEvent {
                info: Some(TokenUsageInfo {
                    total_token_usage: TokenUsage {
                        input_tokens: 16_341,
                        cached_input_tokens: 3_584,
                        cache_write_input_tokens: 0,
                        output_tokens: 81,
                        reasoning_output_tokens: 63,
                        total_tokens: 16_422,
                    },
                    last_token_usage: TokenUsage::default(),
                    model_context_window: Some(258_400),
                }),
                rate_limits: Some(RateLimitSnapshot {
                    limit_id: Some(text("codex")),
                    plan_type: Some(text("pro")),
                    primary: Some(RateLimitWindow {
                        used_percent: serde_json::Number::from(52),
                        window_minutes: Some(300),
                        resets_at: Some(1_763_422_724),
                        resets_in_seconds: None,
                    }),
                    credits: Some(CreditsSnapshot {
                        has_credits: false,
                        unlimited: false,
                        balance: Some(text("0")),
                    }),
                    ..RateLimitSnapshot::default()
                }),
            }),
        ),
        (
            "token_count_empty",
            EventMsg::TokenCount(TokenCountEvent::default()),
        ),
        (
            "error",
            EventMsg::Error(ErrorEvent {
                message: text("stream disconnected"),
                codex_error_info: Some(CodexErrorInfo::ResponseStreamDisconnected {
                    http_status_code: Some(502),
                }),
            }),
        ),
        (
            "warning",
            EventMsg::Warning(WarningEvent {
                message: text("model fallback"),
            }),
        ),
        (
            "stream_error",
            EventMsg::StreamError(StreamErrorEvent {
                message: text("reconnecting 1/5"),
                codex_error_info: Some(CodexErrorInfo::ActiveTurnNotSteerable {
                    turn_kind: NonSteerableTurnKind::Compact,
                }),
                additional_details: None,
            }),
        ),
    ]
}
