//! Strings from a session file made safe to place in an HTML page.
//!
//! Every string from a file reaches the page through [`text`] (element content and attribute
//! values alike: it escapes both quote kinds), so no content can open a tag, end an
//! attribute, or close the `<details>` it sits in. Characters an HTML parser rejects or a
//! reader cannot see are made visible first: C0 and C1 controls and the bidirectional
//! overrides become the tool's terminal escapes (`\x1b`, `\u{202e}`, see
//! `output::sanitize`), noncharacters become U+FFFD, and `\r\n` is a line break.

use std::fmt::Write;

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

/// A line timestamp as a `<time>` element: the UTC text (and a `datetime` the page's script
/// turns into the reader's local time, keeping UTC in the tooltip). A timestamp that is not
/// RFC 3339 is shown as plain escaped text.
pub(crate) fn time(out: &mut String, at: &str, class: &str) {
    use chrono::{Datelike, Timelike};
    match chrono::DateTime::parse_from_rfc3339(at) {
        Ok(parsed) => {
            let utc = parsed.with_timezone(&chrono::Utc);
            // The common case from codex-rollout's line timestamp (chrono's format strings
            // are parsed on every call); the same text as `to_rfc3339_opts(Millis, true)` and
            // `%Y-%m-%d %H:%M:%S UTC`, which stay for the years it writes otherwise and leap
            // seconds.
            if (0..=9999).contains(&utc.year()) && utc.nanosecond() < 1_000_000_000 {
                let machine = codex_rollout::format_line_timestamp(utc);
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
            } else {
                let machine = utc.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                let shown = utc.format("%Y-%m-%d %H:%M:%S UTC");
                let _ = write!(
                    out,
                    r#"<time class="{class}" datetime="{machine}" title="{shown}">{shown}</time>"#
                );
            }
        }
        Err(_) => {
            let _ = write!(out, r#"<span class="{class}">{}</span>"#, text(at));
        }
    }
}

#[cfg(test)]
#[path = "escape_tests.rs"]
mod tests;
