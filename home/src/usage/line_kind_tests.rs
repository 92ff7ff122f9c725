use pretty_assertions::assert_eq;

use super::*;

#[test]
fn tags_where_codex_writes_them_decide() {
    let cases: [(&str, Option<LineKind>); 10] = [
        (
            r#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":null}}"#,
            Some(LineKind::TokenCount),
        ),
        (
            r#"{"timestamp":"2026-01-01T00:00:00.000Z","ordinal":12,"type":"event_msg","payload":{"type":"task_started","turn_id":"x"}}"#,
            Some(LineKind::Parse),
        ),
        (
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"turn_started"}}"#,
            Some(LineKind::Parse),
        ),
        (
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"thread_settings_applied"}}"#,
            Some(LineKind::Parse),
        ),
        (
            r#"{"timestamp":"t","type":"turn_context","payload":{}}"#,
            Some(LineKind::Parse),
        ),
        (
            r#"{"timestamp":"t","type":"token_usage_record","payload":{}}"#,
            Some(LineKind::Parse),
        ),
        // A message quoting every tag is passed over: its own tags say what it is.
        (
            r#"{"timestamp":"t","type":"response_item","payload":{"type":"message","text":"\"token_count\" \"session_meta\""}}"#,
            Some(LineKind::Skip),
        ),
        (
            r#"{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"\"token_count\""}}"#,
            Some(LineKind::Skip),
        ),
        // Not the shape Codex writes: the caller searches the whole line.
        (
            r#"{"type":"event_msg","timestamp":"t","payload":{"type":"token_count"}}"#,
            None,
        ),
        (
            r#"{"timestamp":"t","type":"event_msg","payload":{"info":null,"type":"token_count"}}"#,
            None,
        ),
    ];
    for (line, kind) in cases {
        assert_eq!(line_kind(line.as_bytes()), kind, "{line}");
    }
}

#[test]
fn an_escape_in_a_tag_or_timestamp_is_not_read() {
    for line in [
        r#"{"timestamp":"2026\u002d01","type":"event_msg","payload":{"type":"token_count"}}"#,
        r#"{"timestamp":"t","type":"event\u005fmsg","payload":{"type":"token_count"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token\u005fcount"}}"#,
        r#"{"timestamp":"t","ordinal":,"type":"event_msg"}"#,
        r#"{"timestamp":"t"#,
        r#"{"record_type":"state"}"#,
    ] {
        assert_eq!(line_kind(line.as_bytes()), None, "{line}");
    }
}
