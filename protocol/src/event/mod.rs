//! The event stream: [`Event`] and [`EventMsg`].
//!
//! The agent core emits events as a turn progresses (turn started, item started, deltas,
//! commands, approvals, token counts, turn complete). Clients project them into their own
//! view; session files persist a durable subset of them inside `event_msg` lines.
//!
//! Wire shape: [`EventMsg`] is internally tagged by `type` in snake_case, with the payload's
//! fields flattened next to it. Turn lifecycle tags keep their historical spelling
//! (`task_started`, `task_complete`) and also accept `turn_started` / `turn_complete`. A tag
//! this crate does not model reads as [`EventMsg::Other`] (its payload is not kept here: the
//! session-file reader keeps the original line).

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

mod agents;
mod approvals;
mod errors;
mod exec;
mod item;
mod messages;
mod patch;
mod plan;
mod review;
pub(crate) mod serde_helpers;
mod session;
mod thread_state;
mod token_usage;
mod tools;
mod turn;

pub use agents::AuthRecoveryEvent;
pub use agents::CollabToolBeginEvent;
pub use agents::CollabToolEndEvent;
pub use agents::ElicitationAbandonedEvent;
pub use agents::GuardianAssessmentEvent;
pub use agents::SubAgentActivityEvent;
pub use approvals::ApplyPatchApprovalRequestEvent;
pub use approvals::ExecApprovalRequestEvent;
pub use approvals::NetworkApprovalContext;
pub use approvals::NetworkApprovalProtocol;
pub use approvals::NetworkPolicyAmendment;
pub use approvals::NetworkPolicyRuleAction;
pub use approvals::ReviewDecision;
pub use errors::CodexErrorInfo;
pub use errors::ErrorEvent;
pub use errors::NonSteerableTurnKind;
pub use errors::StreamErrorEvent;
pub use errors::WarningEvent;
pub use exec::ExecCommandBeginEvent;
pub use exec::ExecCommandEndEvent;
pub use exec::ExecCommandOutputDeltaEvent;
pub use exec::ExecCommandStatus;
pub use exec::ExecOutputStream;
pub use exec::ViewImageToolCallEvent;
pub use item::AgentMessageContentDeltaEvent;
pub use item::ItemCompletedEvent;
pub use item::ItemStartedEvent;
pub use item::PlanDeltaEvent;
pub use item::RawResponseItemEvent;
pub use item::ReasoningContentDeltaEvent;
pub use item::ReasoningRawContentDeltaEvent;
pub use messages::AgentMessageEvent;
pub use messages::AgentReasoningEvent;
pub use messages::AgentReasoningRawContentEvent;
pub use messages::AgentReasoningSectionBreakEvent;
pub use messages::ImageOrderKind;
pub use messages::UserMessageEvent;
pub use patch::PatchApplyBeginEvent;
pub use patch::PatchApplyEndEvent;
pub use patch::TurnDiffEvent;
pub use plan::PlanItemArg;
pub use plan::StepStatus;
pub use plan::UpdatePlanArgs;
pub use review::EnteredReviewModeEvent;
pub use review::ExitedReviewModeEvent;
pub use session::SessionConfiguredEvent;
pub use thread_state::ThreadGoalUpdatedEvent;
pub use thread_state::ThreadNameUpdatedEvent;
pub use thread_state::ThreadSettings;
pub use thread_state::ThreadSettingsAppliedEvent;
pub use token_usage::CreditsSnapshot;
pub use token_usage::RateLimitSnapshot;
pub use token_usage::RateLimitWindow;
pub use token_usage::TokenCountEvent;
pub use token_usage::TokenUsage;
pub use token_usage::TokenUsageInfo;
pub use tools::ImageGenerationBeginEvent;
pub use tools::ImageGenerationEndEvent;
pub use tools::McpInvocation;
pub use tools::McpToolCallBeginEvent;
pub use tools::McpToolCallEndEvent;
pub use tools::WebSearchBeginEvent;
pub use tools::WebSearchEndEvent;
pub use turn::ContextCompactedEvent;
pub use turn::EventTimestamp;
pub use turn::ThreadRolledBackEvent;
pub use turn::TurnAbortReason;
pub use turn::TurnAbortedEvent;
pub use turn::TurnCompleteEvent;
pub use turn::TurnStartedEvent;

/// One event of a session: `id` is the submission (user request) it answers, `msg` what
/// happened.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// The id of the submission (user request) this event answers.
    pub id: String,
    /// What happened.
    pub msg: EventMsg,
}

crate::type_first::type_first_enum! {
twin EventMsgTwin = "EventMsg";
/// What happened. See the module docs for the wire shape.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(tag = "type", rename_all = "snake_case")]
pub enum EventMsg {
    /// A turn failed or an operation was refused.
    Error(ErrorEvent),
    /// Something worth telling the person that did not stop the turn.
    Warning(WarningEvent),
    /// The history was compacted.
    ContextCompacted(ContextCompactedEvent),
    /// The last turns were dropped; replayed when resuming.
    ThreadRolledBack(ThreadRolledBackEvent),
    /// A turn began.
    #[serde(rename = "task_started", alias = "turn_started")]
    #[ts(rename = "task_started")]
    TurnStarted(TurnStartedEvent),
    /// A turn finished.
    #[serde(rename = "task_complete", alias = "turn_complete")]
    #[ts(rename = "task_complete")]
    TurnComplete(TurnCompleteEvent),
    /// Token usage and rate limits after a response.
    TokenCount(TokenCountEvent),
    /// The agent's message as one text.
    AgentMessage(AgentMessageEvent),
    /// The person's message as one text plus media.
    UserMessage(UserMessageEvent),
    /// A reasoning summary.
    AgentReasoning(AgentReasoningEvent),
    /// Raw reasoning text.
    AgentReasoningRawContent(AgentReasoningRawContentEvent),
    /// A new reasoning summary section.
    AgentReasoningSectionBreak(AgentReasoningSectionBreakEvent),
    /// The session's effective settings.
    SessionConfigured(SessionConfiguredEvent),
    /// An MCP tool call started.
    McpToolCallBegin(McpToolCallBeginEvent),
    /// An MCP tool call finished, with its result.
    McpToolCallEnd(McpToolCallEndEvent),
    /// A web search started.
    WebSearchBegin(WebSearchBeginEvent),
    /// A web search finished, with its query.
    WebSearchEnd(WebSearchEndEvent),
    /// An image generation call started.
    ImageGenerationBegin(ImageGenerationBeginEvent),
    /// An image generation call finished.
    ImageGenerationEnd(ImageGenerationEndEvent),
    /// A command started running.
    ExecCommandBegin(ExecCommandBeginEvent),
    /// A chunk of command output (not persisted).
    ExecCommandOutputDelta(ExecCommandOutputDeltaEvent),
    /// A command finished, with its exit code and output.
    ExecCommandEnd(ExecCommandEndEvent),
    /// The agent viewed a local image file.
    ViewImageToolCall(ViewImageToolCallEvent),
    /// The agent asks before running a command (a request, not persisted).
    ExecApprovalRequest(ExecApprovalRequestEvent),
    /// The agent asks before applying a patch (a request, not persisted).
    ApplyPatchApprovalRequest(ApplyPatchApprovalRequestEvent),
    /// The response stream broke and is retried.
    StreamError(StreamErrorEvent),
    /// A patch started being applied.
    PatchApplyBegin(PatchApplyBeginEvent),
    /// A patch was applied, or failed to apply.
    PatchApplyEnd(PatchApplyEndEvent),
    /// The turn's changes so far, as a diff.
    TurnDiff(TurnDiffEvent),
    /// The agent's plan changed.
    PlanUpdate(UpdatePlanArgs),
    /// A turn stopped early.
    TurnAborted(TurnAbortedEvent),
    /// The session shut down (`{"type":"shutdown_complete"}`).
    ShutdownComplete,
    /// A code review began.
    EnteredReviewMode(EnteredReviewModeEvent),
    /// A code review ended, with its output when there is one.
    ExitedReviewMode(ExitedReviewModeEvent),
    /// A response item as recorded into history.
    RawResponseItem(RawResponseItemEvent),
    /// A turn item began.
    ItemStarted(ItemStartedEvent),
    /// A turn item finished (the persisted form of items).
    ItemCompleted(ItemCompletedEvent),
    /// Streaming text of an agent message.
    AgentMessageContentDelta(AgentMessageContentDeltaEvent),
    /// Streaming text of a plan.
    PlanDelta(PlanDeltaEvent),
    /// Streaming text of a reasoning summary.
    ReasoningContentDelta(ReasoningContentDeltaEvent),
    /// Streaming raw reasoning text.
    ReasoningRawContentDelta(ReasoningRawContentDeltaEvent),
    /// The thread's settings changed (model, effort, permissions).
    ThreadSettingsApplied(ThreadSettingsAppliedEvent),
    /// The thread was named.
    ThreadNameUpdated(ThreadNameUpdatedEvent),
    /// The thread's goal changed.
    ThreadGoalUpdated(ThreadGoalUpdatedEvent),
    /// A guardian assessed an action (auto-review).
    GuardianAssessment(GuardianAssessmentEvent),
    /// A sub-agent's activity, as its parent records it.
    SubAgentActivity(SubAgentActivityEvent),
    /// A call that spawns a sub-agent started.
    CollabAgentSpawnBegin(CollabToolBeginEvent),
    /// A call that spawns a sub-agent finished.
    CollabAgentSpawnEnd(CollabToolEndEvent),
    /// A call that sends a sub-agent a message started.
    CollabAgentInteractionBegin(CollabToolBeginEvent),
    /// A call that sends a sub-agent a message finished.
    CollabAgentInteractionEnd(CollabToolEndEvent),
    /// A call that waits for sub-agents started.
    CollabWaitingBegin(CollabToolBeginEvent),
    /// A call that waits for sub-agents finished.
    CollabWaitingEnd(CollabToolEndEvent),
    /// A call that closes a sub-agent started.
    CollabCloseBegin(CollabToolBeginEvent),
    /// A call that closes a sub-agent finished.
    CollabCloseEnd(CollabToolEndEvent),
    /// A call that resumes a sub-agent started.
    CollabResumeBegin(CollabToolBeginEvent),
    /// A call that resumes a sub-agent finished.
    CollabResumeEnd(CollabToolEndEvent),
    /// Credential recovery began.
    AuthRecoveryStarted(AuthRecoveryEvent),
    /// Credential recovery finished.
    AuthRecoveryCompleted(AuthRecoveryEvent),
    /// An MCP elicitation was abandoned.
    ElicitationAbandoned(ElicitationAbandonedEvent),
    @fallback
    /// An event type this crate does not model (written back as `{"type":"other"}`).
    #[serde(other)]
    Other,
}
}

impl EventMsg {
    /// The wire tag of this event (`"task_started"`, `"item_completed"`, ...); `"other"` for
    /// an unmodelled event.
    pub fn type_name(&self) -> &'static str {
        match self {
            Self::Error(_) => "error",
            Self::Warning(_) => "warning",
            Self::ContextCompacted(_) => "context_compacted",
            Self::ThreadRolledBack(_) => "thread_rolled_back",
            Self::TurnStarted(_) => "task_started",
            Self::TurnComplete(_) => "task_complete",
            Self::TokenCount(_) => "token_count",
            Self::AgentMessage(_) => "agent_message",
            Self::UserMessage(_) => "user_message",
            Self::AgentReasoning(_) => "agent_reasoning",
            Self::AgentReasoningRawContent(_) => "agent_reasoning_raw_content",
            Self::AgentReasoningSectionBreak(_) => "agent_reasoning_section_break",
            Self::SessionConfigured(_) => "session_configured",
            Self::McpToolCallBegin(_) => "mcp_tool_call_begin",
            Self::McpToolCallEnd(_) => "mcp_tool_call_end",
            Self::WebSearchBegin(_) => "web_search_begin",
            Self::WebSearchEnd(_) => "web_search_end",
            Self::ImageGenerationBegin(_) => "image_generation_begin",
            Self::ImageGenerationEnd(_) => "image_generation_end",
            Self::ExecCommandBegin(_) => "exec_command_begin",
            Self::ExecCommandOutputDelta(_) => "exec_command_output_delta",
            Self::ExecCommandEnd(_) => "exec_command_end",
            Self::ViewImageToolCall(_) => "view_image_tool_call",
            Self::ExecApprovalRequest(_) => "exec_approval_request",
            Self::ApplyPatchApprovalRequest(_) => "apply_patch_approval_request",
            Self::StreamError(_) => "stream_error",
            Self::PatchApplyBegin(_) => "patch_apply_begin",
            Self::PatchApplyEnd(_) => "patch_apply_end",
            Self::TurnDiff(_) => "turn_diff",
            Self::PlanUpdate(_) => "plan_update",
            Self::TurnAborted(_) => "turn_aborted",
            Self::ShutdownComplete => "shutdown_complete",
            Self::EnteredReviewMode(_) => "entered_review_mode",
            Self::ExitedReviewMode(_) => "exited_review_mode",
            Self::RawResponseItem(_) => "raw_response_item",
            Self::ItemStarted(_) => "item_started",
            Self::ItemCompleted(_) => "item_completed",
            Self::AgentMessageContentDelta(_) => "agent_message_content_delta",
            Self::PlanDelta(_) => "plan_delta",
            Self::ReasoningContentDelta(_) => "reasoning_content_delta",
            Self::ReasoningRawContentDelta(_) => "reasoning_raw_content_delta",
            Self::ThreadSettingsApplied(_) => "thread_settings_applied",
            Self::ThreadNameUpdated(_) => "thread_name_updated",
            Self::ThreadGoalUpdated(_) => "thread_goal_updated",
            Self::GuardianAssessment(_) => "guardian_assessment",
            Self::SubAgentActivity(_) => "sub_agent_activity",
            Self::CollabAgentSpawnBegin(_) => "collab_agent_spawn_begin",
            Self::CollabAgentSpawnEnd(_) => "collab_agent_spawn_end",
            Self::CollabAgentInteractionBegin(_) => "collab_agent_interaction_begin",
            Self::CollabAgentInteractionEnd(_) => "collab_agent_interaction_end",
            Self::CollabWaitingBegin(_) => "collab_waiting_begin",
            Self::CollabWaitingEnd(_) => "collab_waiting_end",
            Self::CollabCloseBegin(_) => "collab_close_begin",
            Self::CollabCloseEnd(_) => "collab_close_end",
            Self::CollabResumeBegin(_) => "collab_resume_begin",
            Self::CollabResumeEnd(_) => "collab_resume_end",
            Self::AuthRecoveryStarted(_) => "auth_recovery_started",
            Self::AuthRecoveryCompleted(_) => "auth_recovery_completed",
            Self::ElicitationAbandoned(_) => "elicitation_abandoned",
            Self::Other => "other",
        }
    }

    /// Whether this event arrives many times per item while it streams (deltas). Such events
    /// are transient: clients fold them, session files do not keep them.
    pub fn is_delta(&self) -> bool {
        matches!(
            self,
            Self::ExecCommandOutputDelta(_)
                | Self::AgentMessageContentDelta(_)
                | Self::PlanDelta(_)
                | Self::ReasoningContentDelta(_)
                | Self::ReasoningRawContentDelta(_)
        )
    }
}

#[cfg(test)]
#[path = "event_tests.rs"]
mod tests;
