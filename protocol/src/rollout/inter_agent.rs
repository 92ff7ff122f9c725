//! Lines between agents of a multi-agent thread (`inter_agent_communication` and
//! `inter_agent_communication_metadata`).
//!
//! A parent agent and its sub-agents talk through messages with an author and recipients
//! (agent paths such as `/root/worker`). The metadata line, written just before the
//! `response_item` `agent_message` that carries a message, says whether that message starts a
//! turn of the recipient.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

use crate::models::{AgentMessageInputContent, ResponseItem};
use crate::response_item_id::ResponseItemId;

/// The payload of an `inter_agent_communication` line: one message between agents.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct InterAgentCommunication {
    /// The item id, when the message was recorded as a history item.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<String>,
    /// The sending agent's path.
    pub author: String,
    /// The receiving agent's path.
    pub recipient: String,
    /// Further recipients.
    #[serde(default)]
    pub other_recipients: Vec<String>,
    /// The message text.
    #[serde(default)]
    pub content: String,
    /// The message, encrypted for the model (kept as written).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub encrypted_content: Option<String>,
    /// Harness metadata (turn id, create time), kept as JSON.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "unknown")]
    pub internal_chat_message_metadata_passthrough: Option<Value>,
    /// Whether the message starts a turn of the recipient.
    #[serde(default)]
    pub trigger_turn: bool,
}

/// The payload of an `inter_agent_communication_metadata` line.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct InterAgentCommunicationMetadata {
    /// Whether the agent message that follows starts a turn of its recipient.
    pub trigger_turn: bool,
}

impl InterAgentCommunication {
    /// The history item the recipient's model sees for this message: an `agent_message` with
    /// the text as one `input_text`, or, when the message is encrypted, a readable header
    /// (`Message Type: NEW_TASK|MESSAGE`, task name, sender) followed by the encrypted part.
    pub fn to_model_input_item(&self) -> ResponseItem {
        let content = match &self.encrypted_content {
            None => vec![AgentMessageInputContent::InputText {
                text: self.content.clone(),
            }],
            Some(encrypted) => {
                let kind = if self.trigger_turn {
                    "NEW_TASK"
                } else {
                    "MESSAGE"
                };
                vec![
                    AgentMessageInputContent::InputText {
                        text: format!(
                            "Message Type: {kind}\nTask name: {}\nSender: {}\nPayload:\n",
                            self.recipient, self.author
                        ),
                    },
                    AgentMessageInputContent::EncryptedContent {
                        encrypted_content: encrypted.clone(),
                    },
                ]
            }
        };
        ResponseItem::AgentMessage {
            id: self.id.clone().map(ResponseItemId::from),
            author: self.author.clone(),
            recipient: self.recipient.clone(),
            content,
            internal_chat_message_metadata_passthrough: self
                .internal_chat_message_metadata_passthrough
                .clone()
                .and_then(|value| serde_json::from_value(value).ok()),
        }
    }
}
