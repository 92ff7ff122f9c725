//! Bad lines give typed errors that name what was wrong, and no input makes the parser panic.
//! Every accepted input writes back byte for byte.

use codex_protocol::rollout::{LineError, parse_rollout_line, parse_rollout_line_typed};
use proptest::prelude::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Hand-written valid lines, one per kind (the real files are read in `real_fixtures.rs`).
const VALID_LINES: &[&str] = &[
    r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"session_meta","payload":{"id":"0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.1.0","source":"cli","model_provider":"openai","git":{"branch":"main"}}}"#,
    r#"{"timestamp":"2026-01-01T00:00:01.000Z","type":"turn_context","payload":{"turn_id":"t1","cwd":"/w","approval_policy":"never","sandbox_policy":{"type":"danger-full-access"},"model":"gpt-5","effort":"high","summary":"auto"}}"#,
    r#"{"timestamp":"2026-01-01T00:00:02.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix the \"bug\" \u00e9"}]}}"#,
    r#"{"timestamp":"2026-01-01T00:00:03.000Z","ordinal":4,"type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"},"metadata":{"client_authored":true}}"#,
    r#"{"timestamp":"2026-01-01T00:00:04.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}"#,
    r#"{"timestamp":"2026-01-01T00:00:05.000Z","type":"compacted","payload":{"message":"summary","replacement_history":[]}}"#,
    r#"{"timestamp":"2026-01-01T00:00:06.000Z","type":"world_state","payload":{"full":false,"state":{"n":1.50}}}"#,
    r#"{"type":"function_call_output","call_id":"call_1","output":"ok"}"#,
    r#"{"record_type":"state"}"#,
];

#[test]
fn valid_lines_parse() -> TestResult {
    for line in VALID_LINES {
        let parsed = parse_rollout_line(line.as_bytes())?;
        assert_eq!(parsed.to_json_line()?, *line);
    }
    Ok(())
}

#[test]
fn not_json_names_line_and_column() {
    let err = parse_rollout_line(b"{hello world}");
    let Err(LineError::NotJson {
        line,
        column,
        message,
    }) = &err
    else {
        panic!("expected NotJson, got {err:?}");
    };
    assert_eq!((*line, *column), (1, 2));
    assert!(message.contains("key must be a string"), "{message}");
    let err = parse_rollout_line(b"hello");
    assert!(matches!(err, Err(LineError::NotJson { .. })), "{err:?}");
    let shown = err.err().map(|err| err.to_string()).unwrap_or_default();
    assert!(shown.starts_with("not JSON at line 1, column 1"), "{shown}");
}

#[test]
fn known_type_with_a_wrong_field_names_line_type_payload_type_and_field() {
    let line = br#"{"timestamp":"t","type":"response_item","payload":{"type":"message","role":5,"content":[]}}"#;
    let err = parse_rollout_line(line);
    let Err(LineError::Payload {
        line_type,
        payload_type,
        message,
    }) = &err
    else {
        panic!("expected a payload error, got {err:?}");
    };
    assert_eq!(line_type, "response_item");
    assert_eq!(payload_type.as_deref(), Some("message"));
    assert!(message.contains("invalid type: integer `5`"), "{message}");
    let shown = err.err().map(|err| err.to_string()).unwrap_or_default();
    assert!(
        shown.contains("`response_item` line with payload type `message`"),
        "{shown}"
    );
}

#[test]
fn known_type_with_a_missing_field_names_the_field() {
    let line = br#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","name":"shell","arguments":"{}"}}"#;
    let err = parse_rollout_line(line);
    assert!(
        matches!(&err, Err(LineError::Payload { message, .. }) if message.contains("missing field `call_id`")),
        "{err:?}"
    );
    let line = br#"{"timestamp":"t","type":"session_meta","payload":{"timestamp":"t","cwd":"/"}}"#;
    let err = parse_rollout_line(line);
    assert!(
        matches!(&err, Err(LineError::Payload { line_type, payload_type: None, message })
            if line_type == "session_meta" && message.contains("missing field `id`")),
        "{err:?}"
    );
}

#[test]
fn empty_and_blank_lines_are_blank() {
    for line in [&b""[..], b"\n", b"\r\n", b"   \t ", b" \r\n"] {
        assert_eq!(parse_rollout_line(line), Err(LineError::Blank), "{line:?}");
    }
}

#[test]
fn invalid_utf8_gives_the_byte_offset() {
    let mut line = br#"{"timestamp":"t","type":"compacted","payload":{"message":"ab"#.to_vec();
    let offset = line.len();
    line.extend_from_slice(&[0xff, 0xfe]);
    line.extend_from_slice(br#""}}"#);
    assert_eq!(
        parse_rollout_line(&line),
        Err(LineError::InvalidUtf8 { offset })
    );
    assert!(
        LineError::InvalidUtf8 { offset }
            .to_string()
            .contains(&format!("byte offset {offset}"))
    );
}

#[test]
fn truncated_line_is_truncated() -> TestResult {
    for line in VALID_LINES {
        for cut in [1, line.len() / 2, line.len() - 1] {
            let err = parse_rollout_line(&line.as_bytes()[..cut]);
            assert!(
                matches!(err, Err(LineError::Truncated { .. })),
                "cut {cut} of {line}: {err:?}"
            );
        }
    }
    Ok(())
}

#[test]
fn non_object_json_names_what_was_found() {
    let cases: [(&[u8], &str); 6] = [
        (b"[1,2]", "array"),
        (b"\"text\"", "string"),
        (b"42", "number"),
        (b"null", "null"),
        (b"true", "boolean"),
        (b"  [] ", "array"),
    ];
    for (line, found) in cases {
        assert_eq!(
            parse_rollout_line(line),
            Err(LineError::NotObject { found })
        );
    }
}

#[test]
fn missing_envelope_fields_are_named() {
    let cases: [(&[u8], &str); 4] = [
        (
            br#"{"timestamp":"t","payload":{"type":"context_compacted"}}"#,
            "type",
        ),
        (br#"{"timestamp":"t","type":"event_msg"}"#, "payload"),
        (
            br#"{"type":"event_msg","payload":{"type":"context_compacted"}}"#,
            "timestamp",
        ),
        (br#"{}"#, "type"),
    ];
    for (line, field) in cases {
        assert_eq!(
            parse_rollout_line(line),
            Err(LineError::MissingField { field })
        );
    }
}

#[test]
fn wrongly_typed_envelope_fields_are_named() {
    let cases: [(&[u8], &str); 3] = [
        (br#"{"timestamp":5,"type":"event_msg","payload":{"type":"context_compacted"}}"#, "timestamp"),
        (br#"{"timestamp":"t","ordinal":-1,"type":"event_msg","payload":{"type":"context_compacted"}}"#, "ordinal"),
        (br#"{"timestamp":"t","type":["event_msg"],"payload":{}}"#, "type"),
    ];
    for (line, wanted) in cases {
        let err = parse_rollout_line(line);
        assert!(
            matches!(&err, Err(LineError::InvalidEnvelopeField { field, .. }) if field == wanted),
            "{err:?}"
        );
    }
}

/// The line without one trailing `\n` and then one trailing `\r` (what the parser reads).
fn stripped(bytes: &[u8]) -> &[u8] {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    bytes.strip_suffix(b"\r").unwrap_or(bytes)
}

/// Parses with both entry points; they must agree, and an accepted line must write back as
/// the very bytes that were read.
fn check_never_loses(bytes: &[u8]) -> Result<(), TestCaseError> {
    let full = parse_rollout_line(bytes);
    let typed = parse_rollout_line_typed(bytes);
    match (&full, &typed) {
        (Ok(full), Ok(typed)) => {
            prop_assert_eq!(full.record(), &typed.record);
            let written = full
                .to_json_line()
                .map_err(|err| TestCaseError::fail(err.to_string()))?;
            prop_assert_eq!(written.as_bytes(), stripped(bytes));
        }
        (Err(full), Err(typed)) => prop_assert_eq!(full, typed),
        _ => prop_assert!(false, "entry points disagree: {:?} vs {:?}", full, typed),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..256)) {
        check_never_loses(&bytes)?;
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[{}\\[\\]\":,a-z0-9 .\\\\-]{0,120}") {
        check_never_loses(text.as_bytes())?;
    }

    #[test]
    fn truncated_valid_lines_never_panic(index in 0..VALID_LINES.len(), cut in 0.0..1.0f64) {
        let line = VALID_LINES[index].as_bytes();
        let end = ((line.len() as f64) * cut) as usize;
        check_never_loses(&line[..end.min(line.len())])?;
    }

    #[test]
    fn mutated_valid_lines_never_panic_or_lose_bytes(
        index in 0..VALID_LINES.len(),
        edits in proptest::collection::vec((0.0..1.0f64, any::<u8>(), 0..3u8), 1..4),
    ) {
        let mut line = VALID_LINES[index].as_bytes().to_vec();
        for (position, byte, action) in edits {
            let at = ((line.len() as f64) * position) as usize;
            let at = at.min(line.len().saturating_sub(1));
            match action {
                0 if !line.is_empty() => line[at] = byte,
                1 => line.insert(at, byte),
                _ if !line.is_empty() => {
                    line.remove(at);
                }
                _ => {}
            }
        }
        check_never_loses(&line)?;
    }
}
