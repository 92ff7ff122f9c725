//! What an export shows of one turn: the cells of the transcript model
//! (app-server-protocol's `Transcript::replay_turn`, the cells `view` shows), each with what a
//! document adds to a terminal's cell: the time of its item, the images it holds, and an agent
//! message's phase.

use codex_app_server_protocol::transcript::{Cell, ThreadFacts, Transcript};
use codex_app_server_protocol::v2::{
    DynamicToolCallOutputContentItem, ThreadItem, TimedThreadItem, Turn, UserInput,
};

use super::image::Image;

/// One cell of a turn as a document shows it.
#[derive(Debug, Clone)]
pub(crate) struct Shown {
    pub cell: Cell,
    /// When the item started (else completed), as RFC 3339 UTC.
    pub at: Option<String>,
    /// The images the item holds (the person's, or a tool's output), in order.
    pub images: Vec<Image>,
    /// An agent message's phase: `commentary` or `final answer`.
    pub phase: Option<String>,
}

/// The cells of `turn`, in order, as a replay of its thread shows them.
pub(crate) fn shown_cells(turn: &Turn, facts: &ThreadFacts) -> Vec<Shown> {
    Transcript::replay_turn(turn, facts)
        .into_iter()
        .map(|cell| {
            let item = turn
                .items
                .iter()
                .find(|timed| timed.item.id() == cell.item_id && !cell.item_id.is_empty());
            Shown {
                at: item.and_then(item_time),
                images: item.map(|timed| images_of(&timed.item)).unwrap_or_default(),
                phase: item.and_then(|timed| phase_of(&timed.item)),
                cell,
            }
        })
        .collect()
}

/// Unix seconds as RFC 3339 UTC.
pub(crate) fn rfc3339_seconds(seconds: i64) -> Option<String> {
    rfc3339_ms(seconds.checked_mul(1000)?)
}

/// Unix milliseconds as RFC 3339 UTC (to the second).
pub(crate) fn rfc3339_ms(ms: i64) -> Option<String> {
    let at = chrono::DateTime::from_timestamp_millis(ms)?;
    Some(at.format("%Y-%m-%dT%H:%M:%SZ").to_string())
}

fn item_time(timed: &TimedThreadItem) -> Option<String> {
    timed
        .started_at_ms
        .or(timed.completed_at_ms)
        .filter(|ms| *ms > 0)
        .and_then(rfc3339_ms)
}

fn images_of(item: &ThreadItem) -> Vec<Image> {
    match item {
        ThreadItem::UserMessage { content, .. } => content
            .iter()
            .filter_map(|input| match input {
                UserInput::Image { url, .. } => Some(Image::from_url(url)),
                UserInput::LocalImage { path } => Some(Image::LocalFile(path.clone())),
                _ => None,
            })
            .collect(),
        ThreadItem::DynamicToolCall {
            content_items: Some(items),
            ..
        } => items
            .iter()
            .filter_map(|content| match content {
                DynamicToolCallOutputContentItem::InputImage { image_url } => {
                    Some(Image::from_url(image_url))
                }
                _ => None,
            })
            .collect(),
        ThreadItem::ImageView { path, .. } => vec![Image::LocalFile(path.clone())],
        _ => Vec::new(),
    }
}

fn phase_of(item: &ThreadItem) -> Option<String> {
    let ThreadItem::AgentMessage {
        phase: Some(phase), ..
    } = item
    else {
        return None;
    };
    let word = serde_json::to_value(phase).ok()?;
    Some(word.as_str()?.replace('_', " "))
}
