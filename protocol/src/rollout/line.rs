//! [`RolloutLine`]: the envelope of one line of a session file.
//!
//! `{"timestamp": "...", ["ordinal": n,] "type": "<tag>", "payload": {...}, [siblings]}`.
//! The envelope is read and written by hand, never through `#[serde(flatten)]`: flatten
//! buffers values and loses number spellings, and it would drop sibling keys such as the
//! `metadata` newer versions write next to a `response_item` payload. Siblings are kept as
//! verbatim JSON in [`RolloutLine::extra`] and written back after the payload.

use schemars::JsonSchema;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};
use ts_rs::TS;

use super::item::RolloutItem;
use super::raw_json::RawJson;

/// One line of a rollout file: when it was written, its position, and what it records.
///
/// The schema and TypeScript derives describe the wire shape of the modelled kinds
/// (`timestamp`, optional `ordinal`, and the item's `type`/`payload` flattened next to them).
#[derive(Debug, Clone, PartialEq, JsonSchema, TS)]
pub struct RolloutLine {
    /// When the line was written. Codex writes UTC with millisecond precision
    /// (`2025-09-25T01:22:20.083Z`); the string is carried as written.
    pub timestamp: String,
    /// Position of the line in a paginated history (newer versions only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub ordinal: Option<u64>,
    /// What the line records.
    #[serde(flatten)]
    pub item: RolloutItem,
    /// Envelope keys beside `payload` that the model does not interpret (e.g. `metadata`),
    /// kept verbatim and in their original order.
    #[serde(skip)]
    #[ts(skip)]
    pub extra: Vec<(String, RawJson)>,
}

impl RolloutLine {
    /// A line with no ordinal and no sibling keys.
    pub fn new(timestamp: impl Into<String>, item: RolloutItem) -> Self {
        RolloutLine {
            timestamp: timestamp.into(),
            ordinal: None,
            item,
            extra: Vec::new(),
        }
    }

    /// The verbatim value of a sibling key (e.g. `"metadata"`), if present.
    pub fn extra_field(&self, key: &str) -> Option<&RawJson> {
        self.extra
            .iter()
            .find_map(|(name, value)| (name == key).then_some(value))
    }

    /// The line as compact JSON text, without a trailing newline.
    pub fn to_json_line(&self) -> Result<String, serde_json::Error> {
        serde_json::to_string(self)
    }
}

impl Serialize for RolloutLine {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        serialize_head(&mut map, &self.timestamp, self.ordinal, &self.item)?;
        for (key, value) in &self.extra {
            map.serialize_entry(key, value)?;
        }
        map.end()
    }
}

/// A line to write, borrowing its item: what a recorder serializes so that recording never
/// clones items. It writes exactly the bytes [`RolloutLine`] writes for the same timestamp,
/// ordinal and item (no sibling keys).
#[derive(Debug, Clone, Copy)]
pub struct RolloutLineRef<'a> {
    /// When the line is written (see [`RolloutLine::timestamp`]).
    pub timestamp: &'a str,
    /// The line's position in a paginated history.
    pub ordinal: Option<u64>,
    /// What the line records.
    pub item: &'a RolloutItem,
}

impl Serialize for RolloutLineRef<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        serialize_head(&mut map, self.timestamp, self.ordinal, self.item)?;
        map.end()
    }
}

/// The keys every line starts with, in the order Codex writes them: `timestamp`, `ordinal`
/// (paginated files), then the item's `type` and `payload`.
fn serialize_head<M: SerializeMap>(
    map: &mut M,
    timestamp: &str,
    ordinal: Option<u64>,
    item: &RolloutItem,
) -> Result<(), M::Error> {
    map.serialize_entry("timestamp", timestamp)?;
    if let Some(ordinal) = ordinal {
        map.serialize_entry("ordinal", &ordinal)?;
    }
    item.serialize_entries(map)
}

#[cfg(test)]
#[path = "line_tests.rs"]
mod tests;
