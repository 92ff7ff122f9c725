//! What moderation decided about an agent message (Codex 0.171's `AgentMessageModeration`):
//! whether it held the message back, and how a client shows it then, a union tagged by
//! `mode` (show it, hide it behind a replacement, or block it for a reason). Session files
//! record none: a message read from one has `moderation: null`.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Moderation's decision about one agent message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub struct AgentMessageModeration {
    /// Whether moderation acted on the message.
    pub moderated: bool,
    /// How to present the message; null when it is shown as it is.
    #[serde(default)]
    #[ts(optional = nullable)]
    pub display: Option<AgentMessageDisplay>,
}

/// How a client presents a message moderation acted on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "mode", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum AgentMessageDisplay {
    /// Show the message, perhaps with an annotation.
    #[serde(rename_all = "camelCase")]
    Show {
        /// The display format's version (1).
        version: u8,
        /// Whether to check the person's trusted contacts first.
        trusted_contacts: TrustedContacts,
        /// A note shown with the message.
        #[serde(default)]
        #[ts(optional = nullable)]
        annotation: Option<AnswerAnnotation>,
    },
    /// Hide the message behind a replacement.
    #[serde(rename_all = "camelCase")]
    Hide {
        /// The display format's version (1).
        version: u8,
        /// What to show instead.
        replacement: AnswerReplacement,
    },
    /// Block the message.
    #[serde(rename_all = "camelCase")]
    Block {
        /// The display format's version (1).
        version: u8,
        /// Why.
        reason: BlockReason,
    },
}

/// Whether a shown message first checks the person's trusted contacts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum TrustedContacts {
    /// Check them.
    Check,
    /// Skip the check.
    Skip,
}

/// A note shown with a message.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum AnswerAnnotation {
    /// A wellbeing helpline, about the answer or the prompt.
    WellbeingHelpline {
        /// What the helpline is offered about.
        subject: HelplineSubject,
    },
}

/// What a helpline annotation is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum HelplineSubject {
    /// The agent's answer.
    Answer,
    /// The person's prompt.
    Prompt,
}

/// What a hidden message is replaced by.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum AnswerReplacement {
    /// A prompt pointing to a wellbeing helpline.
    WellbeingPromptHelpline,
}

/// Why a message is blocked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "v2/")]
pub enum BlockReason {
    /// A protection policy.
    #[serde(rename_all = "camelCase")]
    Protection {
        /// Which protection (the moderation row the live path writes).
        protection_type: String,
    },
    /// A cybersecurity policy.
    #[serde(rename_all = "camelCase")]
    Cyber {
        /// Whether the person has trusted access; null when unknown.
        #[serde(default)]
        #[ts(optional = nullable)]
        trusted_access: Option<bool>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each mode as Codex 0.171's schema spells it reads and writes back the same.
    #[test]
    fn every_display_mode_round_trips_in_codex_s_spelling() -> Result<(), serde_json::Error> {
        let cases = [
            serde_json::json!({"moderated": false, "display": null}),
            serde_json::json!({"moderated": true, "display": {"mode": "show", "version": 1,
                "trustedContacts": "check",
                "annotation": {"kind": "wellbeingHelpline", "subject": "answer"}}}),
            serde_json::json!({"moderated": true, "display": {"mode": "hide", "version": 1,
                "replacement": {"kind": "wellbeingPromptHelpline"}}}),
            serde_json::json!({"moderated": true, "display": {"mode": "block", "version": 1,
                "reason": {"kind": "protection", "protectionType": "x"}}}),
            serde_json::json!({"moderated": true, "display": {"mode": "block", "version": 1,
                "reason": {"kind": "cyber", "trustedAccess": true}}}),
        ];
        for case in cases {
            let typed: AgentMessageModeration = serde_json::from_value(case.clone())?;
            assert_eq!(serde_json::to_value(&typed)?, case);
        }
        Ok(())
    }
}
