//! What an export shows of one turn: the cells of the transcript model
//! (app-server-protocol's `Transcript::replay_turn`, the cells `view` shows), each with what a
//! document adds to a terminal's cell: the time of its item, the images it holds, and an agent
//! message's phase.

use chrono::{DateTime, Utc};
use codex_app_server_protocol::transcript::{Cell, ThreadFacts, Transcript};
use codex_app_server_protocol::v2::{
    DynamicToolCallOutputContentItem, ThreadItem, TimedThreadItem, Turn, UserInput,
};

use super::image::Image;

/// One cell of a turn as a document shows it.
#[derive(Debug, Clone)]
pub(crate) struct Shown {
    pub cell: Cell,
    /// When the item started (else completed), to the second.
    pub at: Option<DateTime<Utc>>,
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

/// Unix seconds as a time, in the years a session can record (0 to 9999: none else is
/// shown).
pub(crate) fn utc_second(seconds: i64) -> Option<DateTime<Utc>> {
    use chrono::Datelike;
    DateTime::from_timestamp(seconds, 0).filter(|at| (0..=9999).contains(&at.year()))
}

/// A time as the documents write it, RFC 3339 UTC to the second (`2025-09-24T19:22:20Z`).
pub(crate) fn rfc3339(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%dT%H:%M:%SZ").to_string()
}

fn item_time(timed: &TimedThreadItem) -> Option<DateTime<Utc>> {
    timed
        .started_at_ms
        .or(timed.completed_at_ms)
        .filter(|ms| *ms > 0)
        .and_then(|ms| utc_second(ms.div_euclid(1000)))
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
