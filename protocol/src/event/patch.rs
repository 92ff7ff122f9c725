//! Patch events: a patch starts applying, ends, and the turn's accumulated diff.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

use crate::items::FileChange;
use crate::items::PatchApplyStatus;

/// A patch started applying.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PatchApplyBeginEvent {
    pub call_id: String,
    #[serde(default)]
    pub turn_id: String,
    /// True when policy applied the patch without asking.
    #[serde(default)]
    pub auto_approved: bool,
    pub changes: BTreeMap<String, FileChange>,
}

/// A patch finished applying (or failed, or was declined).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PatchApplyEndEvent {
    pub call_id: String,
    #[serde(default)]
    pub turn_id: String,
    pub stdout: String,
    pub stderr: String,
    pub success: bool,
    #[serde(default)]
    pub changes: BTreeMap<String, FileChange>,
    /// Absent in files written before the status existed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<PatchApplyStatus>,
}

/// The turn's changes so far, as one unified diff.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct TurnDiffEvent {
    pub unified_diff: String,
}
