//! Recognising user-role contextual fragments in one piece of text.
//!
//! The rules come from [`super::registry::USER_FRAGMENTS`]; this module only knows how to
//! apply each kind of rule. Hook prompts are recognised separately (see
//! [`super::hook_prompt`]) because they are shown to the person as their own item.

use super::registry::{
    EXTERNAL_CONTEXT_OPEN_PREFIX, INTERNAL_CONTEXT_CLOSE, INTERNAL_CONTEXT_OPEN_PREFIX,
    USER_FRAGMENTS, UserFragmentKind, UserMarkerRule,
};

/// Which registered user-role fragment `text` is, if any.
///
/// Only a complete, registered marker pair counts: leading and trailing whitespace is
/// ignored, tag case is ignored where the registry says so, and the body is free.
pub fn match_user_fragment(text: &str) -> Option<UserFragmentKind> {
    USER_FRAGMENTS
        .iter()
        .find(|spec| rule_matches(spec.rule, text))
        .map(|spec| spec.kind)
}

/// Whether `text` matches one registry rule.
pub(crate) fn rule_matches(rule: UserMarkerRule, text: &str) -> bool {
    match rule {
        UserMarkerRule::Marked { start, end } => marked_matches(text, start, end, false),
        UserMarkerRule::MarkedExact { start, end } => marked_matches(text, start, end, true),
        UserMarkerRule::InternalContext => internal_context_matches(text),
        UserMarkerRule::ExternalContext => external_context_matches(text),
        UserMarkerRule::Prefix(prefix) => {
            !prefix.is_empty() && text.trim_start().starts_with(prefix)
        }
    }
}

/// `start ... end` after trimming, both markers non-empty, and not overlapping.
pub(crate) fn marked_matches(text: &str, start: &str, end: &str, exact: bool) -> bool {
    if start.is_empty() || end.is_empty() {
        return false;
    }
    let trimmed = text.trim();
    if trimmed.len() < start.len() + end.len() {
        return false;
    }
    let (Some(head), Some(tail)) = (
        trimmed.get(..start.len()),
        trimmed.get(trimmed.len() - end.len()..),
    ) else {
        return false;
    };
    if exact {
        head == start && tail == end
    } else {
        head.eq_ignore_ascii_case(start) && tail.eq_ignore_ascii_case(end)
    }
}

/// `<codex_internal_context source="src">...</codex_internal_context>`, exact case, with
/// `src` matching `[a-z][a-z0-9_]*`.
fn internal_context_matches(text: &str) -> bool {
    let trimmed = text.trim();
    let Some(rest) = trimmed.strip_prefix(INTERNAL_CONTEXT_OPEN_PREFIX) else {
        return false;
    };
    let Some(rest) = rest.strip_prefix(" source=\"") else {
        return false;
    };
    let Some((source, rest)) = rest.split_once("\">") else {
        return false;
    };
    is_valid_internal_context_source(source) && rest.ends_with(INTERNAL_CONTEXT_CLOSE)
}

/// The source attribute grammar of internal model context: `[a-z][a-z0-9_]*`.
pub(crate) fn is_valid_internal_context_source(source: &str) -> bool {
    let mut chars = source.chars();
    matches!(chars.next(), Some(first) if first.is_ascii_lowercase())
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// `<external_{key}>...</external_{key}>`, exact case, non-empty key.
fn external_context_matches(text: &str) -> bool {
    let trimmed = text.trim();
    let Some(after_prefix) = trimmed.strip_prefix(EXTERNAL_CONTEXT_OPEN_PREFIX) else {
        return false;
    };
    let Some((key, rest)) = after_prefix.split_once('>') else {
        return false;
    };
    if key.is_empty() {
        return false;
    }
    let close = format!("</external_{key}>");
    rest.ends_with(&close)
}
