//! Unit tests of the line parser over hand-written lines (the real files are covered by
//! `tests/real_fixtures.rs`, bad input by `tests/bad_input.rs`).

use pretty_assertions::assert_eq;

use super::*;
use crate::rollout::{LegacyRecord, RoundTrip};

type TestResult = Result<(), Box<dyn std::error::Error>>;

const MESSAGE_LINE: &str = r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#;

fn parse(text: &str) -> Result<ParsedLine, LineError> {
    parse_rollout_line(text.as_bytes())
}

#[test]
fn canonical_line_round_trips_exactly_without_keeping_the_original() -> TestResult {
    let parsed = parse(MESSAGE_LINE)?;
    assert_eq!(parsed.format(), LineFormat::Envelope);
    assert!(!parsed.is_original_kept());
    assert_eq!(parsed.round_trip()?, RoundTrip::Exact);
    assert_eq!(parsed.to_json_line()?, MESSAGE_LINE);
    let Some(RolloutItem::ResponseItem(item)) = parsed.item() else {
        return Err("expected a response item".into());
    };
    assert_eq!(item.item_type(), "message");
    Ok(())
}

#[test]
fn line_terminators_are_stripped() -> TestResult {
    for terminated in [format!("{MESSAGE_LINE}\n"), format!("{MESSAGE_LINE}\r\n")] {
        let parsed = parse(&terminated)?;
        assert!(!parsed.is_original_kept());
        assert_eq!(parsed.to_json_line()?, MESSAGE_LINE);
    }
    Ok(())
}

#[test]
fn ordinal_and_sibling_metadata_are_kept_in_place() -> TestResult {
    let text = r#"{"timestamp":"t","ordinal":7,"type":"response_item","payload":{"type":"message","role":"assistant","content":[]},"metadata":{"client_authored":false,"x":0.1000000000000000055511151231257827}}"#;
    let parsed = parse(text)?;
    let line = parsed.line().ok_or("expected a line")?;
    assert_eq!(line.ordinal, Some(7));
    assert_eq!(
        line.extra_field("metadata").map(RawJson::get),
        Some(r#"{"client_authored":false,"x":0.1000000000000000055511151231257827}"#)
    );
    assert!(
        !parsed.is_original_kept(),
        "siblings are written back verbatim"
    );
    assert_eq!(parsed.to_json_line()?, text);
    Ok(())
}

#[test]
fn unknown_line_type_is_kept_with_its_tag_and_exact_payload() -> TestResult {
    let text = r#"{"timestamp":"t","type":"brand_new_line","payload":{"full":true,"state":{"b":1,"a":2.50}}}"#;
    let parsed = parse(text)?;
    let Some(RolloutItem::Unknown(unknown)) = parsed.item() else {
        return Err("expected an unknown item".into());
    };
    assert_eq!(unknown.tag, "brand_new_line");
    assert_eq!(
        unknown.payload.as_ref().map(RawJson::get),
        Some(r#"{"full":true,"state":{"b":1,"a":2.50}}"#)
    );
    assert!(!parsed.is_original_kept());
    assert_eq!(parsed.to_json_line()?, text);
    Ok(())
}

#[test]
fn unknown_line_type_without_payload_is_kept() -> TestResult {
    let text = r#"{"timestamp":"t","type":"sampling_boundary","data":[1,2]}"#;
    let parsed = parse(text)?;
    let Some(RolloutItem::Unknown(unknown)) = parsed.item() else {
        return Err("expected an unknown item".into());
    };
    assert_eq!(unknown.payload, None);
    assert_eq!(parsed.to_json_line()?, text);
    Ok(())
}

#[test]
fn unknown_payload_kind_of_a_known_line_keeps_the_original() -> TestResult {
    let text = r#"{"timestamp":"t","type":"response_item","payload":{"type":"ghost_snapshot","ghost_commit":{"id":"abc"}}}"#;
    let parsed = parse(text)?;
    let Some(RolloutItem::ResponseItem(item)) = parsed.item() else {
        return Err("expected a response item".into());
    };
    assert_eq!(item.item_type(), "other");
    assert!(parsed.is_original_kept());
    assert_eq!(parsed.round_trip()?, RoundTrip::Lossy);
    assert_eq!(parsed.to_json_line()?, text);
    Ok(())
}

#[test]
fn payload_before_type_is_still_decoded() -> TestResult {
    let text = r#"{"payload":{"message":"summary"},"type":"compacted","timestamp":"t"}"#;
    let parsed = parse(text)?;
    let Some(RolloutItem::Compacted(compacted)) = parsed.item() else {
        return Err("expected a compacted item".into());
    };
    assert_eq!(compacted.message, "summary");
    assert!(
        parsed.is_original_kept(),
        "key order differs from what we write"
    );
    assert_eq!(parsed.round_trip()?, RoundTrip::JsonEqual);
    assert_eq!(parsed.to_json_line()?, text);
    Ok(())
}

#[test]
fn extra_spacing_is_json_equal_and_kept_verbatim() -> TestResult {
    let text =
        r#"{"timestamp": "t", "type": "event_msg", "payload": {"type": "context_compacted"}}"#;
    let parsed = parse(text)?;
    assert!(parsed.is_original_kept());
    assert_eq!(parsed.round_trip()?, RoundTrip::JsonEqual);
    assert_eq!(parsed.to_json_line()?, text);
    Ok(())
}

#[test]
fn typed_only_reader_gives_the_same_record() -> TestResult {
    let typed = parse_rollout_line_typed(MESSAGE_LINE.as_bytes())?;
    let full = parse(MESSAGE_LINE)?;
    assert_eq!(typed.format, full.format());
    assert_eq!(Some(&typed.record), Some(full.record()));
    assert_eq!(typed.into_line(), full.into_line());
    Ok(())
}

#[test]
fn legacy_records_are_recognised_and_mapped() -> TestResult {
    let meta = r#"{"id":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","timestamp":"2025-09-10T18:58:38.331Z","instructions":"be brief","git":{"branch":"main"}}"#;
    let parsed = parse(meta)?;
    assert_eq!(
        parsed.format(),
        LineFormat::Legacy(LegacyRecord::SessionMeta)
    );
    let Some(RolloutItem::SessionMeta(line)) = parsed.item() else {
        return Err("expected a session meta".into());
    };
    assert_eq!(line.meta.session_id, line.meta.id);
    assert_eq!(line.meta.instructions.as_deref(), Some("be brief"));
    assert_eq!(
        parsed.line().map(|l| l.timestamp.as_str()),
        Some("2025-09-10T18:58:38.331Z")
    );
    assert_eq!(
        parsed.to_json_line()?,
        meta,
        "legacy lines write back as written"
    );

    let marker = parse(r#"{"record_type":"state"}"#)?;
    assert_eq!(
        marker.format(),
        LineFormat::Legacy(LegacyRecord::StateMarker)
    );
    assert_eq!(
        marker.record(),
        &ParsedRecord::LegacyMarker {
            record_type: "state".to_string()
        }
    );
    assert!(marker.item().is_none());

    let call = r#"{"type":"function_call","name":"shell","arguments":"{}","call_id":"c1"}"#;
    let parsed = parse(call)?;
    assert_eq!(
        parsed.format(),
        LineFormat::Legacy(LegacyRecord::ResponseItem)
    );
    assert_eq!(parsed.round_trip()?, RoundTrip::JsonEqual);
    assert_eq!(parsed.to_json_line()?, call);
    Ok(())
}

#[test]
fn envelope_tag_without_payload_is_not_mistaken_for_legacy() {
    assert_eq!(
        parse(r#"{"type":"response_item"}"#),
        Err(LineError::MissingField { field: "payload" })
    );
}

#[test]
fn duplicate_envelope_key_is_rejected() {
    let text = r#"{"timestamp":"a","timestamp":"b","type":"compacted","payload":{"message":""}}"#;
    assert!(matches!(
        parse(text),
        Err(LineError::InvalidEnvelopeField { field, .. }) if field == "timestamp"
    ));
}

#[test]
fn truncated_payload_is_a_syntax_error_not_a_payload_error() {
    let text = r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"us"#;
    assert!(matches!(parse(text), Err(LineError::Truncated { .. })));
}

#[test]
fn split_lines_numbers_lines_and_keeps_an_unterminated_tail() {
    let lines: Vec<(usize, &[u8])> = crate::rollout::split_lines(b"a\n\nb\nc").collect();
    assert_eq!(
        lines,
        vec![
            (1, &b"a"[..]),
            (2, &b""[..]),
            (3, &b"b"[..]),
            (4, &b"c"[..])
        ]
    );
    assert_eq!(crate::rollout::split_lines(b"a\n").count(), 1);
    assert_eq!(crate::rollout::split_lines(b"").count(), 0);
    assert_eq!(crate::rollout::split_lines(b"\n").count(), 1);
}

#[test]
fn newer_line_kinds_are_typed_and_opaque_ones_keep_their_text() -> TestResult {
    let world = r#"{"timestamp":"t","ordinal":6,"type":"world_state","payload":{"full":true,"state":{"b":1,"a":2.50}}}"#;
    let parsed = parse(world)?;
    let Some(RolloutItem::WorldState(state)) = parsed.item() else {
        return Err("expected a world_state item".into());
    };
    assert!(state.full);
    assert_eq!(parsed.to_json_line()?, world);
    let retained = r#"{"timestamp":"t","type":"retained_context","payload":{"z":1,"a":[1.0]}}"#;
    let parsed = parse(retained)?;
    let Some(RolloutItem::RetainedContext(raw)) = parsed.item() else {
        return Err("expected a retained_context item".into());
    };
    assert_eq!(raw.get(), r#"{"z":1,"a":[1.0]}"#);
    assert!(!parsed.is_original_kept());
    // A known kind whose payload does not fit is a payload error naming the kind.
    let bad = r#"{"timestamp":"t","type":"token_usage_record","payload":{"usage":7}}"#;
    let Err(LineError::Payload { line_type, .. }) = parse_rollout_line(bad.as_bytes()) else {
        return Err("expected a payload error".into());
    };
    assert_eq!(line_type, "token_usage_record");
    Ok(())
}
