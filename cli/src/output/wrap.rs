//! Word wrapping for human output, so long causes stay whole in an 80-column terminal
//! instead of being cut.

/// `text` (flattened to one paragraph) as lines of at most `width` characters, the first
/// starting with `first`, the rest with `indent` spaces. A word longer than a line is split.
pub fn wrap(first: &str, text: &str, indent: usize, width: usize) -> Vec<String> {
    let pad = " ".repeat(indent);
    let mut lines = Vec::new();
    let mut line = first.to_string();
    let mut line_len = line.chars().count();
    let mut empty = true;
    for word in text.split_whitespace() {
        let mut word: Vec<char> = word.chars().collect();
        loop {
            let sep = usize::from(!empty);
            if line_len + sep + word.len() <= width {
                if !empty {
                    line.push(' ');
                }
                line.extend(word.iter());
                line_len += sep + word.len();
                empty = false;
                break;
            }
            if empty {
                // Not even an empty line holds it: split the word at the line's end.
                let room = width.saturating_sub(line_len).max(1);
                line.extend(word.iter().take(room));
                word.drain(..room.min(word.len()));
                if word.is_empty() {
                    empty = false;
                    break;
                }
            }
            lines.push(std::mem::replace(&mut line, pad.clone()));
            line_len = indent;
            empty = true;
        }
    }
    lines.push(line);
    lines
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
