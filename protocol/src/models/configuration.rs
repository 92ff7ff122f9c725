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
    None,
    Minimal,
    Low,
    #[default]
    Medium,
    High,
    Xhigh,
}

/// The reasoning part of a configuration update.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ConfigurationReasoning {
    pub effort: ReasoningEffort,
}
