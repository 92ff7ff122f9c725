//! Helpers shared by the integration tests: build items, read a rollout back.
#![allow(dead_code)]

use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_protocol::models::{ContentItem, ResponseItem};
use codex_protocol::rollout::{RolloutItem, parse_rollout_line, split_lines};

pub(crate) type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A user message item whose text is `text`.
pub(crate) fn user(text: &str) -> RolloutItem {
    RolloutItem::ResponseItem(ResponseItem::user_text(text))
}

/// An event item from its JSON.
pub(crate) fn event(json: serde_json::Value) -> Result<RolloutItem, serde_json::Error> {
    Ok(RolloutItem::EventMsg(serde_json::from_value::<EventMsg>(
        json,
    )?))
}

/// The text of a one-text message item, if it is one.
pub(crate) fn message_text(item: &RolloutItem) -> Option<&str> {
    match item {
        RolloutItem::ResponseItem(ResponseItem::Message { content, .. }) => {
            match content.as_slice() {
                [ContentItem::InputText { text, .. }] | [ContentItem::OutputText { text, .. }] => {
                    Some(text)
                }
                _ => None,
            }
        }
        _ => None,
    }
}

/// Every line of a rollout file, parsed; fails on any line that does not parse.
pub(crate) fn read_items(path: &Path) -> Result<Vec<RolloutItem>, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    assert!(
        bytes.is_empty() || bytes.ends_with(b"\n"),
        "file ends mid-line"
    );
    let mut items = Vec::new();
    for (number, line) in split_lines(&bytes) {
        let parsed = parse_rollout_line(line).map_err(|err| format!("line {number}: {err}"))?;
        let item = parsed.item().ok_or(format!("line {number}: no item"))?;
        items.push(item.clone());
    }
    Ok(items)
}

/// The texts of the message items of a file, in order (the session meta and events skipped).
pub(crate) fn read_texts(path: &Path) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    Ok(read_items(path)?
        .iter()
        .filter_map(message_text)
        .map(str::to_string)
        .collect())
}

/// Index of the first `session_meta` among `items` (the meta a fork rewrites).
pub(crate) fn first_session_meta_index(items: &[RolloutItem]) -> Option<usize> {
    items
        .iter()
        .position(|item| matches!(item, RolloutItem::SessionMeta(_)))
}
