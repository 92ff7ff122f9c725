//! Rolling history back by whole user turns.
//!
//! A turn starts at a turn boundary ([`is_user_turn_boundary`]): a person's message, an
//! agent message, an inter-agent instruction. Contextual messages are not boundaries, so the
//! session prefix (instructions, environment) written before the first real turn is never
//! rolled back. Context updates written just above a rolled-back turn (new permissions, a
//! changed environment) belong to that turn and go with it.

use codex_protocol::models::ContentItem;
use codex_protocol::models::ResponseItem;

use crate::contextual::DeveloperFragmentKind;
use crate::contextual::has_non_contextual_dev_message_content;
use crate::contextual::is_contextual_dev_message_content;
use crate::contextual::is_contextual_user_message_content;
use crate::contextual::match_developer_fragment;
use crate::turn_boundary::is_user_turn_boundary;

/// Where a rollback cuts, and what it implies for the context baseline.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct RollbackCut {
    /// History keeps `items[..keep]`.
    pub(crate) keep: usize,
    /// A dropped developer bundle mixed context with persistent text, so the next turn cannot
    /// diff against the old baseline and must re-inject the full context.
    pub(crate) clears_reference_context: bool,
    /// Every turn was dropped and the first turn carried this turn id: model-switch notices
    /// stamped with it belong to the dropped turn (see [`strip_first_turn_model_switch`]).
    pub(crate) first_turn_id: Option<String>,
}

/// Positions of the turn boundaries in `items`, oldest first.
pub fn user_turn_positions(items: &[ResponseItem]) -> Vec<usize> {
    items
        .iter()
        .enumerate()
        .filter(|(_, item)| is_user_turn_boundary(item))
        .map(|(index, _)| index)
        .collect()
}

/// Computes the cut for dropping the last `num_turns` turns; `None` when there is no turn at
/// all (nothing to cut). `num_turns` larger than the number of turns keeps the session prefix.
pub(crate) fn plan_rollback(items: &[ResponseItem], num_turns: u32) -> Option<RollbackCut> {
    let positions = user_turn_positions(items);
    let first_turn = *positions.first()?;
    let from_end = usize::try_from(num_turns).unwrap_or(usize::MAX);
    let initial_cut = if from_end >= positions.len() {
        first_turn
    } else {
        positions[positions.len() - from_end]
    };
    let (keep, clears_reference_context) =
        trim_pre_turn_context_updates(items, first_turn, initial_cut);
    let first_turn_id = (keep == first_turn)
        .then(|| items[first_turn].turn_id().map(str::to_string))
        .flatten();
    Some(RollbackCut {
        keep,
        clears_reference_context,
        first_turn_id,
    })
}

/// Walks the cut up over the context updates directly above the dropped turn, never above the
/// first real turn. Returns the new cut and whether a mixed developer bundle was crossed.
///
/// A contextual developer message is crossed; if it also carried text that is not registered
/// context (a mixed bundle), the caller must clear the reference context item, because the
/// dropped bundle cannot be restored by diffing against the old baseline. A contextual user
/// message is crossed. Anything else stops the walk.
pub(crate) fn trim_pre_turn_context_updates(
    items: &[ResponseItem],
    first_turn: usize,
    mut cut: usize,
) -> (usize, bool) {
    let mut clears_reference_context = false;
    while cut > first_turn {
        match &items[cut - 1] {
            ResponseItem::Message { role, content, .. }
                if role == "developer" && is_contextual_dev_message_content(content) =>
            {
                if has_non_contextual_dev_message_content(content) {
                    clears_reference_context = true;
                }
                cut -= 1;
            }
            ResponseItem::Message { role, content, .. }
                if role == "user" && is_contextual_user_message_content(content) =>
            {
                cut -= 1;
            }
            _ => break,
        }
    }
    (cut, clears_reference_context)
}

/// When every turn is rolled back, removes `<model_switch>` notices that were stamped with the
/// first turn's id from the kept prefix: they announced a switch made for the dropped turn.
/// Developer messages left empty are dropped. Returns true when something changed.
pub(crate) fn strip_first_turn_model_switch(
    items: &mut Vec<ResponseItem>,
    first_turn_id: &str,
) -> bool {
    let mut changed = false;
    items.retain_mut(|item| {
        if item.turn_id() != Some(first_turn_id) {
            return true;
        }
        let ResponseItem::Message { role, content, .. } = item else {
            return true;
        };
        if role != "developer" {
            return true;
        }
        let before = content.len();
        content.retain(|part| !is_model_switch_text(part));
        if content.len() != before {
            changed = true;
        }
        !content.is_empty()
    });
    changed
}

/// True when the kept prefix holds a first-turn model-switch notice (read-only check, so a
/// shared prefix is copied only when it will change).
pub(crate) fn has_first_turn_model_switch(items: &[ResponseItem], first_turn_id: &str) -> bool {
    items.iter().any(|item| match item {
        ResponseItem::Message { role, content, .. } => {
            role == "developer"
                && item.turn_id() == Some(first_turn_id)
                && content.iter().any(is_model_switch_text)
        }
        _ => false,
    })
}

fn is_model_switch_text(part: &ContentItem) -> bool {
    match part {
        ContentItem::InputText { text } => {
            match_developer_fragment(text) == Some(DeveloperFragmentKind::ModelSwitch)
        }
        _ => false,
    }
}

#[cfg(test)]
#[path = "rollback_tests.rs"]
mod tests;
