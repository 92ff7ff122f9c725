//! Strings from a session file made safe to place in an HTML page.
//!
//! Every string from a file reaches the page through [`text`] (element content and attribute
//! values alike: it escapes both quote kinds), so no content can open a tag, end an
//! attribute, or close the `<details>` it sits in. Characters an HTML parser rejects or a
//! reader cannot see are made visible first: C0 and C1 controls and the bidirectional
//! overrides become the tool's terminal escapes (`\x1b`, `\u{202e}`, see
//! `output::sanitize`), noncharacters become U+FFFD, and `\r\n` is a line break.

use chrono::{DateTime, Utc};
use pulldown_cmark_escape::{FmtWriter, escape_html};

use crate::output::sanitize_text;

/// `raw` escaped for HTML text or a quoted attribute value, written where it is formatted
/// (`write!(out, "<pre>{}</pre>", text(raw))` copies plain text once, into `out`).
pub(crate) fn text(raw: &str) -> Text<'_> {
    Text(raw)
}

/// What [`text`] returns: `raw`, escaped as it is formatted.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Text<'a>(&'a str);

impl std::fmt::Display for Text<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let raw = self.0;
        // The common text: nothing to make visible, nothing to escape.
        if !any_byte::<true, true>(raw) && !crate::output::holds_terminal_control(raw) {
            return f.write_str(raw);
        }
        // The five HTML specials (`&<>"'`) as `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&#39;`.
        if needs_visible(raw) {
            return escape_html(FmtWriter(f), &made_visible(raw));
        }
        escape_html(FmtWriter(f), raw)
    }
}

/// The character by character form of [`text`], which it must equal.
#[cfg(test)]
fn escaped_text_by_characters(raw: &str) -> String {
    let visible = visible_by_characters(raw);
    let mut out = String::new();
    for c in visible.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `raw` with the characters an HTML parser rejects made visible (the module docs say how);
/// Markdown sources go through this before they are parsed.
pub(crate) fn visible(raw: &str) -> String {
    if !needs_visible(raw) {
        return raw.to_string();
    }
    made_visible(raw)
}

/// [`visible`] without its byte test.
fn made_visible(raw: &str) -> String {
    let unified = if raw.contains('\r') {
        std::borrow::Cow::Owned(raw.replace("\r\n", "\n"))
    } else {
        std::borrow::Cow::Borrowed(raw)
    };
    let sanitized = sanitize_text(&unified);
    // Noncharacters are encoded from a `0xef` or `0xf0` to `0xf4` byte on.
    if !sanitized.bytes().any(|byte| matches!(byte, 0xef..=0xf4)) {
        return sanitized.into_owned();
    }
    sanitized
        .chars()
        .map(|c| if is_noncharacter(c) { '\u{fffd}' } else { c })
        .collect()
}

/// The character by character form of [`visible`], which it must equal.
#[cfg(test)]
fn visible_by_characters(raw: &str) -> String {
    let unified = raw.replace("\r\n", "\n");
    sanitize_text(&unified)
        .chars()
        .map(|c| if is_noncharacter(c) { '\u{fffd}' } else { c })
        .collect()
}

/// False only when `raw` needs no change from [`visible`]: a byte test for the common text,
/// before any character is decoded. A noncharacter's encoding starts with `0xef` (U+FDD0 to
/// U+FDEF, U+FFFE, U+FFFF) or `0xf0` to `0xf4` (the other planes); a `\r` may start a
/// `\r\n`; the terminal controls are `output::holds_terminal_control`'s.
fn needs_visible(raw: &str) -> bool {
    any_byte::<true, false>(raw) || crate::output::holds_terminal_control(raw)
}

/// Whether a byte of `raw` is one of those looked for: with `VISIBLE`, a byte a change of
/// [`visible`] may start at ([`needs_visible`]), with `MARKUP`, the five HTML specials.
/// Tested a block of 64 bytes at a time with no branch inside a block, so that the test is
/// vectorized.
fn any_byte<const VISIBLE: bool, const MARKUP: bool>(raw: &str) -> bool {
    let special = |byte: u8| {
        let visible = (byte == b'\r') | (byte.wrapping_sub(0xef) < 6);
        let markup =
            (byte == b'&') | (byte == b'<') | (byte == b'>') | (byte == b'"') | (byte == b'\'');
        (VISIBLE & visible) | (MARKUP & markup)
    };
    raw.as_bytes()
        .chunks(64)
        .any(|chunk| chunk.iter().fold(false, |seen, &byte| seen | special(byte)))
}

fn is_noncharacter(c: char) -> bool {
    let code = u32::from(c);
    (0xfdd0..=0xfdef).contains(&code) || (code & 0xfffe) == 0xfffe
}

/// A time as a `<time>` element: the UTC text (and a `datetime` the page's script turns
/// into the reader's local time, keeping UTC in the tooltip).
pub(crate) fn time(out: &mut String, at: DateTime<Utc>, class: &str) {
    // codex-rollout's line timestamp: `to_rfc3339_opts(Millis, true)`'s text for every time
    // a session records, without chrono's format strings (parsed on every call).
    let machine = codex_rollout::format_line_timestamp(at);
    let date = machine.get(..10).unwrap_or_default();
    let clock = machine.get(11..19).unwrap_or_default();
    for piece in [
        r#"<time class=""#,
        class,
        r#"" datetime=""#,
        &machine,
        r#"" title=""#,
        date,
        " ",
        clock,
        r#" UTC">"#,
        date,
        " ",
        clock,
        " UTC</time>",
    ] {
        out.push_str(piece);
    }
}

#[cfg(test)]
#[path = "escape_tests.rs"]
mod tests;
