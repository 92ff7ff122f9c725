use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, parse_rollout_line_typed};
use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

use super::*;
use crate::usage::line_kind::{LineKind, line_kind};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Every token count of the real files reads the same through the small parse as through the
/// typed one (timestamp and event), or is left to the typed parse.
#[test]
fn the_small_parse_agrees_with_the_typed_one() -> TestResult {
    let mut lines: Vec<Vec<u8>> = vec![
        br#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13},"last_token_usage":{"input_tokens":10,"cached_input_tokens":4,"output_tokens":3,"reasoning_output_tokens":1,"total_tokens":13},"model_context_window":null},"rate_limits":null}}"#.to_vec(),
        br#"{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count","info":null,"rate_limits":null}}"#.to_vec(),
    ];
    if let Some(files) = real_jsonl_files()? {
        for path in files {
            let text = std::fs::read(&path)?;
            lines.extend(text.split(|byte| *byte == b'\n').map(<[u8]>::to_vec));
        }
    }
    let mut read = 0;
    for raw in lines {
        if line_kind(&raw) != Some(LineKind::TokenCount) {
            continue;
        }
        let typed = parse_rollout_line_typed(&raw)
            .ok()
            .and_then(|typed| typed.into_line());
        let Some(light) = token_count_line(&raw) else {
            continue;
        };
        read += 1;
        let typed = typed.ok_or("the typed parse refused a line the small one read")?;
        assert_eq!(light.timestamp, typed.timestamp);
        assert_eq!(
            RolloutItem::EventMsg(EventMsg::TokenCount(light.payload)),
            typed.item
        );
    }
    assert!(read >= 2);
    Ok(())
}

#[test]
fn a_line_it_cannot_read_goes_to_the_typed_parse() {
    for line in [
        // An escape in the timestamp: not borrowed.
        r#"{"timestamp":"2026-01-01T00:00:00.000\u005a","type":"event_msg","payload":{"type":"token_count","info":null}}"#,
        // A payload of another shape.
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":7}}}"#,
        r#"{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":null"#,
    ] {
        assert!(token_count_line(line.as_bytes()).is_none(), "{line}");
    }
}
