//! Recognising developer-role contextual fragments in one piece of text.
//!
//! Developer context is recognised by its opening prefix alone (see
//! [`super::registry::DEVELOPER_PREFIXES`]): Codex never checks the end of these.

use super::registry::{DEVELOPER_PREFIXES, DeveloperFragmentKind};

/// Which registered developer-role fragment `text` starts with, if any (after leading
/// whitespace, ASCII case-insensitively).
pub fn match_developer_fragment(text: &str) -> Option<DeveloperFragmentKind> {
    let trimmed = text.trim_start();
    DEVELOPER_PREFIXES
        .iter()
        .find(|spec| starts_with_ignore_ascii_case(trimmed, spec.prefix))
        .map(|spec| spec.kind)
}

fn starts_with_ignore_ascii_case(text: &str, prefix: &str) -> bool {
    !prefix.is_empty()
        && text
            .get(..prefix.len())
            .is_some_and(|head| head.eq_ignore_ascii_case(prefix))
}
