//! Verbatim JSON text kept for parts of a line the model does not know.
//!
//! Newer Codex versions add line types and envelope keys faster than any reader can follow.
//! Holding them as the exact text they were written with (not a re-encoded `Value`) means a
//! load-and-write reproduces them byte for byte, including key order and number spelling.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

/// One JSON value kept as its original text.
///
/// Equality compares the text, so two spellings of the same value (`1.0` and `1`) are
/// different: this type exists to preserve spelling.
#[derive(Clone)]
pub struct RawJson(Box<RawValue>);

impl RawJson {
    /// Copies a borrowed raw value (from a line being parsed) into an owned one.
    pub fn from_raw(raw: &RawValue) -> Self {
        RawJson(raw.to_owned())
    }

    /// Encodes a JSON value. Use when building lines in code rather than reading them.
    pub fn from_value(value: &serde_json::Value) -> Result<Self, serde_json::Error> {
        serde_json::value::to_raw_value(value).map(RawJson)
    }

    /// Parses JSON text, checking that it is exactly one JSON value.
    pub fn from_text(text: &str) -> Result<Self, serde_json::Error> {
        RawValue::from_string(text.to_string()).map(RawJson)
    }

    /// The exact JSON text.
    pub fn get(&self) -> &str {
        self.0.get()
    }

    /// Decodes the text into a `Value` (for inspection; the original text stays unchanged).
    pub fn to_value(&self) -> Result<serde_json::Value, serde_json::Error> {
        serde_json::from_str(self.0.get())
    }
}

impl fmt::Debug for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_tuple("RawJson").field(&self.0.get()).finish()
    }
}

impl fmt::Display for RawJson {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.0.get())
    }
}

impl PartialEq for RawJson {
    fn eq(&self, other: &Self) -> bool {
        self.0.get() == other.0.get()
    }
}

impl Eq for RawJson {}

impl Serialize for RawJson {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.0.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RawJson {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        Box::<RawValue>::deserialize(deserializer).map(RawJson)
    }
}
