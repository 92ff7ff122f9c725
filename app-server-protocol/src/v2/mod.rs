//! The v2 client contract: items, turns, threads, notification payloads, approvals and request
//! params. Every type here exports to `schema/typescript/v2/` and `schema/json/v2/`.

mod approval;
mod bootstrap;
mod decision_mapping;
mod from_core;
mod from_core_parts;
mod item;
mod item_parts;
mod lists;
mod moderation;
mod notification;
mod requests;
mod thread;
mod turn;
mod user_input;

pub use approval::{
    CommandExecutionApprovalDecision, CommandExecutionRequestApprovalParams,
    CommandExecutionRequestApprovalResponse, FileChangeApprovalDecision,
    FileChangeRequestApprovalParams, FileChangeRequestApprovalResponse, NetworkPolicyAmendment,
    NetworkPolicyRuleAction,
};
pub use bootstrap::{
    ConfigReadParams, ConfigReadResponse, ConfigRequirementsReadResponse, GetAccountParams,
    GetAccountResponse, Model, ModelListParams, ModelListResponse, ReasoningEffortOption,
    SkillsListParams, SkillsListResponse,
};
pub use from_core::SLEEP_EXTENSION_KIND;
pub use from_core_parts::{convert_patch_changes, duration_ms, review_output_text, shell_join};
pub use item::ThreadItem;
pub use item_parts::{
    CollabAgentState, CollabAgentStates, CollabAgentStatus, CollabAgentTool,
    CollabAgentToolCallStatus, CommandAction, CommandExecutionSource, CommandExecutionStatus,
    DynamicToolCallOutputContentItem, DynamicToolCallStatus, FileUpdateChange, HookPromptFragment,
    McpAppContext, McpAppDisplayMode, McpAppUi, McpToolCallError, McpToolCallResult,
    McpToolCallStatus, MemoryCitation, MemoryCitationEntry, PatchApplyStatus, PatchChangeKind,
    SubAgentActivityKind, WebSearchAction,
};
pub use lists::{
    SortDirection, ThreadItemEntry, ThreadItemsListParams, ThreadItemsListResponse,
    ThreadListCwdFilter, ThreadListParams, ThreadListResponse, ThreadLoadedListParams,
    ThreadLoadedListResponse, ThreadSortKey, ThreadTurnsListParams, ThreadTurnsListResponse,
    ThreadUnsubscribeParams, ThreadUnsubscribeResponse, ThreadUnsubscribeStatus,
};
pub use moderation::{
    AgentMessageDisplay, AgentMessageModeration, AnswerAnnotation, AnswerReplacement, BlockReason,
    HelplineSubject, TrustedContacts,
};
pub use notification::{
    AgentMessageDeltaNotification, CommandExecutionOutputDeltaNotification,
    DeprecationNoticeNotification, ErrorNotification, ItemCompletedNotification,
    ItemStartedNotification, PlanDeltaNotification, ReasoningSummaryPartAddedNotification,
    ReasoningSummaryTextDeltaNotification, ReasoningTextDeltaNotification,
    ServerRequestResolvedNotification, TerminalInteractionNotification,
    ThreadNameUpdatedNotification, ThreadStartedNotification, ThreadStatusChangedNotification,
    ThreadTokenUsage, ThreadTokenUsageUpdatedNotification, TokenUsageBreakdown,
    TurnCompletedNotification, TurnDiffUpdatedNotification, TurnStartedNotification,
    WarningNotification,
};
pub use requests::{
    ClientInfo, InitializeParams, InitializeResponse, ThreadReadParams, ThreadReadResponse,
    ThreadResumeParams, ThreadResumeResponse, ThreadRollbackParams, ThreadRollbackResponse,
    ThreadStartParams, ThreadStartResponse, TurnInterruptParams, TurnInterruptResponse,
    TurnStartParams, TurnStartResponse,
};
pub use thread::{
    GitInfo, SOURCE_KINDS, SessionSource, Thread, ThreadActiveFlag, ThreadFile, ThreadHistoryMode,
    ThreadSource, ThreadStatus,
};
pub use turn::{CodexErrorInfo, TimedThreadItem, Turn, TurnError, TurnItemsView, TurnStatus};
pub use user_input::{ByteRange, TextElement, UserInput};
