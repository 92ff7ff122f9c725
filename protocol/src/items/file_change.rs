//! File changes (patches): the item and the per-file change type its events share.

use std::collections::BTreeMap;
use std::path::PathBuf;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::Serialize;
use ts_rs::TS;

/// A set of file changes the agent applied (or tried to), keyed by path.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
pub struct FileChangeItem {
    /// The item id (the patch tool call's id, in practice).
    pub id: String,
    /// The change to each file, keyed by path.
    pub changes: BTreeMap<String, FileChange>,
    /// How applying the patch ended; omitted when not recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub status: Option<PatchApplyStatus>,
    /// True when policy applied the patch without asking.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub auto_approved: Option<bool>,
    /// What applying the patch printed on stdout, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stdout: Option<String>,
    /// What applying the patch printed on stderr, when recorded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub stderr: Option<String>,
}

/// How one file changes, tagged by `type`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(tag = "type", rename_all = "snake_case")]
#[ts(tag = "type", rename_all = "snake_case")]
pub enum FileChange {
    /// `add`: the file is created.
    Add {
        /// The new file's whole content.
        content: String,
    },
    /// `delete`: the file is removed.
    Delete {
        /// The removed file's content.
        content: String,
    },
    /// `update`: the file is edited (and maybe renamed).
    Update {
        /// The edit, as a unified diff.
        unified_diff: String,
        /// The new path when the file is also renamed; `null` otherwise.
        #[ts(type = "string | null")]
        move_path: Option<PathBuf>,
    },
}

/// The outcome of applying a patch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename_all = "snake_case")]
pub enum PatchApplyStatus {
    /// `completed`: the patch applied.
    Completed,
    /// `failed`: the patch did not apply.
    Failed,
    /// `declined`: the person (or policy) refused it.
    Declined,
}
