//! Review-mode events.

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::items::ReviewOutputEvent;
use crate::items::ReviewTarget;

/// The thread entered review mode.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct EnteredReviewModeEvent {
    /// What is reviewed. Absent in the oldest files, which carried a `prompt` instead.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub target: Option<ReviewTarget>,
    /// The oldest files' free-form review request; kept when present.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub prompt: Option<String>,
    /// How the client should describe the review to the person; omitted when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub user_facing_hint: Option<String>,
    /// The turn that runs the review; omitted in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// The review's turn item; omitted in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub item_id: Option<String>,
}

/// The thread left review mode; `review_output` is `null` when the review did not finish.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct ExitedReviewModeEvent {
    /// The turn that ran the review; omitted in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub turn_id: Option<String>,
    /// The review's turn item; omitted in older files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub item_id: Option<String>,
    /// The review's findings; `null` when the review did not finish.
    #[serde(default)]
    pub review_output: Option<ReviewOutputEvent>,
}
