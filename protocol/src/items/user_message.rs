//! What the person (or a hook speaking for them) put into the turn.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use super::new_item_id;
use crate::user_input::UserInput;

/// A user message as the person wrote it: the submitted parts, with injected context removed
/// and image label texts dropped (the images themselves stay).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct UserMessageItem {
    /// The item id.
    pub id: String,
    /// The id the submitting client gave the message, echoed so it can match its optimistic
    /// copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub client_id: Option<String>,
    /// The submitted parts, in order.
    pub content: Vec<UserInput>,
}

impl UserMessageItem {
    /// A user message with a fresh id and no client id.
    pub fn new(content: &[UserInput]) -> Self {
        Self {
            id: new_item_id(),
            client_id: None,
            content: content.to_vec(),
        }
    }

    /// The text parts joined without separator, as the legacy `user_message` event carries
    /// them.
    pub fn message(&self) -> String {
        self.content
            .iter()
            .filter_map(|input| match input {
                UserInput::Text { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect()
    }
}

/// A prompt injected by one or more hooks, shown as such rather than as the person's words.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct HookPromptItem {
    /// The item id.
    pub id: String,
    /// The text of each hook run, in order.
    pub fragments: Vec<HookPromptFragment>,
}

impl HookPromptItem {
    /// A hook prompt with a fresh id.
    pub fn new(fragments: Vec<HookPromptFragment>) -> Self {
        Self {
            id: new_item_id(),
            fragments,
        }
    }
}

/// The text one hook run contributed. camelCase on the wire (`hookRunId`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename_all = "camelCase")]
pub struct HookPromptFragment {
    /// The text the hook run contributed.
    pub text: String,
    /// Which hook run produced the text, so a client can link it to the hook's status.
    pub hook_run_id: String,
}

impl HookPromptFragment {
    /// The fragment a single hook run produced.
    pub fn from_single_hook(text: impl Into<String>, hook_run_id: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            hook_run_id: hook_run_id.into(),
        }
    }
}
