//! The pre-envelope legacy format (Codex session files of 2025 before the
//! `{timestamp, type, payload}` envelope).
//!
//! Such a file starts with a bare session meta (`{"id", "timestamp", "instructions", "git"}`),
//! then interleaves bare `ResponseItem`s with `{"record_type": "state"}` markers. Lines carry
//! no write time. Each line is recognised by its keys alone (the parser is stateless) and
//! mapped onto the envelope model: the meta becomes a `SessionMeta` item, bare items become
//! `ResponseItem` items, and markers are reported as markers rather than errors. The original
//! text is always kept, because writing the typed line would produce the envelope format.

use super::envelope::ScannedLine;
use super::error::LineError;
use super::item::{KnownTag, RolloutItem};
use super::line::RolloutLine;
use super::parsed_line::{LegacyRecord, LineFormat, ParsedRecord, TypedLine};
use super::session_meta::SessionMetaLine;
use crate::models::ResponseItem;

/// Decides whether an object is a legacy record, from its top-level keys.
///
/// Anything with a `payload` is enveloped. Without one: a `record_type` key marks a state
/// marker; a `type` that is not an envelope tag, on a line without `timestamp`, marks a bare
/// item; no `type` but an `id` marks the bare session meta. Everything else is left to the
/// envelope reader, which reports the missing key.
pub(crate) fn classify_legacy(entries: &ScannedLine<'_>) -> Option<LegacyRecord> {
    if entries.has_payload() {
        return None;
    }
    if entries.contains("record_type") {
        return Some(LegacyRecord::StateMarker);
    }
    match entries.get("type") {
        Some(tag) => {
            let envelope_tag = serde_json::from_str::<&str>(tag.get())
                .ok()
                .and_then(KnownTag::from_tag)
                .is_some();
            (!envelope_tag && !entries.contains("timestamp")).then_some(LegacyRecord::ResponseItem)
        }
        None => entries.contains("id").then_some(LegacyRecord::SessionMeta),
    }
}

/// Reads a line already classified as legacy.
pub(crate) fn parse_legacy(
    kind: LegacyRecord,
    text: &str,
    entries: &ScannedLine<'_>,
) -> Result<TypedLine, LineError> {
    let error = |message: String| LineError::Legacy {
        record: kind.as_str(),
        payload_type: entries
            .get("type")
            .and_then(|raw| serde_json::from_str::<String>(raw.get()).ok()),
        message,
    };
    let record = match kind {
        LegacyRecord::StateMarker => {
            let raw = entries
                .get("record_type")
                .ok_or_else(|| error("missing `record_type`".to_string()))?;
            let record_type = serde_json::from_str::<String>(raw.get())
                .map_err(|err| error(format!("`record_type`: {err}")))?;
            ParsedRecord::LegacyMarker { record_type }
        }
        LegacyRecord::ResponseItem => {
            let item = crate::type_first::decode::<ResponseItem>(text)
                .map_err(|err| error(err.to_string()))?;
            ParsedRecord::Line(RolloutLine::new(
                String::new(),
                RolloutItem::ResponseItem(item),
            ))
        }
        LegacyRecord::SessionMeta => {
            let meta = serde_json::from_str::<SessionMetaLine>(text)
                .map_err(|err| error(err.to_string()))?;
            let timestamp = meta.meta.timestamp.clone();
            ParsedRecord::Line(RolloutLine::new(
                timestamp,
                RolloutItem::SessionMeta(Box::new(meta)),
            ))
        }
    };
    Ok(TypedLine {
        record,
        format: LineFormat::Legacy(kind),
    })
}
