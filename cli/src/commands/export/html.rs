//! Rendering a transcript as one self-contained HTML page, written in order: [`head`] (what
//! needs every turn, the counts and the table of contents, comes from an [`Overview`] made
//! before), each turn as it is built ([`turn`]), then [`tail`].
//!
//! The page opens offline in any browser: its style and a small script are inline, images
//! are `data:` URLs, and it fetches nothing. It reads without the script. Session content is
//! untrusted, so every string is escaped ([`escape`]), Markdown is rendered without raw HTML
//! and cleaned by ammonia ([`markdown`]), and the page's Content-Security-Policy
//! ([`page`]) allows no other script, style, or request.
//!
//! Layout: a header with the session's facts, a table of contents when there are more than
//! a few turns, then one `<section>` per turn of the thread, its status and start time in the
//! heading; reasoning, each command and each tool call fold into `<details>`. Sections are
//! `content-visibility: auto`, so a browser lays out only what is on screen (a 1,000-turn
//! session scrolls as smoothly as a short one).

mod entries;
mod escape;
mod markdown;
mod page;

use std::fmt::Write;

use chrono::{DateTime, Utc};

use self::escape::{text, time};
use super::facts::{ContentsLine, Header, Overview, header_facts, started};
use super::shown::Shown;
use crate::output::thread_title;

/// Turns from which the page gets a table of contents.
const TOC_FROM_TURNS: usize = 4;

/// The page up to its table of contents: the fixed head and the header (the thread's facts
/// and the overview's counts). From a few turns on ([`has_contents`]) the table of contents
/// follows: [`contents_start`], each turn's [`contents_row`], [`contents_end`].
pub(crate) fn head(header: &Header, overview: &Overview, redaction: Option<&str>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = thread_title(&header.thread);
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
    write_header(&mut out, header, overview, title, redaction);
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

/// The table of contents' row of one turn.
pub(crate) fn contents_row(line: &ContentsLine) -> String {
    format!(
        "<li><a href=\"#turn-{}\">Turn {}</a> <span class=\"meta\">{} · {}</span></li>\n",
        line.number,
        line.number,
        line.status,
        text(&line.preview)
    )
}

/// The section of turn `number` (status word `status`, started at `started`), whose cells
/// are `shown`.
pub(crate) fn turn(
    number: usize,
    status: &str,
    started: Option<DateTime<Utc>>,
    shown: &[Shown],
) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<section class=\"turn\" id=\"turn-{number}\">\n<h2>Turn {number} <span class=\"badge {status}\">{status}</span>"
    );
    if let Some(at) = started {
        out.push(' ');
        time(&mut out, at, "day");
    }
    out.push_str("</h2>\n");
    for shown in shown {
        entries::entry(&mut out, shown);
    }
    out.push_str("</section>\n");
    out
}

/// The end of the page, after its last turn.
pub(crate) fn tail() -> String {
    format!(
        "</main>\n<script>{}</script>\n</body>\n</html>\n",
        page::SCRIPT
    )
}

fn write_header(
    out: &mut String,
    header: &Header,
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
    for (label, value) in header_facts(header, overview) {
        let _ = write!(out, "<dt>{}</dt><dd>", text(label));
        if let ("Started", Some(at)) = (label, started(header)) {
            time(out, at, "day");
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
