//! Items the tests record into a home.

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;

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
