//! What the agent wrote: messages, plans and reasoning.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::models::MessagePhase;

/// A message from the agent to the person.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct AgentMessageItem {
    /// The item id.
    pub id: String,
    /// The message's parts, in order.
    pub content: Vec<AgentMessageContent>,
    /// Commentary or final answer. Absent means unknown (older models), kept as absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub phase: Option<MessagePhase>,
    /// Memory entries the message relied on.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub memory_citation: Option<MemoryCitation>,
    /// Set when the message was delivered outside the turn (asynchronously).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delivery: Option<AgentMessageDelivery>,
    /// Questions the agent asks the person to answer asynchronously.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub questions: Option<Vec<AsyncUserInputQuestion>>,
}

impl AgentMessageItem {
    /// An agent message of text parts, with no phase or citations.
    pub fn new(id: impl Into<String>, content: Vec<AgentMessageContent>) -> Self {
        Self {
            id: id.into(),
            content,
            phase: None,
            memory_citation: None,
            delivery: None,
            questions: None,
        }
    }

    /// All text parts concatenated.
    pub fn text(&self) -> String {
        self.content
            .iter()
            .map(|part| match part {
                AgentMessageContent::Text { text } => text.as_str(),
            })
            .collect()
    }
}

/// One part of an agent message. Tagged by `type` with the variant name (`"Text"`), as
/// upstream writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type")]
#[ts(tag = "type")]
pub enum AgentMessageContent {
    /// A text part (`{"type":"Text","text":…}`).
    Text {
        /// The text.
        text: String,
    },
}

/// How an agent message reached the person when not inline in the turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub enum AgentMessageDelivery {
    /// `async`: delivered outside the turn.
    Async,
}

/// A question the agent asks, optionally with fixed answer options.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
#[ts(rename_all = "camelCase")]
pub struct AsyncUserInputQuestion {
    /// The question.
    pub title: String,
    /// The answers to choose from; `null` for a free-form answer.
    pub options: Option<Vec<String>>,
}

/// The memory the agent cited for a message (camelCase on the wire).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub struct MemoryCitation {
    /// The cited memories; empty when absent.
    #[serde(default)]
    pub entries: Vec<MemoryCitationEntry>,
    /// Sessions the cited memories came from.
    #[serde(default)]
    pub rollout_ids: Vec<String>,
}

/// One cited memory: a span of a memory file and why it matters.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub struct MemoryCitationEntry {
    /// The memory file.
    pub path: String,
    /// First line of the cited span.
    pub line_start: u32,
    /// Last line of the cited span.
    pub line_end: u32,
    /// Why the memory matters here.
    pub note: String,
}

/// A plan the agent wrote in plan mode, as one text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PlanItem {
    /// The item id.
    pub id: String,
    /// The plan's text.
    pub text: String,
}

/// The agent's reasoning: summaries (always shown) and raw reasoning text (only when the
/// configuration shows it). The id may be empty: providers do not always give one.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ReasoningItem {
    /// The item id; may be empty.
    pub id: String,
    /// The summary texts, one per summary part.
    pub summary_text: Vec<String>,
    /// The raw reasoning texts, one per part; empty when absent.
    #[serde(default)]
    pub raw_content: Vec<String>,
}
