//! Long tool outputs shown as their head and tail, with what was left out said in numbers.
//!
//! Why head and tail: the start of an output says what ran, the end says how it ended (the
//! error, the test summary); the middle of a 10,000-line log is what a reader skips. Both
//! renderers cut the same way; `--json` keeps every output whole.

/// Lines kept from the start of a long output.
pub(crate) const HEAD_LINES: usize = 40;
/// Lines kept from the end of a long output.
pub(crate) const TAIL_LINES: usize = 20;
/// Characters kept on either side at most (one huge line is cut too).
const MAX_SIDE_CHARS: usize = 4_000;

/// An output, whole or cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Excerpt<'a> {
    pub head: std::borrow::Cow<'a, str>,
    /// What was left out, and the tail after it; `None` when the output is whole.
    pub cut: Option<Cut<'a>>,
    /// Lines and bytes of the whole output.
    pub total_lines: usize,
    pub total_bytes: usize,
}

/// The part of a long output left out, and its tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Cut<'a> {
    pub omitted_lines: usize,
    pub omitted_bytes: usize,
    pub tail: std::borrow::Cow<'a, str>,
}

/// `text` as an excerpt (trailing newlines dropped). The head and the tail are slices of
/// `text`: no line is copied.
pub(crate) fn excerpt(text: &str) -> Excerpt<'_> {
    let text = text.trim_end_matches(['\n', '\r']);
    let total_lines = if text.is_empty() {
        0
    } else {
        memchr::memchr_iter(b'\n', text.as_bytes()).count() + 1
    };
    let total_bytes = text.len();
    if total_lines <= HEAD_LINES + TAIL_LINES && text.len() <= 2 * MAX_SIDE_CHARS {
        return Excerpt {
            head: text.into(),
            cut: None,
            total_lines,
            total_bytes,
        };
    }
    let (head_lines, tail_lines) = if total_lines > HEAD_LINES + TAIL_LINES {
        (HEAD_LINES, TAIL_LINES)
    } else {
        (total_lines.div_ceil(2), total_lines / 2)
    };
    // The first `head_lines` lines end at the newline after them; the last `tail_lines`
    // start after the newline before them.
    let head_end = match head_lines.checked_sub(1) {
        Some(before) => memchr::memchr_iter(b'\n', text.as_bytes())
            .nth(before)
            .unwrap_or(text.len()),
        None => 0,
    };
    let tail_start = match tail_lines.checked_sub(1) {
        Some(after) => memchr::memrchr_iter(b'\n', text.as_bytes())
            .nth(after)
            .map_or(0, |at| at + 1),
        None => text.len(),
    };
    let head = clip_end(&text[..head_end]);
    let tail = clip_start(&text[tail_start..]);
    let omitted_bytes = total_bytes.saturating_sub(head.len() + tail.len());
    let omitted_lines = total_lines - head_lines - tail_lines;
    Excerpt {
        head: head.into(),
        cut: Some(Cut {
            omitted_lines,
            omitted_bytes,
            tail: tail.into(),
        }),
        total_lines,
        total_bytes,
    }
}

/// The first [`MAX_SIDE_CHARS`] characters of `text`.
fn clip_end(text: &str) -> &str {
    match text.char_indices().nth(MAX_SIDE_CHARS) {
        Some((end, _)) => &text[..end],
        None => text,
    }
}

/// The last [`MAX_SIDE_CHARS`] characters of `text`.
fn clip_start(text: &str) -> &str {
    match MAX_SIDE_CHARS
        .checked_sub(1)
        .and_then(|last| text.char_indices().rev().nth(last))
    {
        Some((start, _)) => &text[start..],
        None => text,
    }
}

#[cfg(test)]
#[path = "excerpt_tests.rs"]
mod tests;
