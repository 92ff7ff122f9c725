//! The `configuration_update` item: a setting change the backend applies at its position in
//! history (today only the reasoning effort).

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// How hard the model should think. Lowercase on the wire; `medium` when unspecified.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(rename_all = "lowercase")]
pub enum ReasoningEffort {
    /// `none`.
    None,
    /// `minimal`.
    Minimal,
    /// `low`.
    Low,
    /// `medium` (the default).
    #[default]
    Medium,
    /// `high`.
    High,
    /// `xhigh`.
    Xhigh,
}

/// The reasoning part of a configuration update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ConfigurationReasoning {
    /// The effort to use from this point of history on.
    pub effort: ReasoningEffort,
}
