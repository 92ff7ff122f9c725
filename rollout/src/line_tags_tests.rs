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

/// The call id [`output_call_id`] reads, as text.
fn call_id(line: &str) -> Option<(OutputChannel, String)> {
    output_call_id(line.as_bytes()).map(|(channel, id)| (channel, id.to_string()))
}

/// The channel and call id of `line`'s item, when it parses into a response item that has them.
fn parsed_call_id(line: &[u8]) -> Option<(OutputChannel, String)> {
    let typed = codex_protocol::rollout::parse_rollout_line_typed(line).ok()?;
    let codex_protocol::rollout::ParsedRecord::Line(line) = typed.record else {
        return None;
    };
    let codex_protocol::rollout::RolloutItem::ResponseItem(item) = &line.item else {
        return None;
    };
    let link = item.call_link()?;
    Some((link.channel(), link.call_id?.to_string()))
}

#[test]
fn an_outputs_call_id_is_read_where_codex_writes_it() {
    let function = r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"{\"call_id\":\"no\"}"}}"#;
    let custom = r#"{"timestamp":"t","ordinal":3,"type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"c-2","output":[]}}"#;
    assert_eq!(
        call_id(function),
        Some((OutputChannel::Function, "call_1".to_string()))
    );
    assert_eq!(
        call_id(custom),
        Some((OutputChannel::CustomTool, "c-2".to_string()))
    );
    assert_eq!(call_id(function), parsed_call_id(function.as_bytes()));
    assert_eq!(call_id(custom), parsed_call_id(custom.as_bytes()));
    for other in [
        // Not first after the type: parse it.
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","output":"x","call_id":"call_1"}}"#,
        // An escape in the id.
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"call\u005f1","output":"x"}}"#,
        // A call, not an output; an event naming a call.
        r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call","call_id":"call_1","name":"f","arguments":"{}"}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_1"}}"#,
        // Another shape.
        r#"{"type":"response_item","timestamp":"t","payload":{"type":"function_call_output","call_id":"call_1","output":"x"}}"#,
    ] {
        assert_eq!(call_id(other), None, "{other}");
    }
}

#[test]
fn an_output_whose_id_is_written_twice_does_not_parse() {
    // The id read is the first; were the line read with the second, it would not be its id.
    let twice = r#"{"timestamp":"t","type":"response_item","payload":{"type":"function_call_output","call_id":"a","output":"x","call_id":"b"}}"#;
    assert_eq!(
        call_id(twice),
        Some((OutputChannel::Function, "a".to_string()))
    );
    assert!(codex_protocol::rollout::parse_rollout_line_typed(twice.as_bytes()).is_err());
}

#[test]
fn every_real_output_whose_id_is_read_parses_to_that_id() -> Result<(), Box<dyn std::error::Error>>
{
    let Some(files) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    let mut read = 0;
    for path in files {
        for (number, line) in std::fs::read(&path)?
            .split(|&byte| byte == b'\n')
            .enumerate()
        {
            let Some((channel, id)) = output_call_id(line) else {
                continue;
            };
            read += 1;
            if let Some(parsed) = parsed_call_id(line) {
                let at = format!("{}:{}", path.display(), number + 1);
                assert_eq!((channel, id.to_string()), parsed, "{at}");
            }
        }
    }
    assert!(
        read > 0,
        "the real files hold tool outputs in Codex's shape"
    );
    Ok(())
}
