//! The world-state baseline: what the model was last told about the environment.
//!
//! Each turn the harness describes the world (working directory, shell, date, ...) to the
//! model only as a difference from what history already says. That needs a baseline, and the
//! baseline is only valid while history still contains what was said: any rewrite of history
//! (replacement, trimming) clears it, so the next turn describes the world in full again.

use serde::Deserialize;
use serde::Serialize;
use serde_json::Value;

/// A snapshot of the world state as last made visible to the model. Opaque JSON here: the
/// layer that renders world state owns its shape; history only keeps and forgets it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(transparent)]
pub struct WorldStateSnapshot(pub Value);

impl WorldStateSnapshot {
    /// Wraps a rendered world state.
    pub fn new(value: Value) -> Self {
        Self(value)
    }

    /// The JSON of the snapshot.
    pub fn as_json(&self) -> &Value {
        &self.0
    }
}
