//! The persistence policy: which recorded items are durable, i.e. written to the session file,
//! in each of the two history modes upstream Codex writes.
//!
//! A session hands its recorder everything it records; this table decides what of it a
//! session file keeps. The rule is "keep what resume needs, nothing that only animates a live
//! screen", and the two modes differ in how the client's thread is rebuilt:
//! - **legacy** files (every Codex before 0.151, and `history_mode` absent) rebuild the
//!   thread from a dozen durable events (`user_message`, `agent_message`, `patch_apply_end`,
//!   ...) and keep `item_completed` only for items no event carries (plans, sub-agent
//!   completions, function-call outputs);
//! - **paginated** files (the default since 0.151) write none of those events and instead
//!   every `item_completed`, with command output and MCP results capped at 64 KiB
//!   ([`prepare_for_persistence`]); `realtime_item` lines exist only here.
//!
//! Both keep model history (response items), compactions, turn settings, session metas, the
//! newer line kinds, the turn lifecycle, token counts, rollbacks, goals and settings changes;
//! both drop deltas, begins, `exec_command_end`, approvals and other requests, errors,
//! warnings, `item_started`, raw response items and `session_configured`. An event the list
//! of `docs/rollout.md` does not name (a guardian assessment, a `collab_*` end, a thread name)
//! is not persisted by today's upstream, so it is transient here too.
//!
//! The table is the exhaustive `match` of [`event_persistence`] (no wildcard arm over known
//! variants), one row per event with a column per mode, so adding an event variant does not
//! compile until someone decides both columns.

use std::borrow::Cow;

use codex_protocol::event::{EventMsg, ItemCompletedEvent};
use codex_protocol::items::{SubAgentActivityKind, TurnItem};
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{HistoryMode, RolloutItem};

mod cap;

#[cfg(test)]
use cap::{PERSISTED_OUTPUT_LIMIT, PERSISTENCE_TRUNCATION_MARKER};

/// Whether something recorded is written to the session file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) enum Durability {
    /// Written: resume needs it.
    Durable,
    /// Not written: it repeats a durable fact or only matters while the turn is live.
    Transient,
}

impl Durability {
    /// True for [`Durability::Durable`].
    pub(crate) fn is_durable(self) -> bool {
        self == Durability::Durable
    }

    const fn from_bool(durable: bool) -> Self {
        if durable {
            Durability::Durable
        } else {
            Durability::Transient
        }
    }
}

/// The decision for one rollout item in a file of history mode `mode`.
pub(crate) fn rollout_item_durability(item: &RolloutItem, mode: &HistoryMode) -> Durability {
    match item {
        RolloutItem::SessionMeta(_)
        | RolloutItem::Compacted(_)
        | RolloutItem::TurnContext(_)
        | RolloutItem::InterAgentCommunication(_)
        | RolloutItem::InterAgentCommunicationMetadata(_)
        | RolloutItem::TokenUsageRecord(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::DynamicToolsUpdated(_)
        | RolloutItem::RetainedContext(_)
        | RolloutItem::SecurityRiskScore(_) => Durability::Durable,
        // Sparse facts of realtime sessions: upstream writes them in paginated files only.
        RolloutItem::RealtimeItem(_) => Durability::from_bool(mode.is_paginated()),
        RolloutItem::ResponseItem(item) => response_item_durability(item),
        RolloutItem::EventMsg(event) => event_durability(event, mode),
        // A line kind we do not model came from a file whose writer found it durable; we keep
        // what we cannot judge rather than silently dropping someone else's data.
        RolloutItem::Unknown(_) => Durability::Durable,
    }
}

/// The decision for one item of model history: everything the model saw is durable, except
/// the request-only compaction trigger and items of a kind we do not model (which would be
/// written back as a bare `{"type":"other"}`, losing their content).
pub(crate) fn response_item_durability(item: &ResponseItem) -> Durability {
    match item {
        ResponseItem::AdditionalTools { .. }
        | ResponseItem::Message { .. }
        | ResponseItem::AgentMessage { .. }
        | ResponseItem::Reasoning { .. }
        | ResponseItem::LocalShellCall { .. }
        | ResponseItem::FunctionCall { .. }
        | ResponseItem::ToolSearchCall { .. }
        | ResponseItem::FunctionCallOutput { .. }
        | ResponseItem::CustomToolCall { .. }
        | ResponseItem::CustomToolCallOutput { .. }
        | ResponseItem::ToolSearchOutput { .. }
        | ResponseItem::WebSearchCall { .. }
        | ResponseItem::ImageGenerationCall { .. }
        | ResponseItem::Compaction { .. }
        | ResponseItem::ConfigurationUpdate { .. }
        | ResponseItem::ContextCompaction { .. } => Durability::Durable,
        ResponseItem::CompactionTrigger {} | ResponseItem::Other => Durability::Transient,
    }
}

/// One row of the event table: whether each history mode persists the event.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Persistence {
    /// In a legacy file.
    pub legacy: Durability,
    /// In a paginated file.
    pub paginated: Durability,
}

impl Persistence {
    const BOTH: Self = Self::new(true, true);
    const LEGACY: Self = Self::new(true, false);
    const PAGINATED: Self = Self::new(false, true);
    const NEITHER: Self = Self::new(false, false);

    const fn new(legacy: bool, paginated: bool) -> Self {
        Persistence {
            legacy: Durability::from_bool(legacy),
            paginated: Durability::from_bool(paginated),
        }
    }

    /// The column of `mode`.
    pub(crate) fn in_mode(self, mode: &HistoryMode) -> Durability {
        if mode.is_paginated() {
            self.paginated
        } else {
            self.legacy
        }
    }
}

/// The decision for one event in a file of history mode `mode`.
pub(crate) fn event_durability(event: &EventMsg, mode: &HistoryMode) -> Durability {
    event_persistence(event).in_mode(mode)
}

/// The table: which modes persist `event` (see the module docs).
pub(crate) fn event_persistence(event: &EventMsg) -> Persistence {
    match event {
        // Turn lifecycle, rollbacks, usage and thread-level changes: every mode keeps them.
        EventMsg::TurnStarted(_)
        | EventMsg::TurnComplete(_)
        | EventMsg::TurnAborted(_)
        | EventMsg::ThreadRolledBack(_)
        | EventMsg::TokenCount(_)
        | EventMsg::ThreadGoalUpdated(_)
        | EventMsg::ThreadSettingsApplied(_) => Persistence::BOTH,
        // The events a legacy file rebuilds its thread from; a paginated file has the
        // matching `item_completed` instead.
        EventMsg::UserMessage(_)
        | EventMsg::AgentMessage(_)
        | EventMsg::AgentReasoning(_)
        | EventMsg::AgentReasoningRawContent(_)
        | EventMsg::EnteredReviewMode(_)
        | EventMsg::ExitedReviewMode(_)
        | EventMsg::PatchApplyEnd(_)
        | EventMsg::ContextCompacted(_)
        | EventMsg::McpToolCallEnd(_)
        | EventMsg::WebSearchEnd(_)
        | EventMsg::ImageGenerationEnd(_)
        | EventMsg::SubAgentActivity(_) => Persistence::LEGACY,
        EventMsg::ItemCompleted(done) => item_completed_persistence(done),
        // Streaming deltas: folded into the durable whole they belong to.
        EventMsg::ExecCommandOutputDelta(_)
        | EventMsg::AgentMessageContentDelta(_)
        | EventMsg::PlanDelta(_)
        | EventMsg::ReasoningContentDelta(_)
        | EventMsg::ReasoningRawContentDelta(_)
        | EventMsg::AgentReasoningSectionBreak(_)
        // Begins: the matching end (or completed item) carries the durable fact.
        | EventMsg::McpToolCallBegin(_)
        | EventMsg::WebSearchBegin(_)
        | EventMsg::ImageGenerationBegin(_)
        | EventMsg::ExecCommandBegin(_)
        | EventMsg::PatchApplyBegin(_)
        | EventMsg::CollabAgentSpawnBegin(_)
        | EventMsg::CollabAgentInteractionBegin(_)
        | EventMsg::CollabWaitingBegin(_)
        | EventMsg::CollabCloseBegin(_)
        | EventMsg::CollabResumeBegin(_)
        | EventMsg::ItemStarted(_)
        // Command results are in the tool output item (and, paginated, the completed
        // CommandExecution item) already.
        | EventMsg::ExecCommandEnd(_)
        | EventMsg::ViewImageToolCall(_)
        // Ends of multi-agent tools: the tool output item carries the result.
        | EventMsg::CollabAgentSpawnEnd(_)
        | EventMsg::CollabAgentInteractionEnd(_)
        | EventMsg::CollabWaitingEnd(_)
        | EventMsg::CollabCloseEnd(_)
        | EventMsg::CollabResumeEnd(_)
        // Requests and reviews that need a live answer.
        | EventMsg::ExecApprovalRequest(_)
        | EventMsg::ApplyPatchApprovalRequest(_)
        | EventMsg::GuardianAssessment(_)
        | EventMsg::ElicitationAbandoned(_)
        // A second copy of history.
        | EventMsg::RawResponseItem(_)
        // Live-only status.
        | EventMsg::SessionConfigured(_)
        | EventMsg::ThreadNameUpdated(_)
        | EventMsg::AuthRecoveryStarted(_)
        | EventMsg::AuthRecoveryCompleted(_)
        | EventMsg::Error(_)
        | EventMsg::Warning(_)
        | EventMsg::StreamError(_)
        | EventMsg::TurnDiff(_)
        | EventMsg::PlanUpdate(_)
        | EventMsg::ShutdownComplete
        // An event we do not model has lost its payload; writing it would record nothing.
        | EventMsg::Other => Persistence::NEITHER,
    }
}

/// `item_completed`: a paginated file keeps every one; a legacy file only those whose item no
/// durable event carries.
fn item_completed_persistence(done: &ItemCompletedEvent) -> Persistence {
    match &done.item {
        TurnItem::Plan(_) | TurnItem::FunctionCallOutput(_) => Persistence::BOTH,
        TurnItem::SubAgentActivity(activity)
            if activity.kind == SubAgentActivityKind::Completed =>
        {
            Persistence::BOTH
        }
        TurnItem::UserMessage(_)
        | TurnItem::HookPrompt(_)
        | TurnItem::AgentMessage(_)
        | TurnItem::Reasoning(_)
        | TurnItem::CommandExecution(_)
        | TurnItem::DynamicToolCall(_)
        | TurnItem::CollabAgentToolCall(_)
        | TurnItem::SubAgentActivity(_)
        | TurnItem::WebSearch(_)
        | TurnItem::ImageView(_)
        | TurnItem::Extension(_)
        | TurnItem::ImageGeneration(_)
        | TurnItem::EnteredReviewMode(_)
        | TurnItem::ExitedReviewMode(_)
        | TurnItem::FileChange(_)
        | TurnItem::McpToolCall(_)
        | TurnItem::ContextCompaction(_) => Persistence::PAGINATED,
    }
}

/// The form of a durable item that is written: in a paginated file, the output of a completed
/// `CommandExecution` and the result of a completed `McpToolCall` are capped at
/// [`PERSISTED_OUTPUT_LIMIT`](cap::PERSISTED_OUTPUT_LIMIT) bytes by cutting their middle (the
/// live item and the tool output response item stay whole). Everything else is written as
/// recorded.
pub(crate) fn prepare_for_persistence<'a>(
    item: &'a RolloutItem,
    mode: &HistoryMode,
) -> Cow<'a, RolloutItem> {
    if !mode.is_paginated() {
        return Cow::Borrowed(item);
    }
    let RolloutItem::EventMsg(EventMsg::ItemCompleted(done)) = item else {
        return Cow::Borrowed(item);
    };
    match cap::cap_turn_item(&done.item) {
        Some(capped) => Cow::Owned(RolloutItem::EventMsg(EventMsg::ItemCompleted(
            ItemCompletedEvent {
                item: capped,
                ..done.clone()
            },
        ))),
        None => Cow::Borrowed(item),
    }
}

/// Whether `item` is written to a session file of history mode `mode`.
pub(crate) fn is_persisted_rollout_item(item: &RolloutItem, mode: &HistoryMode) -> bool {
    rollout_item_durability(item, mode).is_durable()
}

/// What a session file of history mode `mode` holds of `items`: the durable ones, in order,
/// each in its written form (a paginated file caps the output of a completed command or MCP
/// call by cutting its middle).
pub fn persisted_rollout_items(items: &[RolloutItem], mode: &HistoryMode) -> Vec<RolloutItem> {
    items
        .iter()
        .filter(|item| is_persisted_rollout_item(item, mode))
        .map(|item| prepare_for_persistence(item, mode).into_owned())
        .collect()
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
