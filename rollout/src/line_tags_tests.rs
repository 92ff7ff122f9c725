use pretty_assertions::assert_eq;

use super::*;

fn tags(line: &str) -> Option<(String, Option<String>)> {
    line_tags(line.as_bytes()).map(|tags| {
        (
            String::from_utf8_lossy(tags.line_type).into_owned(),
            tags.payload_type
                .map(|payload| String::from_utf8_lossy(payload).into_owned()),
        )
    })
}

#[test]
fn the_tags_where_codex_writes_them_are_read() {
    let both = |line: &str, payload: &str| Some((line.to_string(), Some(payload.to_string())));
    let cases = [
        (
            r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":null}}"#,
            both("event_msg", "token_count"),
        ),
        (
            r#"{"timestamp":"t","ordinal":12,"type":"response_item","payload":{"type":"reasoning"}}"#,
            both("response_item", "reasoning"),
        ),
        (
            r#"{"timestamp":"t","type":"turn_context","payload":{"cwd":"/"}}"#,
            Some(("turn_context".to_string(), None)),
        ),
        // A message quoting tags: its own tags say what it is.
        (
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","text":"\"type\":\"event_msg\""}}"#,
            both("response_item", "message"),
        ),
        // An escape in the payload's tag: the line's type is known, the payload's is not.
        (
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token\u005fcount"}}"#,
            Some(("event_msg".to_string(), None)),
        ),
    ];
    for (line, expected) in cases {
        assert_eq!(tags(line), expected, "{line}");
    }
}

#[test]
fn a_line_in_another_shape_has_no_tags() {
    for line in [
        r#"{"type":"event_msg","timestamp":"t","payload":{"type":"token_count"}}"#,
        r#"{"timestamp":"2026\u002d01","type":"event_msg","payload":{"type":"token_count"}}"#,
        r#"{"timestamp":"t","type":"event\u005fmsg","payload":{"type":"token_count"}}"#,
        r#"{"timestamp":"t","ordinal":,"type":"event_msg"}"#,
        r#"{"timestamp":"t"#,
        r#"{"record_type":"state"}"#,
        r#"{"id":"x","type":"message","role":"user"}"#,
    ] {
        assert_eq!(tags(line), None, "{line}");
    }
}

#[test]
fn the_envelope_s_ordinal_is_among_the_tags() {
    let tags = line_tags(
        br#"{"timestamp":"t","ordinal":12,"type":"response_item","payload":{"type":"reasoning"}}"#,
    );
    assert_eq!(tags.and_then(|tags| tags.ordinal), Some(12));
    let bare = line_tags(br#"{"timestamp":"t","type":"x","payload":{}}"#);
    assert_eq!(bare.map(|tags| tags.ordinal), Some(None));
}
