//! Rendering a [`Transcript`] as one self-contained HTML page.
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
use super::facts::{describe_turn_status, header_facts};
use super::transcript::{EntryKind, Transcript, TranscriptTurn};

/// Turns from which the page gets a table of contents.
const TOC_FROM_TURNS: usize = 4;

/// The HTML page of `transcript`; `redaction` is the summary `--redact` printed, if any.
pub fn render(transcript: &Transcript, redaction: Option<&str>) -> String {
    let mut out = String::with_capacity(64 * 1024);
    let title = transcript
        .thread_id
        .as_deref()
        .unwrap_or("(no session meta)");
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
    header(&mut out, transcript, title, redaction);
    if transcript.turns.len() >= TOC_FROM_TURNS {
        contents(&mut out, transcript);
    }
    if !transcript.preamble.is_empty() {
        out.push_str(
            "<section class=\"turn preamble\" id=\"preamble\">\n<h2>Before the first turn</h2>\n",
        );
        for item in &transcript.preamble {
            entries::entry(&mut out, item);
        }
        out.push_str("</section>\n");
    }
    let mut rolled_back = 0;
    for turn in &transcript.turns {
        if turn.number.is_none() {
            rolled_back += 1;
        }
        section(&mut out, turn, rolled_back);
    }
    let _ = write!(
        out,
        "</main>\n<script>{}</script>\n</body>\n</html>\n",
        page::SCRIPT
    );
    out
}

fn header(out: &mut String, transcript: &Transcript, title: &str, redaction: Option<&str>) {
    out.push_str("<header>\n<button type=\"button\" id=\"expand-all\">Expand all</button>\n");
    let _ = writeln!(
        out,
        "<h1>Codex session <code>{}</code></h1>\n<dl>",
        text(title)
    );
    for (label, value) in header_facts(transcript) {
        let _ = write!(out, "<dt>{}</dt><dd>", text(label));
        if label == "Started" {
            time(out, &value, "day");
        } else {
            out.push_str(&text(&value));
        }
        out.push_str("</dd>\n");
    }
    let images = transcript.images().count();
    if images > 0 {
        let _ = writeln!(out, "<dt>Images</dt><dd>{images}</dd>");
    }
    if let Some(redaction) = redaction {
        let _ = writeln!(out, "<dt>Redacted</dt><dd>{}</dd>", text(redaction));
    }
    out.push_str("</dl>\n</header>\n");
}

fn turn_id(turn: &TranscriptTurn, rolled_back: usize) -> String {
    match turn.number {
        Some(number) => format!("turn-{number}"),
        None => format!("rolled-back-{rolled_back}"),
    }
}

fn turn_label(turn: &TranscriptTurn) -> String {
    match turn.number {
        Some(number) => format!("Turn {number}"),
        None => "Rolled-back turn".to_string(),
    }
}

fn contents(out: &mut String, transcript: &Transcript) {
    let _ = writeln!(
        out,
        "<nav class=\"toc\"><details open><summary>Contents ({} turns)</summary><ol>",
        transcript.turns.len()
    );
    let mut rolled_back = 0;
    for turn in &transcript.turns {
        if turn.number.is_none() {
            rolled_back += 1;
        }
        let preview = turn
            .entries
            .iter()
            .find_map(|entry| match &entry.kind {
                EntryKind::User { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or("");
        let preview: String = preview.split_whitespace().collect::<Vec<_>>().join(" ");
        let preview: String = preview.chars().take(90).collect();
        let _ = writeln!(
            out,
            "<li><a href=\"#{}\">{}</a> <span class=\"meta\">{} · {}</span></li>",
            turn_id(turn, rolled_back),
            text(&turn_label(turn)),
            status_word(turn),
            text(&preview)
        );
    }
    out.push_str("</ol></details></nav>\n");
}

fn status_word(turn: &TranscriptTurn) -> &'static str {
    if turn.rolled_back {
        "rolled back"
    } else {
        turn.status
    }
}

fn section(out: &mut String, turn: &TranscriptTurn, rolled_back: usize) {
    let class = if turn.rolled_back { " rolled-back" } else { "" };
    let _ = write!(
        out,
        "<section class=\"turn{class}\" id=\"{}\">\n<h2>{}",
        turn_id(turn, rolled_back),
        text(&turn_label(turn))
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
