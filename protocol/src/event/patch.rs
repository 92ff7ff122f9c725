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
    /// The tool call that carries the patch.
    pub call_id: String,
    /// The turn of the call; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// True when policy applied the patch without asking.
    #[serde(default)]
    pub auto_approved: bool,
    /// The change to each file, keyed by path.
    pub changes: BTreeMap<String, FileChange>,
}

/// A patch finished applying (or failed, or was declined).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct PatchApplyEndEvent {
    /// The tool call that carried the patch.
    pub call_id: String,
    /// The turn of the call; empty when the writer left it out.
    #[serde(default)]
    pub turn_id: String,
    /// What applying the patch printed on stdout.
    pub stdout: String,
    /// What applying the patch printed on stderr.
    pub stderr: String,
    /// Whether the patch applied.
    pub success: bool,
    /// The change to each file, keyed by path; empty when absent.
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
    /// The diff text.
    pub unified_diff: String,
}
