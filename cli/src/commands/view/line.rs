//! Lines of toned text, what the view draws: [`Tone`], [`Span`], [`Line`].
//!
//! Every piece of session text passes through [`LineBuilder::push`], which makes it inert
//! (`crate::output::sanitize`: escapes shown as `\x1b`, never sent), expands tabs and cuts a
//! line longer than [`MAX_LINE_CHARS`], so a hostile session can neither drive the terminal nor
//! make one line cost more than a screen.

use crate::output::sanitize::sanitize_text;

/// Longest line shown; the rest is counted, not drawn.
pub(crate) const MAX_LINE_CHARS: usize = 2000;

/// How a span is drawn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Tone {
    Plain,
    Dim,
    User,
    Heading,
    Strong,
    Emphasis,
    Code,
    Command,
    Added,
    Removed,
    Hunk,
    Good,
    Bad,
    Marker,
    Live,
}

/// A run of text in one tone.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Span {
    pub text: String,
    pub tone: Tone,
}

/// One line on screen.
pub(crate) type Line = Vec<Span>;

/// Builds one line from untrusted text (see the module docs); [`LineBuilder::finish`] gives
/// it, with a note line when it was cut.
#[derive(Debug, Default)]
pub(crate) struct LineBuilder {
    spans: Vec<Span>,
    chars: usize,
    cut: usize,
}

impl LineBuilder {
    /// Appends `text` (one line: a newline in it is shown escaped) in `tone`.
    pub(crate) fn push(&mut self, text: &str, tone: Tone) {
        let room = MAX_LINE_CHARS.saturating_sub(self.chars);
        let count = text.chars().count();
        let kept: String = if count > room {
            self.cut += count - room;
            text.chars().take(room).collect()
        } else {
            text.to_owned()
        };
        self.chars += kept.chars().count();
        if kept.is_empty() {
            return;
        }
        let shown = sanitize_text(&kept.replace('\t', "    ")).replace('\n', "\\n");
        self.spans.push(Span { text: shown, tone });
    }

    /// Whether nothing was pushed.
    pub(crate) fn is_empty(&self) -> bool {
        self.spans.is_empty() && self.cut == 0
    }

    /// The line, and a note when it was cut.
    pub(crate) fn finish(mut self) -> Vec<Line> {
        if self.cut > 0 {
            self.spans.push(Span {
                text: format!(" … ({} more characters)", self.cut),
                tone: Tone::Dim,
            });
        }
        vec![self.spans]
    }
}

/// The plain text of a line (tones dropped).
pub(crate) fn plain(line: &Line) -> String {
    line.iter().map(|span| span.text.as_str()).collect()
}
