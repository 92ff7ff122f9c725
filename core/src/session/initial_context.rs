//! Compiling the initial context of a thread, and later context updates, from fragments.
//!
//! Runtime context arrives as [`ContextFragment`]s, each with a prompt slot. Compilation first
//! sorts sections by slot, then aggregates them, then orders the messages:
//! 1. one developer bundle: a model-switch instruction first (it overrides what follows), then
//!    the configured developer instructions, then `DeveloperPolicy` and
//!    `DeveloperCapabilities` sections (extension contributions, then world-state developer
//!    fragments), each section its own `input_text`;
//! 2. every `SeparateDeveloper` section (or fragment that requires a message of its own) as
//!    its own developer message, in order;
//! 3. one contextual user message with every `ContextualUser` section (AGENTS.md, the
//!    environment, ...); user fragments that require a message of their own follow it.
//!
//! Sections stay separate `input_text` parts rather than one joined string: the number of
//! messages stays stable while part boundaries survive for rollback and audit. Every compiled
//! item is stamped with the turn id.

use codex_protocol::models::ResponseItem;

use crate::contextual::fragments::ContextFragment;
use crate::contextual::fragments::FragmentRole;
use crate::contextual::fragments::PromptSlot;
use crate::contextual::fragments::build_text_message;
use crate::contextual::fragments::merge_context_fragments;

/// What the initial context is compiled from.
#[derive(Debug, Clone, Default)]
pub struct InitialContextInputs {
    /// Developer instructions from the configuration (unmarked text).
    pub developer_instructions: Option<String>,
    /// Sections contributed by extensions (thread and turn context contributors).
    pub extension_fragments: Vec<ContextFragment>,
    /// World-state fragments: environment, AGENTS.md, permissions, model switch, ...
    pub world_fragments: Vec<ContextFragment>,
}

/// Compiles the initial context; see the module docs for the order.
pub fn compile_initial_context(inputs: &InitialContextInputs, turn_id: &str) -> Vec<ResponseItem> {
    let mut model_switch: Vec<String> = Vec::new();
    let mut developer: Vec<String> = Vec::new();
    let mut separate_developer: Vec<String> = Vec::new();
    let mut contextual_user: Vec<String> = Vec::new();
    let mut separate_user: Vec<String> = Vec::new();

    if let Some(text) = inputs
        .developer_instructions
        .as_deref()
        .filter(|text| !text.is_empty())
    {
        developer.push(text.to_string());
    }
    let fragments = inputs
        .extension_fragments
        .iter()
        .chain(inputs.world_fragments.iter());
    for fragment in fragments {
        let section = fragment.render().to_string();
        if fragment.is_model_switch() {
            model_switch.push(section);
            continue;
        }
        match (fragment.slot(), fragment.requires_separate_message()) {
            (PromptSlot::SeparateDeveloper, _)
            | (PromptSlot::DeveloperPolicy | PromptSlot::DeveloperCapabilities, true) => {
                separate_developer.push(section);
            }
            (PromptSlot::DeveloperPolicy | PromptSlot::DeveloperCapabilities, false) => {
                developer.push(section);
            }
            (PromptSlot::ContextualUser, false) => contextual_user.push(section),
            (PromptSlot::ContextualUser, true) => separate_user.push(section),
        }
    }
    model_switch.append(&mut developer);

    let mut items: Vec<ResponseItem> = Vec::new();
    items.extend(build_text_message(FragmentRole::Developer, model_switch));
    for section in separate_developer {
        items.extend(build_text_message(FragmentRole::Developer, [section]));
    }
    items.extend(build_text_message(FragmentRole::User, contextual_user));
    for section in separate_user {
        items.extend(build_text_message(FragmentRole::User, [section]));
    }
    stamp_turn_id(&mut items, turn_id);
    items
}

/// Compiles a steady-state context update (fragments that changed since the last turn):
/// adjacent fragments of one role merge unless one needs its own message, order is kept, and a
/// model-switch instruction moves to the front.
pub fn compile_context_update(fragments: &[ContextFragment], turn_id: &str) -> Vec<ResponseItem> {
    let (switch, rest): (Vec<ContextFragment>, Vec<ContextFragment>) = fragments
        .iter()
        .cloned()
        .partition(ContextFragment::is_model_switch);
    let ordered: Vec<ContextFragment> = switch.into_iter().chain(rest).collect();
    let mut items = merge_context_fragments(&ordered);
    stamp_turn_id(&mut items, turn_id);
    items
}

fn stamp_turn_id(items: &mut [ResponseItem], turn_id: &str) {
    for item in items {
        item.set_turn_id_if_missing(turn_id);
    }
}

#[cfg(test)]
#[path = "initial_context_tests.rs"]
mod tests;
