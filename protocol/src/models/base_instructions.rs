//! The base instructions of a session (the "system prompt" the harness sends first).

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// The base instructions a session was started with, as recorded in its session metadata so a
/// resumed session uses the same text. Legacy files carry only `text`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct BaseInstructions {
    /// The instructions' text.
    pub text: String,
    /// Where the text came from; absent in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub provenance: Option<BaseInstructionsProvenance>,
}

impl BaseInstructions {
    /// Instructions with unknown provenance.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            provenance: None,
        }
    }
}

/// Origin of base instructions, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum BaseInstructionsProvenance {
    /// Supplied by the user or the client (an override).
    Custom,
    /// The default of the named model.
    Model {
        /// The model's slug.
        model: String,
    },
}
