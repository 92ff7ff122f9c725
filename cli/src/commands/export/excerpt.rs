//! Long tool outputs shown as their head and tail, with what was left out said in numbers.
//!
//! Why head and tail: the start of an output says what ran, the end says how it ended (the
//! error, the test summary); the middle of a 10,000-line log is what a reader skips. Both
//! renderers cut the same way; `--json` keeps every output whole.

/// Lines kept from the start of a long output.
pub const HEAD_LINES: usize = 40;
/// Lines kept from the end of a long output.
pub const TAIL_LINES: usize = 20;
/// Characters kept on either side at most (one huge line is cut too).
const MAX_SIDE_CHARS: usize = 4_000;

/// An output, whole or cut.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Excerpt<'a> {
    pub head: std::borrow::Cow<'a, str>,
    /// What was left out, and the tail after it; `None` when the output is whole.
    pub cut: Option<Cut<'a>>,
    /// Lines and bytes of the whole output.
    pub total_lines: usize,
    pub total_bytes: usize,
}

/// The part of a long output left out, and its tail.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cut<'a> {
    pub omitted_lines: usize,
    pub omitted_bytes: usize,
    pub tail: std::borrow::Cow<'a, str>,
}

/// `text` as an excerpt (trailing newlines dropped).
pub fn excerpt(text: &str) -> Excerpt<'_> {
    let text = text.trim_end_matches(['\n', '\r']);
    let lines: Vec<&str> = text.split('\n').collect();
    let total_lines = if text.is_empty() { 0 } else { lines.len() };
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
    let head = clip_end(&lines[..head_lines].join("\n"));
    let tail = clip_start(&lines[total_lines - tail_lines..].join("\n"));
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

fn clip_end(text: &str) -> String {
    text.chars().take(MAX_SIDE_CHARS).collect()
}

fn clip_start(text: &str) -> String {
    let count = text.chars().count();
    text.chars()
        .skip(count.saturating_sub(MAX_SIDE_CHARS))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_outputs_are_whole() {
        let shown = excerpt("one\ntwo\n");
        assert_eq!(shown.head, "one\ntwo");
        assert_eq!(shown.cut, None);
        assert_eq!(shown.total_lines, 2);
    }

    #[test]
    fn long_outputs_keep_head_and_tail() {
        let long: String = (0..100).map(|n| format!("line {n}\n")).collect();
        let shown = excerpt(&long);
        assert_eq!(shown.head.lines().count(), HEAD_LINES);
        let cut = shown
            .cut
            .as_ref()
            .map(|cut| (cut.omitted_lines, cut.tail.lines().count()));
        assert_eq!(cut, Some((40, TAIL_LINES)));
        assert!(shown.cut.is_some_and(|cut| cut.tail.ends_with("line 99")));
        assert_eq!(shown.total_lines, 100);
    }

    #[test]
    fn one_huge_line_is_cut_too() {
        let huge = "x".repeat(20_000);
        let shown = excerpt(&huge);
        assert_eq!(shown.head.len(), MAX_SIDE_CHARS);
        assert_eq!(shown.total_bytes, 20_000);
    }
}
