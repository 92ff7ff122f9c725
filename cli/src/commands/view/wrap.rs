//! Wrapping a line of the thread pane to the terminal's width, at word boundaries.

use unicode_width::UnicodeWidthChar;

use super::line::{Line, Span, Tone};

/// `line` cut into rows at most `width` columns wide, at spaces: a word that does not fit
/// what is left of a row starts the next one (the spaces before it are dropped), and only a
/// word longer than a whole row is cut inside. A continued row starts with two spaces.
pub(super) fn wrap(line: Line, width: usize) -> Vec<Line> {
    let width = width.max(1);
    let mut rows = Rows {
        rows: vec![Vec::new()],
        used: 0,
        start: 0,
        width,
    };
    for span in line {
        for piece in pieces(&span.text) {
            let piece_width: usize = piece.chars().map(|ch| ch.width().unwrap_or(0)).sum();
            if rows.used + piece_width > width && rows.used > rows.start {
                if piece.starts_with(' ') {
                    rows.break_row();
                    continue;
                }
                if piece_width <= width.saturating_sub(2) {
                    rows.break_row();
                }
            }
            if rows.used == rows.start && rows.start > 0 && piece.starts_with(' ') {
                continue;
            }
            rows.push(piece, span.tone);
        }
    }
    rows.rows
}

/// The rows being wrapped, and how much of the last one is used.
struct Rows {
    rows: Vec<Line>,
    used: usize,
    /// Where the text of the last row starts (after a continued row's indent).
    start: usize,
    width: usize,
}

impl Rows {
    fn break_row(&mut self) {
        self.rows.push(vec![Span {
            text: "  ".to_owned(),
            tone: Tone::Dim,
        }]);
        self.used = 2;
        self.start = 2;
    }

    /// Appends `text`, cutting it where a row is full.
    fn push(&mut self, text: &str, tone: Tone) {
        let mut part = String::new();
        for ch in text.chars() {
            let w = ch.width().unwrap_or(0);
            if self.used + w > self.width {
                self.flush(&mut part, tone);
                self.break_row();
            }
            part.push(ch);
            self.used += w;
        }
        self.flush(&mut part, tone);
    }

    fn flush(&mut self, part: &mut String, tone: Tone) {
        if !part.is_empty()
            && let Some(row) = self.rows.last_mut()
        {
            row.push(Span {
                text: std::mem::take(part),
                tone,
            });
        }
    }
}

/// `text` as runs of spaces and runs of anything else, in order.
fn pieces(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = text;
    std::iter::from_fn(move || {
        let first = rest.chars().next()?;
        let space = first == ' ';
        let end = rest
            .char_indices()
            .find(|(_, ch)| (*ch == ' ') != space)
            .map_or(rest.len(), |(at, _)| at);
        let (piece, after) = rest.split_at(end);
        rest = after;
        Some(piece)
    })
}

#[cfg(test)]
#[path = "wrap_tests.rs"]
mod tests;
