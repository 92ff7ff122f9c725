//! Rendering a [`Transcript`] as one self-contained HTML page, written in order: [`head`]
//! (what needs every turn, the counts and the table of contents, comes from an
//! [`Overview`] made before), each part as it is built ([`Sections`]), then [`tail`].
//!
//! The page opens offline in any browser: its style and a small script are inline, images
//! are `data:` URLs, and it fetches nothing. It reads without the script. Session content is
//! untrusted, so every string is escaped ([`escape`]), Markdown is rendered without raw HTML
//! and cleaned by ammonia ([`markdown`]), and the page's Content-Security-Policy
//! ([`page`]) allows no other script, style, or request.
//!
//! Layout: a header with the session's facts, a table of contents when there are more than
//! a few turns, then one `<section>` per turn of the turn index, its status and start time in
//! the heading; reasoning and each tool call fold into `<details>`. Sections are
//! `content-visibility: auto`, so a browser lays out only what is on screen (a 1,000-turn
//! session scrolls as smoothly as a short one).

mod entries;
mod escape;
mod markdown;
mod page;

use std::fmt::Write;

use self::escape::{text, time};
use super::facts::{ContentsLine, Overview, describe_turn_status, header_facts};
use super::transcript::{Part, Transcript, TranscriptTurn};

/// Turns from which the page gets a table of contents.
const TOC_FROM_TURNS: usize = 4;

/// The page up to its table of contents: the fixed head and the header (`head`'s session
/// facts and the overview's counts). From a few turns on ([`has_contents`]) the table of
/// contents follows: [`contents_start`], each turn's [`Contents::row`], [`contents_end`].
pub(crate) fn head(head: &Transcript, overview: &Overview, redaction: Option<&str>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = head.thread_id.as_deref().unwrap_or("(no session meta)");
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta http-equiv=\"Content-Security-Policy\" content=\"{}\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"referrer\" content=\"no-referrer\">\n\
         <title>Codex session {}</title>\n<style>{}</style>\n</head>\n<body>\n<main>\n",
        page::content_security_policy(),
        text(title),
        page::STYLE
    );
    header(&mut out, head, overview, title, redaction);
    out
}

/// Whether the page has a table of contents.
pub(crate) fn has_contents(overview: &Overview) -> bool {
    overview.turns >= TOC_FROM_TURNS
}

/// The opening of the table of contents.
pub(crate) fn contents_start(overview: &Overview) -> String {
    format!(
        "<nav class=\"toc\"><details open><summary>Contents ({} turns)</summary><ol>\n",
        overview.turns
    )
}

/// The end of the table of contents.
pub(crate) fn contents_end() -> &'static str {
    "</ol></details></nav>\n"
}

/// The rows of the table of contents, one per turn in order (the rolled-back turns are
/// counted for their ids, as [`Sections`] counts them).
#[derive(Debug, Default)]
pub(crate) struct Contents {
    rolled_back: usize,
}

impl Contents {
    /// The row of the next turn.
    pub(crate) fn row(&mut self, line: &ContentsLine) -> String {
        if line.number.is_none() {
            self.rolled_back += 1;
        }
        let status = if line.rolled_back {
            "rolled back"
        } else {
            line.status
        };
        format!(
            "<li><a href=\"#{}\">{}</a> <span class=\"meta\">{} · {}</span></li>\n",
            turn_id(line.number, self.rolled_back),
            text(&turn_label(line.number)),
            status,
            text(&line.preview)
        )
    }
}

/// Writes the parts of a page in order (the rolled-back turns are counted for their ids).
#[derive(Debug, Default)]
pub(crate) struct Sections {
    rolled_back: usize,
    /// The table of contents' rows, rendered beside the parts.
    pub contents: Contents,
}

impl Sections {
    /// The HTML of the next part (an empty preamble has none).
    pub(crate) fn part(&mut self, part: &Part) -> String {
        let mut out = String::new();
        match part {
            Part::Preamble(entries) if entries.is_empty() => {}
            Part::Preamble(entries) => {
                out.push_str(
                    "<section class=\"turn preamble\" id=\"preamble\">\n<h2>Before the first turn</h2>\n",
                );
                for item in entries {
                    entries::entry(&mut out, item);
                }
                out.push_str("</section>\n");
            }
            Part::Turn(turn) => {
                if turn.number.is_none() {
                    self.rolled_back += 1;
                }
                section(&mut out, turn, self.rolled_back);
            }
        }
        out
    }
}

/// The end of the page, after its last part.
pub(crate) fn tail() -> String {
    format!(
        "</main>\n<script>{}</script>\n</body>\n</html>\n",
        page::SCRIPT
    )
}

fn header(
    out: &mut String,
    head: &Transcript,
    overview: &Overview,
    title: &str,
    redaction: Option<&str>,
) {
    out.push_str("<header>\n<button type=\"button\" id=\"expand-all\">Expand all</button>\n");
    let _ = writeln!(
        out,
        "<h1>Codex session <code>{}</code></h1>\n<dl>",
        text(title)
    );
    for (label, value) in header_facts(head, overview) {
        let _ = write!(out, "<dt>{}</dt><dd>", text(label));
        if label == "Started" {
            time(out, &value, "day");
        } else {
            let _ = write!(out, "{}", text(&value));
        }
        out.push_str("</dd>\n");
    }
    if overview.images > 0 {
        let _ = writeln!(out, "<dt>Images</dt><dd>{}</dd>", overview.images);
    }
    if let Some(redaction) = redaction {
        let _ = writeln!(out, "<dt>Redacted</dt><dd>{}</dd>", text(redaction));
    }
    out.push_str("</dl>\n</header>\n");
}

fn turn_id(number: Option<usize>, rolled_back: usize) -> String {
    match number {
        Some(number) => format!("turn-{number}"),
        None => format!("rolled-back-{rolled_back}"),
    }
}

fn turn_label(number: Option<usize>) -> String {
    match number {
        Some(number) => format!("Turn {number}"),
        None => "Rolled-back turn".to_string(),
    }
}

fn section(out: &mut String, turn: &TranscriptTurn, rolled_back: usize) {
    let class = if turn.rolled_back { " rolled-back" } else { "" };
    let _ = write!(
        out,
        "<section class=\"turn{class}\" id=\"{}\">\n<h2>{}",
        turn_id(turn.number, rolled_back),
        text(&turn_label(turn.number))
    );
    let _ = write!(
        out,
        " <span class=\"badge {}\">{}</span>",
        turn.status, turn.status
    );
    if turn.rolled_back {
        out.push_str(" <span class=\"badge rolled-back\">rolled back</span>");
    }
    if let Some(at) = &turn.started_at {
        out.push(' ');
        time(out, at, "day");
    }
    out.push_str("</h2>\n");
    if turn.rolled_back {
        out.push_str(
            "<p class=\"note\">A later rollback removed this turn from the model's memory.</p>\n",
        );
    }
    for item in &turn.entries {
        entries::entry(out, item);
    }
    let _ = writeln!(
        out,
        "<p class=\"note\">{}</p>\n</section>",
        describe_turn_status(turn.status)
    );
}
