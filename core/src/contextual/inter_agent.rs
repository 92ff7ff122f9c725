//! Inter-agent instructions carried by an `assistant` message.
//!
//! When one agent hands work to another, Codex records the hand-off as an assistant message
//! whose only part is the JSON of the communication (`author`, `recipient`, `content`,
//! `trigger_turn`, ...). For the receiving thread that message starts a new turn, so turn
//! counting and rollback must recognise it; a person still sees it as an agent message.

use codex_protocol::models::ContentItem;
use serde::Deserialize;

/// The fields that make a JSON text an inter-agent communication. Only used to recognise the
/// shape; unknown fields (ids, metadata a newer writer adds) are ignored.
#[derive(Debug, Deserialize)]
struct InterAgentCommunicationShape {
    #[serde(rename = "author")]
    _author: String,
    #[serde(rename = "recipient")]
    _recipient: String,
    #[serde(rename = "other_recipients", default)]
    _other_recipients: Vec<String>,
    #[serde(rename = "content")]
    _content: String,
    #[serde(rename = "encrypted_content", default)]
    _encrypted_content: Option<String>,
    #[serde(rename = "trigger_turn")]
    _trigger_turn: bool,
}

/// True when `content` is exactly one text part (`input_text` or `output_text`) holding the
/// JSON of an inter-agent communication.
///
/// The older plain-text form (`author: /root\nrecipient: ...`) is deliberately not
/// recognised: Codex never counted it as a turn boundary.
pub fn is_inter_agent_instruction_content(content: &[ContentItem]) -> bool {
    let [part] = content else {
        return false;
    };
    let Some(text) = part.text() else {
        return false;
    };
    serde_json::from_str::<InterAgentCommunicationShape>(text).is_ok()
}
