//! The byte spans of the string values a disk-usage report counts apart, found in a line's
//! JSON text in one forward pass.
//!
//! Why a scanner and not a parse: the question is "how many bytes of this line's text are an
//! image or an encrypted blob", which is a question about the text, not the value (a parsed
//! string has lost its quotes and escapes). serde_json reports no offsets, so this walks the
//! text's tokens itself: strings (jumping between `"` and `\` with memchr), the structure
//! (`{ } [ ] , :`), and nothing else (numbers and literals need no attention). A line that is
//! not valid JSON gives the spans found before the point where it stops making sense.
//!
//! What is a span (the counting rule `docs/disk-usage.md` states):
//! - [`SpanKind::Image`]: a string **value** whose text starts with `"data:image/`, quotes
//!   included; an image written inside another string (JSON text inside a tool output) is
//!   part of that string, not an image;
//! - [`SpanKind::Encrypted`]: the string value of an `encrypted_content` key, quotes
//!   included (reasoning items, encrypted message parts, encrypted calls).

use std::ops::Range;

/// What a counted span is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum SpanKind {
    /// An inline image data URL.
    Image,
    /// An `encrypted_content` value.
    Encrypted,
}

const IMAGE_PREFIX: &[u8] = b"data:image/";
const ENCRYPTED_KEY: &[u8] = b"encrypted_content";

/// Calls `visit` with each counted span of `line`, in order. Spans never overlap.
pub(crate) fn scan_spans(line: &[u8], mut visit: impl FnMut(SpanKind, Range<usize>)) {
    // One entry per open container: `true` for an object.
    let mut stack: Vec<bool> = Vec::new();
    // In an object, whether the next string is a key.
    let mut expect_key = false;
    // Whether the value about to come belongs to an `encrypted_content` key.
    let mut encrypted_value = false;
    let mut at = 0;
    while let Some(&byte) = line.get(at) {
        match byte {
            b'"' => {
                let Some(end) = string_end(line, at + 1) else {
                    return;
                };
                let text = &line[at + 1..end];
                let span = at..end + 1;
                if expect_key {
                    expect_key = false;
                    encrypted_value = text == ENCRYPTED_KEY;
                } else {
                    if encrypted_value {
                        visit(SpanKind::Encrypted, span);
                    } else if text.starts_with(IMAGE_PREFIX) {
                        visit(SpanKind::Image, span);
                    }
                    encrypted_value = false;
                }
                at = end + 1;
                continue;
            }
            b'{' => {
                stack.push(true);
                expect_key = true;
                encrypted_value = false;
            }
            b'[' => {
                stack.push(false);
                expect_key = false;
                encrypted_value = false;
            }
            b'}' | b']' => {
                stack.pop();
                expect_key = false;
                encrypted_value = false;
            }
            b',' => {
                expect_key = stack.last().copied().unwrap_or(false);
                encrypted_value = false;
            }
            b':' => expect_key = false,
            b' ' | b'\t' | b'\r' | b'\n' => {}
            _ => {
                // A number or a literal: a value, so no `encrypted_content` string follows.
                encrypted_value = false;
            }
        }
        at += 1;
    }
}

/// The index of the `"` that closes the string whose text starts at `from`.
fn string_end(line: &[u8], mut from: usize) -> Option<usize> {
    loop {
        let found = from + memchr::memchr2(b'"', b'\\', line.get(from..)?)?;
        if line[found] == b'"' {
            return Some(found);
        }
        // A backslash escapes the next byte (`\"`, `\\`, `\u…` needs no more care).
        from = found + 2;
    }
}

#[cfg(test)]
#[path = "spans_tests.rs"]
mod tests;
