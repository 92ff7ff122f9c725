//! The message events that summarise a turn for simple clients and for session files:
//! `user_message`, `agent_message`, `agent_reasoning` and friends.

use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use super::serde_helpers::null_as_default;
use crate::items::AgentMessageDelivery;
use crate::items::AsyncUserInputQuestion;
use crate::items::MemoryCitation;
use crate::models::ImageDetail;
use crate::models::MessagePhase;
use crate::user_input::TextElement;

/// What the person submitted, flattened to one text plus media lists.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct UserMessageEvent {
    /// The id the client gave the message, when it gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub client_id: Option<String>,
    /// The message's text parts, concatenated.
    pub message: String,
    /// Remote image URLs. Omitted when `None`; older writers always wrote a list.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub images: Option<Vec<String>>,
    /// The detail level of each of `images`, in order (`null` for unset); omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<_>", optional)]
    pub image_details: Vec<Option<ImageDetail>>,
    /// Ids of uploaded image files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub file_ids: Option<Vec<String>>,
    /// The detail level of each of `file_ids`, in order (`null` for unset); omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<_>", optional)]
    pub file_id_details: Vec<Option<ImageDetail>>,
    /// The order in which inline images and file images were attached.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<_>", optional)]
    pub image_order: Vec<ImageOrderKind>,
    /// Paths of attached local images; always written, `null` reads as empty.
    #[serde(default, deserialize_with = "null_as_default")]
    #[ts(type = "Array<string>")]
    pub local_images: Vec<PathBuf>,
    /// The detail level of each of `local_images`, in order (`null` for unset); omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[ts(as = "Option<_>", optional)]
    pub local_image_details: Vec<Option<ImageDetail>>,
    /// Attached audio, as written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub audio: Option<Vec<String>>,
    /// Paths of attached local audio files; always written, `null` reads as empty.
    #[serde(default, deserialize_with = "null_as_default")]
    #[ts(type = "Array<string>")]
    pub local_audio: Vec<PathBuf>,
    /// Spans of `message` the UI rendered as elements; always written, `null` reads as empty.
    #[serde(default, deserialize_with = "null_as_default")]
    pub text_elements: Vec<TextElement>,
    /// Older writers classified the message (`plain`, ...); kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub kind: Option<String>,
}

/// Whether an attached image was inline (URL) or an uploaded file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum ImageOrderKind {
    /// `inline`: the next image of `images`.
    Inline,
    /// `file`: the next image of `file_ids`.
    File,
}

/// What the agent said, as one text.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct AgentMessageEvent {
    /// The agent's text.
    pub message: String,
    /// Written as `null` when unknown, never guessed.
    #[serde(default)]
    pub phase: Option<MessagePhase>,
    /// The memories the message cites; written as `null` when none.
    #[serde(default)]
    pub memory_citation: Option<MemoryCitation>,
    /// How the message was delivered (`async`); omitted when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub delivery: Option<AgentMessageDelivery>,
    /// Questions the agent asks the person, when it asks any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub questions: Option<Vec<AsyncUserInputQuestion>>,
}

/// One reasoning summary's text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct AgentReasoningEvent {
    /// The summary text.
    pub text: String,
}

/// Raw reasoning text (shown only when configured).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct AgentReasoningRawContentEvent {
    /// The raw reasoning text.
    pub text: String,
}

/// A new reasoning summary section starts.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema, TS)]
pub struct AgentReasoningSectionBreakEvent {
    /// The reasoning item the section belongs to; empty when absent.
    #[serde(default)]
    pub item_id: String,
    /// Which summary starts (0-based; 0 when absent).
    #[serde(default)]
    #[ts(type = "number")]
    pub summary_index: i64,
}
