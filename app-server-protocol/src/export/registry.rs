//! Which types are exported. Adding a wire type to the protocol means adding it here; the
//! drift test then demands the regenerated files be committed.

use codex_protocol::rollout::RolloutLine;
use ts_rs::TypeVisitor;

use super::json_schema::{JsonEntry, entry};
use crate::common::{ClientNotification, ClientRequest, ServerNotification, ServerRequest};
use crate::jsonrpc::{
    JSONRPCError, JSONRPCErrorError, JSONRPCMessage, JSONRPCNotification, JSONRPCRequest,
    JSONRPCResponse, RequestId,
};
use crate::v2;

/// Visits the roots of the TypeScript export; their dependencies follow transitively.
pub(crate) fn visit_typescript_roots(visitor: &mut impl TypeVisitor) {
    visitor.visit::<RequestId>();
    visitor.visit::<JSONRPCMessage>();
    visitor.visit::<JSONRPCRequest>();
    visitor.visit::<JSONRPCNotification>();
    visitor.visit::<JSONRPCResponse>();
    visitor.visit::<JSONRPCError>();
    visitor.visit::<JSONRPCErrorError>();
    visitor.visit::<ClientRequest>();
    visitor.visit::<ClientNotification>();
    visitor.visit::<ServerRequest>();
    visitor.visit::<ServerNotification>();
    // Every type flattens the item into its times, yet clients name the item itself.
    visitor.visit::<v2::ThreadItem>();
    visitor.visit::<v2::InitializeResponse>();
    visitor.visit::<v2::ThreadStartResponse>();
    visitor.visit::<v2::ThreadResumeResponse>();
    visitor.visit::<v2::ThreadReadResponse>();
    visitor.visit::<v2::ThreadRollbackResponse>();
    visitor.visit::<v2::ThreadListResponse>();
    visitor.visit::<v2::ThreadLoadedListResponse>();
    visitor.visit::<v2::ThreadUnsubscribeResponse>();
    visitor.visit::<v2::ThreadTurnsListResponse>();
    visitor.visit::<v2::ThreadItemsListResponse>();
    visitor.visit::<v2::GetAccountResponse>();
    visitor.visit::<v2::ModelListResponse>();
    visitor.visit::<v2::ConfigRequirementsReadResponse>();
    visitor.visit::<v2::ConfigReadResponse>();
    visitor.visit::<v2::SkillsListResponse>();
    visitor.visit::<v2::TurnStartResponse>();
    visitor.visit::<v2::TurnInterruptResponse>();
    visitor.visit::<v2::CommandExecutionRequestApprovalResponse>();
    visitor.visit::<v2::FileChangeRequestApprovalResponse>();
    // Tools that read session files get types for every line.
    visitor.visit::<RolloutLine>();
}

/// The types that get a JSON Schema file of their own, in output order.
pub(crate) fn json_entries() -> Vec<JsonEntry> {
    vec![
        entry::<RequestId>("", true),
        entry::<JSONRPCMessage>("", true),
        entry::<JSONRPCRequest>("", true),
        entry::<JSONRPCNotification>("", true),
        entry::<JSONRPCResponse>("", true),
        entry::<JSONRPCError>("", true),
        entry::<JSONRPCErrorError>("", true),
        entry::<ClientRequest>("", true),
        entry::<ClientNotification>("", true),
        entry::<ServerRequest>("", true),
        entry::<ServerNotification>("", true),
        entry::<v2::InitializeParams>("", true),
        entry::<v2::InitializeResponse>("", true),
        // Items, turns, threads.
        entry::<v2::ThreadItem>("v2/", true),
        entry::<v2::Turn>("v2/", true),
        entry::<v2::Thread>("v2/", true),
        // Server requests and their answers.
        entry::<v2::CommandExecutionRequestApprovalParams>("v2/", true),
        entry::<v2::CommandExecutionRequestApprovalResponse>("v2/", true),
        entry::<v2::FileChangeRequestApprovalParams>("v2/", true),
        entry::<v2::FileChangeRequestApprovalResponse>("v2/", true),
        // Client requests and their answers.
        entry::<v2::ThreadStartParams>("v2/", true),
        entry::<v2::ThreadStartResponse>("v2/", true),
        entry::<v2::ThreadResumeParams>("v2/", true),
        entry::<v2::ThreadResumeResponse>("v2/", true),
        entry::<v2::ThreadReadParams>("v2/", true),
        entry::<v2::ThreadReadResponse>("v2/", true),
        entry::<v2::ThreadRollbackParams>("v2/", true),
        entry::<v2::ThreadRollbackResponse>("v2/", true),
        entry::<v2::ThreadListParams>("v2/", true),
        entry::<v2::ThreadListResponse>("v2/", true),
        entry::<v2::ThreadLoadedListParams>("v2/", true),
        entry::<v2::ThreadLoadedListResponse>("v2/", true),
        entry::<v2::ThreadUnsubscribeParams>("v2/", true),
        entry::<v2::ThreadUnsubscribeResponse>("v2/", true),
        entry::<v2::ThreadTurnsListParams>("v2/", true),
        entry::<v2::ThreadTurnsListResponse>("v2/", true),
        entry::<v2::ThreadItemsListParams>("v2/", true),
        entry::<v2::ThreadItemsListResponse>("v2/", true),
        entry::<v2::GetAccountParams>("v2/", true),
        entry::<v2::GetAccountResponse>("v2/", true),
        entry::<v2::ModelListParams>("v2/", true),
        entry::<v2::ModelListResponse>("v2/", true),
        entry::<v2::ConfigRequirementsReadResponse>("v2/", true),
        entry::<v2::ConfigReadParams>("v2/", true),
        entry::<v2::ConfigReadResponse>("v2/", true),
        entry::<v2::SkillsListParams>("v2/", true),
        entry::<v2::SkillsListResponse>("v2/", true),
        entry::<v2::TurnStartParams>("v2/", true),
        entry::<v2::TurnStartResponse>("v2/", true),
        entry::<v2::TurnInterruptParams>("v2/", true),
        entry::<v2::TurnInterruptResponse>("v2/", true),
        // Notification payloads.
        entry::<v2::ErrorNotification>("v2/", true),
        entry::<v2::ThreadStartedNotification>("v2/", true),
        entry::<v2::ThreadStatusChangedNotification>("v2/", true),
        entry::<v2::ThreadNameUpdatedNotification>("v2/", true),
        entry::<v2::ThreadTokenUsageUpdatedNotification>("v2/", true),
        entry::<v2::TurnStartedNotification>("v2/", true),
        entry::<v2::TurnCompletedNotification>("v2/", true),
        entry::<v2::TurnDiffUpdatedNotification>("v2/", true),
        entry::<v2::ItemStartedNotification>("v2/", true),
        entry::<v2::ItemCompletedNotification>("v2/", true),
        entry::<v2::AgentMessageDeltaNotification>("v2/", true),
        entry::<v2::PlanDeltaNotification>("v2/", true),
        entry::<v2::CommandExecutionOutputDeltaNotification>("v2/", true),
        entry::<v2::TerminalInteractionNotification>("v2/", true),
        entry::<v2::ReasoningSummaryTextDeltaNotification>("v2/", true),
        entry::<v2::ReasoningSummaryPartAddedNotification>("v2/", true),
        entry::<v2::ReasoningTextDeltaNotification>("v2/", true),
        entry::<v2::ServerRequestResolvedNotification>("v2/", true),
        entry::<v2::WarningNotification>("v2/", true),
        entry::<v2::DeprecationNoticeNotification>("v2/", true),
        // The persisted line, for tools that read session files; its vocabulary is core's, so
        // it keeps its own file and stays out of the bundle.
        entry::<RolloutLine>("internal/", false),
    ]
}
