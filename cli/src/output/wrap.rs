//! Word wrapping for human output, so long causes stay whole in an 80-column terminal
//! instead of being cut.

/// `text` (flattened to one paragraph) as lines of at most `width` columns, the first
/// starting with `first`, the rest with `indent` spaces. A word longer than a line is split.
/// The wrapping is textwrap's (display width, so wide characters count as two columns).
pub fn wrap(first: &str, text: &str, indent: usize, width: usize) -> Vec<String> {
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.is_empty() {
        return vec![first.to_string()];
    }
    let pad = " ".repeat(indent);
    let options = textwrap::Options::new(width.max(1))
        .initial_indent(first)
        .subsequent_indent(&pad)
        .break_words(true)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    textwrap::wrap(&flat, options)
        .into_iter()
        .map(std::borrow::Cow::into_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wraps_at_word_boundaries_with_a_hanging_indent() {
        let lines = wrap("  line 3   ", "alpha beta gamma delta", 11, 24);
        assert_eq!(
            lines,
            vec!["  line 3   alpha beta", "           gamma delta"]
        );
        assert!(lines.iter().all(|line| line.chars().count() <= 24));
    }

    #[test]
    fn splits_a_word_longer_than_a_line() {
        let lines = wrap("> ", "abcdefghij", 2, 6);
        assert_eq!(lines, vec!["> abcd", "  efgh", "  ij"]);
    }

    #[test]
    fn empty_text_is_the_first_part_alone() {
        assert_eq!(wrap("head", "", 2, 80), vec!["head"]);
    }
}
