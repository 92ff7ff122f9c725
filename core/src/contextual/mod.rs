//! Contextual fragments: runtime context that travels in ordinary `user` and `developer`
//! messages, and the rules that tell it apart from what a person or the application wrote.
//!
//! - [`registry`]: the markers, as data in one place;
//! - [`user`] / [`developer`]: matching one text against the registry;
//! - [`hook_prompt`]: hook prompt messages (parsed before plain user messages);
//! - [`inter_agent`]: assistant messages that hand work to another agent;
//! - [`fragments`]: rendering fragments and merging adjacent ones into messages.
//!
//! The message-level questions other layers ask (event mapping, turn boundaries, rollback)
//! are the functions of this module; none of them re-implements the matching.

pub(crate) mod developer;
pub(crate) mod fragments;
pub(crate) mod hook_prompt;
mod hook_xml;
pub(crate) mod inter_agent;
pub(crate) mod registry;
pub(crate) mod user;

use codex_protocol::models::ContentItem;

pub use developer::match_developer_fragment;
pub use fragments::{
    ContextFragment, FragmentError, FragmentKind, FragmentRole, PromptSlot, build_text_message,
    merge_context_fragments,
};
pub use hook_prompt::{
    build_hook_prompt_message, parse_hook_prompt_fragment, parse_hook_prompt_message,
    parse_visible_hook_prompt_message, render_hook_prompt_fragment,
};
pub use inter_agent::is_inter_agent_instruction_content;
pub use registry::{DeveloperFragmentKind, UserFragmentKind};
pub use user::match_user_fragment;

/// Whether one content part of a user message is registered runtime context: an
/// `input_text` that is a hook prompt element or matches a registered user fragment.
pub(crate) fn is_contextual_user_fragment(part: &ContentItem) -> bool {
    let ContentItem::InputText { text } = part else {
        return false;
    };
    parse_hook_prompt_fragment(text).is_some() || match_user_fragment(text).is_some()
}

/// Whether a user message's content is context rather than the person's words.
///
/// True when ANY part is a contextual fragment: a message mixing injected context with other
/// text is still injected (it is not a user turn and not shown as the person's message).
pub(crate) fn is_contextual_user_message_content(content: &[ContentItem]) -> bool {
    content.iter().any(is_contextual_user_fragment)
}

/// Whether one content part of a developer message starts with a registered prefix.
pub(crate) fn is_contextual_dev_fragment(part: &ContentItem) -> bool {
    match part {
        ContentItem::InputText { text } => match_developer_fragment(text).is_some(),
        _ => false,
    }
}

/// Whether a developer message carries registered runtime context (any part matches).
pub(crate) fn is_contextual_dev_message_content(content: &[ContentItem]) -> bool {
    content.iter().any(is_contextual_dev_fragment)
}

/// Whether a developer message also carries something that is not registered context (any
/// part does not match, media included). Rollback removes such a "mixed" bundle with the
/// turn it precedes, like any contextual developer message, and then clears the reference
/// context item, since what the bundle set up is gone with it.
pub(crate) fn has_non_contextual_dev_message_content(content: &[ContentItem]) -> bool {
    content.iter().any(|part| !is_contextual_dev_fragment(part))
}

#[cfg(test)]
#[path = "contextual_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "fragments_tests.rs"]
mod fragments_tests;
