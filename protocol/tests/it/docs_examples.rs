//! The JSON examples in `docs/protocol.md` are read by the model they illustrate.
//!
//! A worked example that the code would reject is worse than none, so every example value that
//! is complete JSON must parse into a known variant of one of the documented types (and not
//! into an `Other` fallback, except the page's own example of an unknown item). Blocks that
//! elide structure with `…` outside strings are not JSON and are skipped, but at least
//! [`MIN_CHECKED`] values must be checked so the test cannot pass by skipping everything.

use codex_protocol::event::EventMsg;
use codex_protocol::items::TurnItem;
use codex_protocol::models::ResponseInputItem;
use codex_protocol::models::ResponseItem;
use codex_protocol::user_input::UserInput;
use serde_json::Value;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const PROTOCOL_DOC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/protocol.md");

/// The page has more than this many complete JSON examples today.
const MIN_CHECKED: usize = 20;

/// The bodies of the ```json fenced blocks of a markdown text.
fn json_blocks(markdown: &str) -> Vec<String> {
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in markdown.lines() {
        match (&mut current, line.trim_start()) {
            (None, "```json") => current = Some(String::new()),
            (Some(block), "```") => {
                blocks.push(std::mem::take(block));
                current = None;
            }
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

/// The name of the documented type that reads `value` into a known variant, if any.
fn reader_of(value: &Value) -> Option<&'static str> {
    if serde_json::from_value::<ResponseItem>(value.clone())
        .is_ok_and(|item| item != ResponseItem::Other)
    {
        return Some("ResponseItem");
    }
    if serde_json::from_value::<ResponseInputItem>(value.clone()).is_ok() {
        return Some("ResponseInputItem");
    }
    if serde_json::from_value::<UserInput>(value.clone()).is_ok() {
        return Some("UserInput");
    }
    if serde_json::from_value::<EventMsg>(value.clone()).is_ok_and(|msg| msg != EventMsg::Other) {
        return Some("EventMsg");
    }
    if serde_json::from_value::<TurnItem>(value.clone()).is_ok() {
        return Some("TurnItem");
    }
    None
}

#[test]
fn protocol_doc_json_examples_parse_into_their_types() -> TestResult {
    let markdown = std::fs::read_to_string(PROTOCOL_DOC)?;
    let mut checked = 0;
    let mut skipped_blocks = 0;
    for block in json_blocks(&markdown) {
        let values: Result<Vec<Value>, _> = serde_json::Deserializer::from_str(&block)
            .into_iter::<Value>()
            .collect();
        let Ok(values) = values else {
            skipped_blocks += 1;
            continue;
        };
        for value in values {
            let tag = value.get("type").and_then(Value::as_str).unwrap_or("");
            if tag == "ghost_snapshot" {
                // The page's example of an unknown item: it must read as the fallback.
                assert_eq!(
                    serde_json::from_value::<ResponseItem>(value.clone())?,
                    ResponseItem::Other
                );
            } else {
                assert!(
                    reader_of(&value).is_some(),
                    "docs/protocol.md example is not read by any documented type: {value}"
                );
            }
            checked += 1;
        }
    }
    assert!(
        checked >= MIN_CHECKED,
        "only {checked} examples checked ({skipped_blocks} blocks skipped)"
    );
    Ok(())
}
