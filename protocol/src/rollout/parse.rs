//! The tolerant line parser: bytes of one JSONL line in, a typed line or a typed
//! [`LineError`] out. It never panics, whatever the bytes.
//!
//! Cost model (a session file can have 100k+ lines): one pass over the text splits the
//! top-level object into borrowed raw slices and decodes the payload straight into its typed
//! form (no intermediate `serde_json::Value`). [`parse_rollout_line`] then serializes the typed
//! line once into a comparing writer to decide whether the original text must be kept;
//! [`parse_rollout_line_typed`] skips that step for readers that never write lines back.

use std::io;

use serde_json::value::RawValue;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use super::envelope::{ScanError, ScannedLine, ScannedPayload, json_kind, peek_payload_type};
use super::error::LineError;
use super::item::{KnownTag, PayloadPath, RolloutItem, UnknownRolloutItem};
use super::legacy::{classify_legacy, parse_legacy};
use super::line::RolloutLine;
use super::parsed_line::{LineFormat, ParsedLine, ParsedRecord, TypedLine};
use super::raw_json::RawJson;

/// Reads one line of a rollout file, losslessly.
///
/// `bytes` is the line with or without its terminator (`\n` or `\r\n` are stripped). The
/// enveloped format and the pre-envelope legacy format are both accepted; see [`LineFormat`].
/// A line of an unknown `type` parses into [`RolloutItem::Unknown`]; a known `type` whose
/// payload does not fit is a [`LineError::Payload`] naming the field serde rejected. The
/// result keeps the original text whenever the typed line does not write back the same bytes.
pub fn parse_rollout_line(bytes: &[u8]) -> Result<ParsedLine, LineError> {
    let (text, typed) = read_line(bytes, TYPE_FIRST)?;
    let original = match (&typed.record, typed.format) {
        (ParsedRecord::Line(line), LineFormat::Envelope) if writes_exactly(line, text) => None,
        _ => Some(Box::from(text)),
    };
    Ok(ParsedLine {
        record: typed.record,
        format: typed.format,
        original,
    })
}

/// Reads one line of a rollout file into its typed form only, without checking whether the
/// typed form reproduces the text and without keeping the text.
///
/// Same acceptance and errors as [`parse_rollout_line`], at about two thirds of its cost: the
/// choice for readers that rebuild history but never write lines back.
pub fn parse_rollout_line_typed(bytes: &[u8]) -> Result<TypedLine, LineError> {
    read_line(bytes, TYPE_FIRST).map(|(_, typed)| typed)
}

/// The reference reading of [`parse_rollout_line_typed`]: the payloads of `response_item` and
/// `event_msg` lines go through serde's derived (internally tagged) deserializers only, as
/// before the type-first decoder ([`crate::type_first`]). Same results and errors, slower:
/// for the tests and benchmarks that compare the two paths.
pub fn parse_rollout_line_typed_derived(bytes: &[u8]) -> Result<TypedLine, LineError> {
    read_line(bytes, &[PayloadPath::Derived]).map(|(_, typed)| typed)
}

/// The payload paths the parser tries, in order; the first scan that succeeds is kept. The
/// last is serde's derive, so a line the direct paths cannot read gets the derive's result or
/// error, whatever the first two did.
const TYPE_FIRST: &[PayloadPath] = &[
    PayloadPath::TagFirst,
    PayloadPath::TagAnywhere,
    PayloadPath::Derived,
];

/// The shared reading path: returns the line's text (without terminator) and its typed form.
fn read_line<'b>(
    bytes: &'b [u8],
    paths: &[PayloadPath],
) -> Result<(&'b str, TypedLine), LineError> {
    let bytes = strip_line_terminator(bytes);
    let first = bytes
        .iter()
        .copied()
        .find(|byte| !byte.is_ascii_whitespace());
    let Some(first) = first else {
        return Err(LineError::Blank);
    };
    let text = std::str::from_utf8(bytes).map_err(|err| LineError::InvalidUtf8 {
        offset: err.valid_up_to(),
    })?;
    if first != b'{' {
        return Err(classify_non_object(text));
    }
    let mut scanned = Err(ScanError::Syntax(serde_json::Error::custom(
        "no payload path",
    )));
    for path in paths {
        scanned = ScannedLine::scan(text, *path);
        if scanned.is_ok() {
            break;
        }
    }
    let scanned = scanned.map_err(|err| match err {
        ScanError::Syntax(err) => LineError::from_syntax(&err),
        ScanError::Payload(known, err) => LineError::Payload {
            line_type: known.as_str().to_string(),
            payload_type: peek_payload_type(text),
            message: err.to_string(),
        },
    })?;
    let typed = match classify_legacy(&scanned) {
        Some(legacy) => parse_legacy(legacy, text, &scanned)?,
        None => TypedLine {
            record: ParsedRecord::Line(decode_envelope(scanned)?),
            format: LineFormat::Envelope,
        },
    };
    Ok((text, typed))
}

/// True when serializing `line` produces exactly `text`. Compares while serializing and stops
/// at the first differing byte, so no output string is built.
fn writes_exactly(line: &RolloutLine, text: &str) -> bool {
    let mut writer = CompareWriter {
        expected: text.as_bytes(),
    };
    serde_json::to_writer(&mut writer, line).is_ok() && writer.expected.is_empty()
}

/// An `io::Write` that accepts only the bytes it expects next.
struct CompareWriter<'a> {
    expected: &'a [u8],
}

impl io::Write for CompareWriter<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        // Most writes are one byte of punctuation; skip the memcmp call for those.
        let rest = match (buf, self.expected) {
            ([byte], [expected, rest @ ..]) if byte == expected => Some(rest),
            ([_], _) => None,
            _ => self.expected.strip_prefix(buf),
        };
        let Some(rest) = rest else {
            return Err(io::Error::other("serialization differs from the input"));
        };
        self.expected = rest;
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Strips one trailing `\n` and then one trailing `\r`.
fn strip_line_terminator(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

/// Names what a line that does not start with `{` is: not JSON, truncated, or another kind
/// of JSON value. Only reached for bad lines, so it may parse the whole text.
fn classify_non_object(text: &str) -> LineError {
    match serde_json::from_str::<serde_json::Value>(text) {
        Ok(value) => LineError::NotObject {
            found: json_kind(&value),
        },
        Err(err) => LineError::from_syntax(&err),
    }
}

/// Decodes an enveloped line from its scanned entries.
fn decode_envelope(scanned: ScannedLine<'_>) -> Result<RolloutLine, LineError> {
    if let Some(key) = scanned.duplicate {
        return Err(LineError::InvalidEnvelopeField {
            field: key,
            message: "the key appears more than once".to_string(),
        });
    }
    let mut timestamp = None;
    let mut ordinal = None;
    let mut tag = None;
    let mut extra = Vec::new();
    for (key, value) in scanned.entries {
        match key.as_ref() {
            "timestamp" => timestamp = Some(value),
            "ordinal" => ordinal = Some(value),
            "type" => tag = Some(value),
            _ => extra.push((key.into_owned(), RawJson::from_raw(value))),
        }
    }
    let tag: String = decode_field(
        "type",
        tag.ok_or(LineError::MissingField { field: "type" })?,
    )?;
    let item = match (scanned.payload, KnownTag::from_tag(&tag)) {
        (ScannedPayload::Decoded(item), _) => item,
        (ScannedPayload::Raw(raw), Some(known)) => decode_payload(known, raw)?,
        (ScannedPayload::Absent, Some(_)) => {
            return Err(LineError::MissingField { field: "payload" });
        }
        (ScannedPayload::Raw(raw), None) => RolloutItem::Unknown(UnknownRolloutItem {
            tag,
            payload: Some(RawJson::from_raw(raw)),
        }),
        (ScannedPayload::Absent, None) => {
            RolloutItem::Unknown(UnknownRolloutItem { tag, payload: None })
        }
    };
    let timestamp: String = decode_field(
        "timestamp",
        timestamp.ok_or(LineError::MissingField { field: "timestamp" })?,
    )?;
    let ordinal = ordinal
        .map(|raw| decode_field::<u64>("ordinal", raw))
        .transpose()?;
    Ok(RolloutLine {
        timestamp,
        ordinal,
        item,
        extra,
    })
}

/// Decodes one envelope value, naming the field when it has the wrong kind.
fn decode_field<T: serde::de::DeserializeOwned>(
    field: &str,
    raw: &RawValue,
) -> Result<T, LineError> {
    serde_json::from_str(raw.get()).map_err(|err| LineError::InvalidEnvelopeField {
        field: field.to_string(),
        message: err.to_string(),
    })
}

/// Decodes the payload of a known line kind from its text (when `type` came after it).
fn decode_payload(known: KnownTag, raw: &RawValue) -> Result<RolloutItem, LineError> {
    known
        .decode_text(raw.get())
        .map_err(|err| LineError::Payload {
            line_type: known.as_str().to_string(),
            payload_type: super::envelope::peek_type_tag(raw),
            message: err.to_string(),
        })
}

/// Reads a line through the tolerant parser (the line type's own `Deserialize`, kept beside
/// the parser it asks) ; unknown kinds and siblings are kept and the legacy
/// format is recognised. Prefer [`parse_rollout_line`] on raw bytes: it is faster and
/// keeps the original text when the model cannot reproduce it.
impl<'de> Deserialize<'de> for RolloutLine {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let value = serde_json::Value::deserialize(deserializer)?;
        let text = serde_json::to_string(&value).map_err(D::Error::custom)?;
        let parsed = parse_rollout_line(text.as_bytes()).map_err(D::Error::custom)?;
        parsed
            .into_line()
            .ok_or_else(|| D::Error::custom("a legacy state marker is not a rollout line"))
    }
}

#[cfg(test)]
#[path = "parse_tests.rs"]
mod tests;
