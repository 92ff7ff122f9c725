//! The head of a session file: its session meta and the first user message, as a preview.
//!
//! Only the top of the file is read. The meta is the first line; the first user message
//! follows the initial context, usually within a dozen lines, but a long developer preamble
//! can push it down, so the search continues a little further (bounded, so a session with no
//! user message costs a fixed amount).
//!
//! The model comes from the same lines: the first `turn_context` or `thread_settings_applied`
//! that names one (Codex writes the turn context right before or after the first user
//! message). The reading stops once meta, preview and model are found, or at the same bound.

use std::path::Path;

use codex_core::parse_turn_item;
use codex_protocol::event::{EventMsg, UserMessageEvent};
use codex_protocol::items::{TurnItem, UserMessageItem};
use codex_protocol::rollout::{RolloutItem, SessionMetaLine};
use codex_protocol::user_input::UserInput;

use super::{next_line, open_head, parse_head_line};

/// Lines read while looking for the session meta.
pub const HEAD_RECORD_LIMIT: usize = 10;
/// Further lines read while looking for the first user message.
pub const USER_EVENT_SCAN_LIMIT: usize = 200;
/// Old Codex versions started the user's text with this heading; it is not part of what the
/// person typed.
const USER_MESSAGE_BEGIN: &str = "## My request for Codex:";
/// The preview of a message that holds only images.
const IMAGE_PREVIEW: &str = "[Image]";

/// What the head of a session file says.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HeadSummary {
    /// The first session meta, if found near the top.
    pub session_meta: Option<SessionMetaLine>,
    /// The first user message as one line of text, if found within the scan limit.
    pub preview: Option<String>,
    /// The model of the first `turn_context` or `thread_settings_applied` that names one, if
    /// found within the scan limit.
    pub model: Option<String>,
}

/// Reads the head of `path`. Lines that do not parse are skipped (a torn or foreign line at
/// the top does not hide the rest); only I/O errors fail.
pub fn read_head_summary(path: &Path) -> std::io::Result<HeadSummary> {
    let mut reader = open_head(path)?;
    let mut buf = Vec::new();
    let mut head = HeadSummary::default();
    let mut lines = 0;
    while lines < HEAD_RECORD_LIMIT + USER_EVENT_SCAN_LIMIT && next_line(&mut reader, &mut buf)? {
        lines += 1;
        match parse_head_line(&buf) {
            Some(RolloutItem::SessionMeta(meta)) if head.session_meta.is_none() => {
                head.session_meta = Some(*meta);
            }
            Some(item) => {
                if head.model.is_none() {
                    head.model = model_of(&item);
                }
                if head.preview.is_none() {
                    head.preview = preview_of(&item);
                }
            }
            None => {}
        }
        if head.preview.is_some() && head.session_meta.is_some() && head.model.is_some() {
            break;
        }
        if lines >= HEAD_RECORD_LIMIT && head.session_meta.is_none() {
            break;
        }
    }
    Ok(head)
}

/// The model `item` names, if it is a turn context or a settings change that names one.
fn model_of(item: &RolloutItem) -> Option<String> {
    let model = match item {
        RolloutItem::TurnContext(context) => context.model.as_str(),
        RolloutItem::EventMsg(EventMsg::ThreadSettingsApplied(event)) => {
            event.thread_settings.model.as_deref()?
        }
        _ => return None,
    };
    (!model.is_empty()).then(|| model.to_string())
}

/// The preview text if `item` is a message the person typed: a `user_message` event, or a
/// user `message` item that core's own mapping shows as a user message (contextual
/// fragments such as `<environment_context>` are not).
fn preview_of(item: &RolloutItem) -> Option<String> {
    match item {
        RolloutItem::EventMsg(EventMsg::UserMessage(event)) => event_preview(event),
        RolloutItem::ResponseItem(response) => match parse_turn_item(response)? {
            TurnItem::UserMessage(message) => item_preview(&message),
            _ => None,
        },
        _ => None,
    }
}

fn event_preview(event: &UserMessageEvent) -> Option<String> {
    let has_images = event
        .images
        .as_ref()
        .is_some_and(|images| !images.is_empty())
        || !event.local_images.is_empty();
    text_or_image(&event.message, has_images)
}

fn item_preview(message: &UserMessageItem) -> Option<String> {
    let has_images = message.content.iter().any(|input| {
        matches!(
            input,
            UserInput::Image { .. } | UserInput::LocalImage { .. }
        )
    });
    text_or_image(&message.message(), has_images)
}

fn text_or_image(text: &str, has_images: bool) -> Option<String> {
    let text = text.strip_prefix(USER_MESSAGE_BEGIN).unwrap_or(text).trim();
    if !text.is_empty() {
        Some(text.to_string())
    } else if has_images {
        Some(IMAGE_PREVIEW.to_string())
    } else {
        None
    }
}
