//! The single pass over a line: split the top-level object into its keys and the raw text of
//! each value, and decode the payload into its typed form on the way.
//!
//! Envelope values other than the payload are borrowed slices of the input (`&RawValue`), so
//! they cost no allocation. When the line's `type` is a known kind and comes before `payload`
//! (as every Codex writer orders it), the payload is decoded in the same pass, straight into
//! its typed form; otherwise its raw text is kept for a later decode.

use std::borrow::Cow;
use std::cell::Cell;
use std::fmt;

use serde::de::{DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde_json::value::RawValue;

use super::item::{KnownTag, PayloadPath, RolloutItem};
use crate::type_first::{Text, peek_tag};

/// The payload of a scanned line.
// The decoded variant is the common case; boxing it would cost an allocation per line.
#[allow(clippy::large_enum_variant)]
pub(crate) enum ScannedPayload<'a> {
    /// The line has no `payload` key.
    Absent,
    /// Kept as text (unknown kind, `type` after `payload`, or a repeated key).
    Raw(&'a RawValue),
    /// Decoded during the scan.
    Decoded(RolloutItem),
}

/// The top-level entries of one JSON object line, in input order, `payload` aside.
pub(crate) struct ScannedLine<'a> {
    /// Every entry except `payload`.
    pub(crate) entries: Vec<(Cow<'a, str>, &'a RawValue)>,
    /// The `payload` entry.
    pub(crate) payload: ScannedPayload<'a>,
    /// A key that appeared more than once, if any.
    pub(crate) duplicate: Option<String>,
}

/// Why a scan failed.
pub(crate) enum ScanError {
    /// The text is not (complete) JSON.
    Syntax(serde_json::Error),
    /// The payload of a known kind did not decode.
    Payload(KnownTag, serde_json::Error),
}

impl<'a> ScannedLine<'a> {
    /// Scans `text`, which must start with `{`.
    pub(crate) fn scan(text: &'a str, path: PayloadPath) -> Result<Self, ScanError> {
        let failed_payload = Cell::new(None);
        let mut deserializer = serde_json::Deserializer::from_str(text);
        let scanned = LineSeed {
            failed_payload: &failed_payload,
            path,
        }
        .deserialize(&mut deserializer)
        .and_then(|scanned| deserializer.end().map(|()| scanned));
        scanned.map_err(|err| match (failed_payload.get(), err.classify()) {
            // A syntax error inside the payload is still a syntax error.
            (Some(known), serde_json::error::Category::Data) => ScanError::Payload(known, err),
            _ => ScanError::Syntax(err),
        })
    }

    /// The value of the first entry named `key` (never `payload`).
    pub(crate) fn get(&self, key: &str) -> Option<&'a RawValue> {
        self.entries
            .iter()
            .find_map(|(name, value)| (name.as_ref() == key).then_some(*value))
    }

    /// True when an entry named `key` exists (never `payload`).
    pub(crate) fn contains(&self, key: &str) -> bool {
        self.entries.iter().any(|(name, _)| name.as_ref() == key)
    }

    /// True when the line has a `payload` key.
    pub(crate) fn has_payload(&self) -> bool {
        !matches!(self.payload, ScannedPayload::Absent)
    }
}

/// Scans one line; records in `failed_payload` which kind's payload failed to decode, so the
/// caller can tell a payload mismatch from a syntax error.
struct LineSeed<'c> {
    failed_payload: &'c Cell<Option<KnownTag>>,
    path: PayloadPath,
}

impl<'de, 'c> DeserializeSeed<'de> for LineSeed<'c> {
    type Value = ScannedLine<'de>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_map(self)
    }
}

impl<'de, 'c> Visitor<'de> for LineSeed<'c> {
    type Value = ScannedLine<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut entries: Vec<(Cow<'de, str>, &'de RawValue)> = Vec::with_capacity(4);
        let mut payload = ScannedPayload::Absent;
        let mut duplicate = None;
        while let Some(Text(key)) = map.next_key::<Text<'de>>()? {
            if key != "payload" {
                let value: &'de RawValue = map.next_value()?;
                if duplicate.is_none() && entries.iter().any(|(name, _)| *name == key) {
                    duplicate = Some(key.to_string());
                }
                entries.push((key, value));
                continue;
            }
            if !matches!(payload, ScannedPayload::Absent) {
                duplicate.get_or_insert_with(|| "payload".to_string());
                let _: &'de RawValue = map.next_value()?;
                continue;
            }
            let known = entries
                .iter()
                .find(|(name, _)| name == "type")
                .and_then(|(_, tag)| serde_json::from_str::<&str>(tag.get()).ok())
                .and_then(KnownTag::from_tag);
            payload = match known {
                Some(known) => {
                    self.failed_payload.set(Some(known));
                    let item = map.next_value_seed(PayloadSeed(known, self.path))?;
                    self.failed_payload.set(None);
                    ScannedPayload::Decoded(item)
                }
                None => ScannedPayload::Raw(map.next_value()?),
            };
        }
        Ok(ScannedLine {
            entries,
            payload,
            duplicate,
        })
    }
}

/// Decodes a payload of a known kind in place.
struct PayloadSeed(KnownTag, PayloadPath);

impl<'de> DeserializeSeed<'de> for PayloadSeed {
    type Value = RolloutItem;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        self.0.decode_by(deserializer, self.1)
    }
}

/// The JSON kind of a value, named for error messages.
pub(crate) fn json_kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "boolean",
        serde_json::Value::Number(_) => "number",
        serde_json::Value::String(_) => "string",
        serde_json::Value::Array(_) => "array",
        serde_json::Value::Object(_) => "object",
    }
}

/// The `type` tag of the `payload` of a line (for error messages; slow path only).
pub(crate) fn peek_payload_type(text: &str) -> Option<String> {
    #[derive(serde::Deserialize)]
    struct Tagged {
        #[serde(rename = "type")]
        tag: Option<String>,
    }
    #[derive(serde::Deserialize)]
    struct Line {
        payload: Option<Tagged>,
    }
    serde_json::from_str::<Line>(text)
        .ok()
        .and_then(|line| line.payload)
        .and_then(|payload| payload.tag)
}

/// The `type` tag of a raw JSON object (for error messages; slow path only).
pub(crate) fn peek_type_tag(raw: &RawValue) -> Option<String> {
    peek_tag(raw.get())
}
