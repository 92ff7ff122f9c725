//! The semantic projection of a [`ResponseItem`]: what a person sees of it.
//!
//! [`parse_turn_item`] answers "what should be shown for this item", not "does a user turn
//! start here" (that is [`crate::turn_boundary::is_user_turn_boundary`]) and not "what does the
//! model see" (that is history). Items that only the model or the runtime consume map to
//! `None`; tool calls and their outputs become turn items elsewhere, in the tool runners.

use codex_protocol::items::{
    AgentMessageContent, AgentMessageItem, ImageGenerationItem, ReasoningItem, TurnItem,
    UserMessageItem, WebSearchItem,
};
use codex_protocol::models::{
    ContentItem, MessagePhase, ReasoningItemContent, ReasoningItemReasoningSummary, ResponseItem,
    WebSearchAction,
};
use codex_protocol::user_input::UserInput;
use tracing::warn;
use uuid::Uuid;

use crate::contextual::hook_prompt::visible_hook_prompt_item;
use crate::contextual::is_contextual_user_message_content;
use crate::session::clock::{IdSource, fresh_item_id};

/// Projects one response item into the turn item a client shows, or `None` when the item is
/// not shown through this path.
///
/// - user message: a hook prompt first, else the person's message, else `None` (context);
/// - assistant message: always an agent message, phase unchanged;
/// - system and unknown roles: `None`;
/// - reasoning: summary and raw content (both kinds), empty id when missing;
/// - web search: action `Other` and empty query when the action is missing;
/// - image generation: `None` without an id;
/// - everything else (tool calls and outputs, agent messages, compaction, `Other`): `None`.
///
/// The ids an item has no source for are minted as upstream mints them (a user message's,
/// and a hook prompt's or agent message's without a message id); a session uses
/// `parse_turn_item_with_ids` (crate-internal) so that they come from its id source.
pub fn parse_turn_item(item: &ResponseItem) -> Option<TurnItem> {
    project(item, None)
}

/// [`parse_turn_item`] for a session: every id it mints comes from `ids` (a user message
/// always gets a fresh one; a hook prompt or agent message one only when the message has
/// none), so a session built with [`crate::session::clock::SequentialIds`] projects the same
/// ids on every run.
pub(crate) fn parse_turn_item_with_ids(
    item: &ResponseItem,
    ids: &dyn IdSource,
) -> Option<TurnItem> {
    project(item, Some(ids))
}

/// The projection of both: fresh ids from `ids`, or upstream's when `None`.
fn project(item: &ResponseItem, ids: Option<&dyn IdSource>) -> Option<TurnItem> {
    match item {
        ResponseItem::Message {
            id,
            role,
            content,
            phase,
            ..
        } => match role.as_str() {
            "user" => visible_hook_prompt_item(id.as_deref(), content, ids)
                .map(TurnItem::HookPrompt)
                .or_else(|| parse_user_message(content, ids).map(TurnItem::UserMessage)),
            "assistant" => Some(TurnItem::AgentMessage(parse_agent_message(
                id.as_deref(),
                content,
                phase.clone(),
                ids,
            ))),
            _ => None,
        },
        ResponseItem::Reasoning {
            id,
            summary,
            content,
            ..
        } => Some(TurnItem::Reasoning(ReasoningItem {
            id: id.as_deref().unwrap_or_default().to_string(),
            summary_text: summary
                .iter()
                .map(|entry| match entry {
                    ReasoningItemReasoningSummary::SummaryText { text } => text.clone(),
                })
                .collect(),
            raw_content: content
                .iter()
                .flatten()
                .map(|entry| ReasoningItemContent::text(entry).to_string())
                .collect(),
        })),
        ResponseItem::WebSearchCall { id, action, .. } => {
            let (action, query) = match action {
                Some(action) => (action.clone(), web_search_action_detail(action)),
                None => (WebSearchAction::Other, String::new()),
            };
            Some(TurnItem::WebSearch(WebSearchItem {
                id: id.as_deref().unwrap_or_default().to_string(),
                query,
                action,
                results: None,
            }))
        }
        ResponseItem::ImageGenerationCall {
            id,
            status,
            revised_prompt,
            result,
            ..
        } => Some(TurnItem::ImageGeneration(ImageGenerationItem {
            id: id.as_deref()?.to_string(),
            status: status.clone(),
            revised_prompt: revised_prompt.clone(),
            result: result.clone(),
            saved_path: None,
        })),
        _ => None,
    }
}

/// The person's message, or `None` when the content is registered context.
///
/// Parts keep their order. Label texts framing an image or audio part (`<image name=...>`,
/// `<image>`, `</image>` and the audio equivalents) are dropped while the media stays; an
/// `output_text` has no place in user input and is dropped with a warning. An image known only
/// by a provider file id keeps that id in `image_url` (so its place in the message is not
/// lost). The item gets a fresh id (from `ids` when given, else a UUID v7): the response
/// item's id is not reused.
pub(crate) fn parse_user_message(
    content: &[ContentItem],
    ids: Option<&dyn IdSource>,
) -> Option<UserMessageItem> {
    if is_contextual_user_message_content(content) {
        return None;
    }
    let mut inputs = Vec::with_capacity(content.len());
    for (index, part) in content.iter().enumerate() {
        match part {
            ContentItem::InputText { text } => {
                if !is_media_label(content, index, text) {
                    inputs.push(UserInput::text(text.clone()));
                }
            }
            ContentItem::InputImage {
                image_url,
                file_id,
                detail,
            } => match image_url.as_ref().or(file_id.as_ref()) {
                Some(reference) => inputs.push(UserInput::Image {
                    image_url: reference.clone(),
                    detail: *detail,
                }),
                None => warn!("Image without url or file id in user message; skipped"),
            },
            ContentItem::InputAudio { audio_url } => inputs.push(UserInput::Audio {
                audio_url: audio_url.clone(),
            }),
            ContentItem::OutputText { text, .. } => {
                warn!("Output text in user message: {text}");
            }
        }
    }
    let mut message = UserMessageItem::new(&inputs);
    if let Some(ids) = ids {
        message.id = ids.next_uuid().to_string();
    }
    Some(message)
}

/// The agent's message: every text part (`output_text`, and `input_text` for older
/// records), media dropped with a warning, phase as given; when the message has no id, a fresh
/// one from `ids`, else a UUID v4 as upstream mints it.
pub(crate) fn parse_agent_message(
    id: Option<&str>,
    content: &[ContentItem],
    phase: Option<MessagePhase>,
    ids: Option<&dyn IdSource>,
) -> AgentMessageItem {
    let mut parts = Vec::with_capacity(content.len());
    for part in content {
        match part {
            ContentItem::InputText { text } | ContentItem::OutputText { text, .. } => {
                parts.push(AgentMessageContent::Text { text: text.clone() });
            }
            other => warn!("Unexpected content item in agent message: {other:?}"),
        }
    }
    let id = id.map_or_else(
        || fresh_item_id(ids, || Uuid::new_v4().to_string()),
        str::to_string,
    );
    let mut item = AgentMessageItem::new(id, parts);
    item.phase = phase;
    item
}

/// A one-line description of a web search action: the query (with ` ...` when there were
/// several), the opened URL, or `'pattern' in url`; empty when nothing is known.
pub fn web_search_action_detail(action: &WebSearchAction) -> String {
    match action {
        WebSearchAction::Search { query, queries } => {
            let query = query.as_deref().filter(|query| !query.is_empty());
            match (query, queries.as_deref()) {
                (Some(query), _) => query.to_string(),
                (None, Some([first, rest @ ..])) if !first.is_empty() && !rest.is_empty() => {
                    format!("{first} ...")
                }
                (None, Some([first, ..])) => first.clone(),
                (None, _) => String::new(),
            }
        }
        WebSearchAction::OpenPage { url } => url.clone().unwrap_or_default(),
        WebSearchAction::FindInPage { url, pattern } => match (pattern, url) {
            (Some(pattern), Some(url)) => format!("'{pattern}' in {url}"),
            (Some(pattern), None) => format!("'{pattern}'"),
            (None, Some(url)) => url.clone(),
            (None, None) => String::new(),
        },
        WebSearchAction::Other => String::new(),
    }
}

/// Whether the text at `index` only frames the media part next to it: an opening label
/// right before an image (or audio) part, or a closing tag right after one.
fn is_media_label(content: &[ContentItem], index: usize, text: &str) -> bool {
    let next = content.get(index + 1);
    let previous = index.checked_sub(1).and_then(|i| content.get(i));
    let before_image = next.is_some_and(ContentItem::is_image);
    let after_image = previous.is_some_and(ContentItem::is_image);
    let before_audio = next.is_some_and(ContentItem::is_audio);
    let after_audio = previous.is_some_and(ContentItem::is_audio);
    (before_image && is_open_label(text, "image"))
        || (after_image && text == "</image>")
        || (before_audio && is_open_label(text, "audio"))
        || (after_audio && text == "</audio>")
}

/// `<{tag}>` exactly, or a named label `<{tag} name=...>` (exact case, as Codex writes it).
fn is_open_label(text: &str, tag: &str) -> bool {
    let Some(rest) = text
        .strip_prefix('<')
        .and_then(|rest| rest.strip_prefix(tag))
    else {
        return false;
    };
    rest == ">" || (rest.starts_with(" name=") && rest.ends_with('>'))
}

#[cfg(test)]
#[path = "event_mapping_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "event_mapping_model_items_tests.rs"]
mod model_items_tests;
