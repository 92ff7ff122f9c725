//! An agent message's Markdown as terminal lines (pulldown-cmark): headings, emphasis, lists,
//! quotes and links keep their shape; code blocks are kept verbatim, line for line.
//!
//! Nesting is capped ([`MAX_DEPTH`]): a hostile message of a thousand nested lists or quotes
//! indents no further than that, so it cannot push its text off the screen.

use pulldown_cmark::{CodeBlockKind, Event, HeadingLevel, Options, Parser, Tag, TagEnd};

use super::line::{Line, LineBuilder, Tone};

/// Deepest list or quote nesting that still indents.
pub(crate) const MAX_DEPTH: usize = 8;

/// The lines of `markdown`.
pub(crate) fn markdown_lines(markdown: &str) -> Vec<Line> {
    let mut state = State::default();
    let parser = Parser::new_ext(
        markdown,
        Options::ENABLE_STRIKETHROUGH | Options::ENABLE_TABLES,
    );
    for event in parser {
        state.event(event);
    }
    state.flush();
    while state.lines.last().is_some_and(Vec::is_empty) {
        state.lines.pop();
    }
    state.lines
}

#[derive(Default)]
struct State {
    lines: Vec<Line>,
    current: LineBuilder,
    /// Open lists: the next number of an ordered one, `None` for bullets.
    lists: Vec<Option<u64>>,
    quotes: usize,
    strong: usize,
    emphasis: usize,
    heading: bool,
    code_block: bool,
    link: Vec<String>,
}

impl State {
    fn prefix(&self) -> String {
        let depth = self.lists.len().min(MAX_DEPTH);
        let mut prefix = "> ".repeat(self.quotes.min(MAX_DEPTH));
        prefix.push_str(&"  ".repeat(depth.saturating_sub(1)));
        prefix
    }

    fn tone(&self) -> Tone {
        if self.heading {
            Tone::Heading
        } else if self.strong > 0 {
            Tone::Strong
        } else if self.emphasis > 0 {
            Tone::Emphasis
        } else if self.quotes > 0 {
            Tone::Dim
        } else {
            Tone::Plain
        }
    }

    fn start_line(&mut self) {
        if self.current.is_empty() {
            let prefix = self.prefix();
            if !prefix.is_empty() {
                self.current.push(&prefix, Tone::Dim);
            }
        }
    }

    fn flush(&mut self) {
        if !self.current.is_empty() {
            let line = std::mem::take(&mut self.current);
            self.lines.extend(line.finish());
        }
    }

    fn blank(&mut self) {
        self.flush();
        if self.lines.last().is_some_and(|line| !line.is_empty()) {
            self.lines.push(Vec::new());
        }
    }

    fn text(&mut self, text: &str, tone: Tone) {
        let mut first = true;
        for part in text.split('\n') {
            if !first {
                self.flush();
            }
            first = false;
            if part.is_empty() {
                continue;
            }
            self.start_line();
            self.current.push(part, tone);
        }
    }

    fn event(&mut self, event: Event<'_>) {
        match event {
            Event::Start(tag) => self.start(tag),
            Event::End(tag) => self.end(tag),
            Event::Text(text) if self.code_block => {
                for line in text.lines() {
                    self.start_line();
                    self.current.push("  ", Tone::Plain);
                    self.current.push(line, Tone::Code);
                    self.flush();
                }
            }
            Event::Text(text) => self.text(&text, self.tone()),
            Event::Code(code) => {
                self.start_line();
                self.current.push(&format!("`{code}`"), Tone::Code);
            }
            Event::Html(html) | Event::InlineHtml(html) => self.text(&html, Tone::Dim),
            Event::InlineMath(math) | Event::DisplayMath(math) => self.text(&math, Tone::Code),
            Event::FootnoteReference(name) => self.text(&format!("[^{name}]"), Tone::Dim),
            Event::SoftBreak => self.text(" ", self.tone()),
            Event::HardBreak => self.flush(),
            Event::Rule => {
                self.blank();
                self.current.push("───", Tone::Dim);
                self.flush();
            }
            Event::TaskListMarker(done) => {
                self.text(if done { "[x] " } else { "[ ] " }, Tone::Dim);
            }
        }
    }

    fn start(&mut self, tag: Tag<'_>) {
        match tag {
            Tag::Paragraph => self.start_line(),
            Tag::Heading { level, .. } => {
                self.blank();
                self.heading = true;
                let hashes = match level {
                    HeadingLevel::H1 => "# ",
                    HeadingLevel::H2 => "## ",
                    HeadingLevel::H3 => "### ",
                    _ => "#### ",
                };
                self.text(hashes, Tone::Heading);
            }
            Tag::BlockQuote(_) => {
                self.flush();
                self.quotes += 1;
            }
            Tag::CodeBlock(kind) => {
                self.flush();
                self.code_block = true;
                let lang = match kind {
                    CodeBlockKind::Fenced(lang) => lang.to_string(),
                    CodeBlockKind::Indented => String::new(),
                };
                self.start_line();
                self.current.push(&format!("```{lang}"), Tone::Dim);
                self.flush();
            }
            Tag::List(start) => {
                self.flush();
                self.lists.push(start);
            }
            Tag::Item => {
                self.flush();
                self.start_line();
                let marker = match self.lists.last_mut() {
                    Some(Some(number)) => {
                        let marker = format!("{number}. ");
                        *number += 1;
                        marker
                    }
                    _ => "- ".to_owned(),
                };
                self.current.push(&marker, Tone::Dim);
            }
            Tag::Emphasis => self.emphasis += 1,
            Tag::Strong => self.strong += 1,
            Tag::Link { dest_url, .. } | Tag::Image { dest_url, .. } => {
                self.link.push(dest_url.to_string());
            }
            Tag::TableRow | Tag::TableHead => self.start_line(),
            Tag::TableCell => self.text("| ", Tone::Dim),
            _ => {}
        }
    }

    fn end(&mut self, tag: TagEnd) {
        match tag {
            TagEnd::Paragraph => self.blank(),
            TagEnd::Heading(_) => {
                self.heading = false;
                self.blank();
            }
            TagEnd::BlockQuote(_) => {
                self.flush();
                self.quotes = self.quotes.saturating_sub(1);
                if self.quotes == 0 {
                    self.blank();
                }
            }
            TagEnd::CodeBlock => {
                self.code_block = false;
                self.start_line();
                self.current.push("```", Tone::Dim);
                self.blank();
            }
            TagEnd::List(_) => {
                self.flush();
                self.lists.pop();
                if self.lists.is_empty() {
                    self.blank();
                }
            }
            TagEnd::Item => self.flush(),
            TagEnd::Emphasis => self.emphasis = self.emphasis.saturating_sub(1),
            TagEnd::Strong => self.strong = self.strong.saturating_sub(1),
            TagEnd::Link | TagEnd::Image => {
                if let Some(url) = self.link.pop() {
                    self.text(&format!(" ({url})"), Tone::Dim);
                }
            }
            TagEnd::TableRow | TagEnd::TableHead => self.flush(),
            _ => {}
        }
    }
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
