//! How the real-fixture test labels a line: its `line_type/payload_type` key as written, and
//! the key and outcome as the typed model read it. Comparing the two is what proves "a known
//! kind parses into its own variant, not a fallback".

use codex_protocol::rollout::{LineFormat, ParsedLine, RolloutItem};
use serde_json::Value;

/// How one line was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Outcome {
    /// Parsed into the typed variant of its kind.
    Typed,
    /// A known line kind whose payload kind is unknown (`ResponseItem::Other`,
    /// `EventMsg::Other`); the original text is kept.
    Fallback,
    /// An unknown line kind, kept as `RolloutItem::Unknown`.
    UnknownKept,
    /// A legacy `record_type` marker.
    LegacyMarker,
    /// Rejected with a typed error.
    Error,
}

/// `line_type/payload_type` of a line as written (the same key the expectation table uses).
pub(crate) fn raw_key(value: &Value) -> String {
    let payload_type = |v: &Value| v.get("type").and_then(Value::as_str).map(str::to_string);
    if let Some(payload) = value.get("payload") {
        let line_type = value.get("type").and_then(Value::as_str).unwrap_or("?");
        return match payload_type(payload) {
            Some(kind) => format!("{line_type}/{kind}"),
            None => line_type.to_string(),
        };
    }
    if let Some(record_type) = value.get("record_type").and_then(Value::as_str) {
        return format!("legacy/record_type:{record_type}");
    }
    match payload_type(value) {
        Some(kind) => format!("legacy/{kind}"),
        None => "legacy/session_meta".to_string(),
    }
}

/// The key and outcome as the typed model sees the line.
pub(crate) fn typed_key(parsed: &ParsedLine) -> Option<(String, Outcome)> {
    let prefix = |tag: &str| match parsed.format() {
        LineFormat::Envelope => tag.to_string(),
        LineFormat::Legacy(_) => "legacy".to_string(),
    };
    let item = parsed.item()?;
    Some(match item {
        RolloutItem::ResponseItem(item) if item.item_type() == "other" => {
            (String::new(), Outcome::Fallback)
        }
        RolloutItem::ResponseItem(item) => (
            format!("{}/{}", prefix("response_item"), item.item_type()),
            Outcome::Typed,
        ),
        RolloutItem::EventMsg(event) if event.type_name() == "other" => {
            (String::new(), Outcome::Fallback)
        }
        RolloutItem::EventMsg(event) => {
            (format!("event_msg/{}", event.type_name()), Outcome::Typed)
        }
        RolloutItem::SessionMeta(_) if parsed.is_legacy() => {
            ("legacy/session_meta".to_string(), Outcome::Typed)
        }
        RolloutItem::SessionMeta(_) => ("session_meta".to_string(), Outcome::Typed),
        RolloutItem::TurnContext(_) => ("turn_context".to_string(), Outcome::Typed),
        RolloutItem::Compacted(_)
        | RolloutItem::InterAgentCommunication(_)
        | RolloutItem::InterAgentCommunicationMetadata(_)
        | RolloutItem::TokenUsageRecord(_)
        | RolloutItem::WorldState(_)
        | RolloutItem::DynamicToolsUpdated(_)
        | RolloutItem::RetainedContext(_)
        | RolloutItem::SecurityRiskScore(_)
        | RolloutItem::RealtimeItem(_) => (item.tag().to_string(), Outcome::Typed),
        RolloutItem::Unknown(unknown) => (unknown.tag.clone(), Outcome::UnknownKept),
    })
}
