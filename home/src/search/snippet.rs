//! The text around a match, with the matched strings highlighted.
//!
//! Made here rather than by FTS5's `snippet()`: the trigram tokenizer's tokens are three
//! characters each, so FTS5's windows (counted in tokens) would be a few words long, and a
//! query whose terms are all shorter than a trigram has no `MATCH` for `snippet()` to work
//! on. Matching is by characters, case-insensitively (each character compared by the first
//! character of its lower case, so offsets stay those of the text).

/// Characters of context shown before the first match.
const BEFORE: usize = 30;
/// Characters a snippet holds at most (before highlighting and the `…` marks).
const WIDTH: usize = 120;

/// The part of `text` around the first of `terms` it holds (its start when it holds none),
/// every occurrence of a term in it wrapped in `highlight`.
pub(crate) fn snippet(text: &str, terms: &[String], highlight: &(String, String)) -> String {
    let chars: Vec<char> = text.chars().collect();
    let folded: Vec<char> = chars.iter().map(|&ch| fold(ch)).collect();
    let mut spans = Vec::new();
    for term in terms {
        let term: Vec<char> = term.chars().map(fold).collect();
        if term.is_empty() || term.len() > folded.len() {
            continue;
        }
        let mut at = 0;
        while at + term.len() <= folded.len() {
            if folded[at..at + term.len()] == term[..] {
                spans.push((at, at + term.len()));
                at += term.len();
            } else {
                at += 1;
            }
        }
    }
    spans.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(spans.len());
    for (start, end) in spans {
        match merged.last_mut() {
            Some(last) if start <= last.1 => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    let first = merged.first().map_or(0, |span| span.0);
    let mut start = first.saturating_sub(BEFORE);
    // Begin at a word when one starts shortly before.
    if start > 0
        && let Some(space) = (start..first).find(|&at| chars[at].is_whitespace())
    {
        start = space + 1;
    }
    let end = (start + WIDTH).min(chars.len()).max(first.min(chars.len()));
    let mut out = String::new();
    if start > 0 {
        out.push('…');
    }
    let mut at = start;
    for &(span_start, span_end) in &merged {
        if span_end <= start || span_start >= end {
            continue;
        }
        let (span_start, span_end) = (span_start.max(start), span_end.min(end));
        out.extend(&chars[at..span_start]);
        out.push_str(&highlight.0);
        out.extend(&chars[span_start..span_end]);
        out.push_str(&highlight.1);
        at = span_end;
    }
    out.extend(&chars[at..end]);
    if end < chars.len() {
        out.push('…');
    }
    out
}

/// `ch` as compared: the first character of its lower case.
fn fold(ch: char) -> char {
    ch.to_lowercase().next().unwrap_or(ch)
}

#[cfg(test)]
#[path = "snippet_tests.rs"]
mod tests;
