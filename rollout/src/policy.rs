//! The persistence policy: which recorded items are durable, i.e. written to the session file.
//!
//! A session hands its recorder everything it records; this table decides what of it a
//! session file keeps. The rule is "keep what resume needs, nothing that only animates a live
//! screen":
//! - model history (response items), compactions, turn settings and the session meta rebuild
//!   the model's memory;
//! - the turn lifecycle, messages, reasoning, token counts, rollbacks, compaction markers and
//!   the *end* of tool-like activities rebuild the client's thread;
//! - deltas, begins, approval requests, raw response items (a second copy of history), session
//!   configuration and warnings are transient: they either repeat a durable fact or only make
//!   sense while the turn is live.
//!
//! The table is the exhaustive `match`es below (no wildcard arm over known variants), so adding
//! an event or item variant does not compile until someone decides whether it is durable.
//! It follows the single-mode policy of upstream Codex (no "extended" event mode).

use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

/// Whether something recorded is written to the session file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Durability {
    /// Written: resume needs it.
    Durable,
    /// Not written: it repeats a durable fact or only matters while the turn is live.
    Transient,
}

impl Durability {
    /// True for [`Durability::Durable`].
    pub fn is_durable(self) -> bool {
        self == Durability::Durable
    }

    fn from_bool(durable: bool) -> Self {
        if durable {
            Durability::Durable
        } else {
            Durability::Transient
        }
    }
}

/// The decision for one rollout item.
pub fn rollout_item_durability(item: &RolloutItem) -> Durability {
    match item {
        RolloutItem::SessionMeta(_) | RolloutItem::Compacted(_) | RolloutItem::TurnContext(_) => {
            Durability::Durable
        }
        RolloutItem::ResponseItem(item) => response_item_durability(item),
        RolloutItem::EventMsg(event) => event_durability(event),
        // A line kind we do not model came from a file whose writer found it durable; we keep
        // what we cannot judge rather than silently dropping someone else's data.
        RolloutItem::Unknown(_) => Durability::Durable,
    }
}

/// The decision for one item of model history: everything the model saw is durable, except
/// the request-only compaction trigger and items of a kind we do not model (which would be
/// written back as a bare `{"type":"other"}`, losing their content).
pub fn response_item_durability(item: &ResponseItem) -> Durability {
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

/// The decision for one event.
pub fn event_durability(event: &EventMsg) -> Durability {
    match event {
        // Turn lifecycle: resume and the client thread need turn boundaries and outcomes.
        EventMsg::TurnStarted(_)
        | EventMsg::TurnComplete(_)
        | EventMsg::TurnAborted(_)
        // History-changing markers: rollback replay and compaction boundaries.
        | EventMsg::ThreadRolledBack(_)
        | EventMsg::ContextCompacted(_)
        // What the person and the agent said, and what it reasoned, as whole texts.
        | EventMsg::UserMessage(_)
        | EventMsg::AgentMessage(_)
        | EventMsg::AgentReasoning(_)
        | EventMsg::AgentReasoningRawContent(_)
        // Usage after each response (the thread's token totals on resume).
        | EventMsg::TokenCount(_)
        // The end of tool-like activities whose result is not fully in a response item.
        | EventMsg::WebSearchEnd(_)
        | EventMsg::ImageGenerationEnd(_)
        | EventMsg::PatchApplyEnd(_)
        | EventMsg::McpToolCallEnd(_)
        | EventMsg::EnteredReviewMode(_)
        | EventMsg::ExitedReviewMode(_) => Durability::Durable,
        // A completed plan has no response-item counterpart; other completed items do.
        EventMsg::ItemCompleted(done) => Durability::from_bool(matches!(done.item, TurnItem::Plan(_))),
        // Streaming deltas: folded into the durable whole they belong to.
        EventMsg::ExecCommandOutputDelta(_)
        | EventMsg::AgentMessageContentDelta(_)
        | EventMsg::PlanDelta(_)
        | EventMsg::ReasoningContentDelta(_)
        | EventMsg::ReasoningRawContentDelta(_)
        | EventMsg::AgentReasoningSectionBreak(_)
        // Begins: the matching end (or response item) carries the durable fact.
        | EventMsg::McpToolCallBegin(_)
        | EventMsg::WebSearchBegin(_)
        | EventMsg::ImageGenerationBegin(_)
        | EventMsg::ExecCommandBegin(_)
        | EventMsg::PatchApplyBegin(_)
        | EventMsg::ItemStarted(_)
        // Command results are in the function-call output item already.
        | EventMsg::ExecCommandEnd(_)
        | EventMsg::ViewImageToolCall(_)
        // Requests that need a live answer.
        | EventMsg::ExecApprovalRequest(_)
        | EventMsg::ApplyPatchApprovalRequest(_)
        // A second copy of history.
        | EventMsg::RawResponseItem(_)
        // Live-only status.
        | EventMsg::SessionConfigured(_)
        | EventMsg::Error(_)
        | EventMsg::Warning(_)
        | EventMsg::StreamError(_)
        | EventMsg::TurnDiff(_)
        | EventMsg::PlanUpdate(_)
        | EventMsg::ShutdownComplete
        // An event we do not model has lost its payload; writing it would record nothing.
        | EventMsg::Other => Durability::Transient,
    }
}

/// Whether `item` is written to the session file.
pub fn is_persisted_rollout_item(item: &RolloutItem) -> bool {
    rollout_item_durability(item).is_durable()
}

/// The durable subset of `items`, in order.
pub fn persisted_rollout_items(items: &[RolloutItem]) -> Vec<RolloutItem> {
    items
        .iter()
        .filter(|item| is_persisted_rollout_item(item))
        .cloned()
        .collect()
}

#[cfg(test)]
#[path = "policy_tests.rs"]
mod tests;
