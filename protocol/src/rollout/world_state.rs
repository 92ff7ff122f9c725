//! The `world_state` line (newer Codex): the environment the model is told about.
//!
//! A `full: true` line states the whole world (instructions, environments, permissions,
//! skills, ...); a `full: false` line is a delta against the previous state. Core diffs the
//! next turn's context against the last known state, so resume needs these lines; their
//! contents change with every Codex release and are kept as JSON.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// The payload of a `world_state` line.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct WorldStateItem {
    /// True when `state` is the whole world; false when it is a delta.
    pub full: bool,
    /// The state or delta, as written.
    #[ts(type = "unknown")]
    pub state: Value,
}
