//! Rendering a transcript as Markdown: its header ([`head`]), then each turn as it is built
//! ([`turn`]), so that a long session is written one turn at a time.
//!
//! Choices, for a transcript people read and paste into issues:
//! - the person's messages are block quotes, the assistant's text is kept as the Markdown it
//!   usually is;
//! - everything else from the file is shown as itself, whatever characters it holds: tool
//!   names, the cwd, ids and commands are code spans ([`code_span`]), reasoning summaries and
//!   web queries are escaped text ([`escape_text`]), tool inputs and outputs are fenced code
//!   blocks whose fence is longer than any backtick run inside;
//! - images are listed with their kind and size (Markdown cannot hold them offline);
//! - long tool outputs are cut to their head and tail ([`super::excerpt`]; `--json` has them
//!   whole).

use std::fmt::Write;

use chrono::{DateTime, Utc};

use codex_app_server_protocol::transcript::CellBody;

use super::excerpt::excerpt;
use super::facts::{Header, Overview, command_facts, describe_turn_end, header_facts};
use super::image::{Image, describe, human_bytes};
use super::shown::{Shown, rfc3339};
use crate::output::thread_title;

/// The document's header: the thread's facts and the overview's counts.
pub(crate) fn head(header: &Header, overview: &Overview, redaction: Option<&str>) -> String {
    let mut md = String::new();
    let _ = writeln!(
        md,
        "# Codex session {}\n",
        code_span(thread_title(&header.thread))
    );
    for (label, value) in header_facts(header, overview) {
        let _ = writeln!(md, "- {label}: {}", code_span(&value));
    }
    if overview.images > 0 {
        let _ = writeln!(md, "- Images: {}", overview.images);
    }
    if let Some(redaction) = redaction {
        let _ = writeln!(md, "- Redacted: {}", escape_text(redaction));
    }
    md
}

/// The text of turn `number`, whose cells are `shown` and which started at `started`.
pub(crate) fn turn(number: usize, started: Option<DateTime<Utc>>, shown: &[Shown]) -> String {
    let mut md = String::new();
    let _ = writeln!(md, "\n---\n\n## Turn {number}\n");
    if let Some(at) = started {
        let _ = writeln!(md, "_Started {}_\n", code_span(&rfc3339(at)));
    }
    for shown in shown {
        render_cell(&mut md, shown);
    }
    md
}

fn render_cell(md: &mut String, shown: &Shown) {
    let at = time_suffix(shown);
    match &shown.cell.body {
        CellBody::User { text, attachments } => {
            let _ = writeln!(md, "**User**{at}\n");
            let _ = writeln!(md, "{}", quote(text));
            if shown.images.is_empty() {
                for label in attachments {
                    let _ = writeln!(md, ">\n> _{}_", escape_text(label));
                }
            }
            for (number, image) in shown.images.iter().enumerate() {
                let _ = writeln!(md, ">\n> {}", image_line(number + 1, image));
            }
            md.push('\n');
        }
        CellBody::Agent { markdown } => {
            let phase = shown
                .phase
                .as_deref()
                .map(|phase| format!(" ({})", escape_text(phase)))
                .unwrap_or_default();
            let _ = writeln!(md, "**Assistant**{phase}{at}\n");
            let _ = writeln!(md, "{}\n", markdown.trim_end());
        }
        CellBody::Reasoning { paragraphs } => {
            for part in paragraphs {
                let _ = writeln!(md, "_Reasoning:_ {}\n", escape_text(part.trim()));
            }
        }
        CellBody::Plan { text } => {
            let _ = writeln!(md, "**Plan**{at}\n\n{}\n", fenced(text, "text"));
        }
        CellBody::Command {
            command,
            status,
            exit_code,
            duration_ms,
            output,
            ..
        } => {
            let _ = writeln!(md, "**Command** {}{at}\n", code_span(command));
            let _ = writeln!(md, "{}\n", command_facts(status, *exit_code, *duration_ms));
            if command.contains('\n') {
                let _ = writeln!(md, "{}\n", fenced(command, "sh"));
            }
            render_output(md, output);
        }
        CellBody::FileChange { status, files } => {
            let _ = writeln!(md, "**Patch** ({}){at}\n", escape_text(status));
            for file in files {
                let _ = writeln!(md, "{} ({})\n", code_span(&file.path), file.kind);
                let _ = writeln!(md, "{}\n", fenced(&file.diff, "diff"));
            }
        }
        CellBody::Tool {
            kind,
            title,
            status,
            detail,
        } => {
            let _ = writeln!(
                md,
                "**Tool call {}** ({kind}, {}){at}\n",
                code_span(title),
                escape_text(status)
            );
            if !detail.is_empty() {
                let _ = writeln!(md, "{}\n", fenced(&cut(detail), "text"));
            }
            for (number, image) in shown.images.iter().enumerate() {
                let _ = writeln!(md, "{}\n", image_line(number + 1, image));
            }
        }
        CellBody::Marker { text } => {
            let _ = writeln!(md, "_{}._\n", escape_text(&capitalized(text)));
        }
        CellBody::TurnEnd {
            status,
            duration_ms,
            tokens,
            error,
        } => {
            let end = describe_turn_end(*status, *duration_ms, tokens.as_ref(), error.as_deref());
            let _ = writeln!(md, "_{}_", escape_text(&end));
        }
    }
}

fn render_output(md: &mut String, output: &str) {
    if output.is_empty() {
        let _ = writeln!(md, "Output: _(empty)_\n");
    } else {
        let _ = writeln!(md, "Output:\n\n{}\n", fenced(&cut(output), "text"));
    }
}

/// `text` with its first letter upper-case.
pub(crate) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

fn time_suffix(shown: &Shown) -> String {
    shown
        .at
        .map(|at| format!(" · {}", code_span(&rfc3339(at))))
        .unwrap_or_default()
}

fn image_line(number: usize, image: &Image) -> String {
    let location = image
        .location()
        .map(|location| format!(": {}", code_span(location)))
        .unwrap_or_default();
    format!(
        "_[image {number}: {}{location}]_",
        escape_text(&describe(image))
    )
}

/// `text` as a block quote.
fn quote(text: &str) -> String {
    text.trim_end()
        .lines()
        .map(|line| {
            if line.is_empty() {
                ">".to_string()
            } else {
                format!("> {line}")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// `text` as inline code that shows every character as itself: the backtick run around it is
/// longer than any inside, with a space of padding when it starts or ends with a backtick;
/// line breaks become spaces (a code span is one line to a reader anyway).
pub(crate) fn code_span(text: &str) -> String {
    let text = text.replace(['\r', '\n'], " ");
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run + 1);
    let pad = text.starts_with('`') || text.ends_with('`') || text.trim().is_empty();
    if pad {
        format!("{fence} {text} {fence}")
    } else {
        format!("{fence}{text}{fence}")
    }
}

/// `text` as Markdown text that renders as itself: every ASCII punctuation character is
/// backslash-escaped (CommonMark allows it for all of them), leading spaces cannot open a
/// code block, and line breaks stay line breaks.
pub(crate) fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut previous_blank = true;
    for (number, line) in text.lines().enumerate() {
        let blank = line.trim().is_empty();
        if number > 0 {
            out.push_str(if blank || previous_blank {
                "\n"
            } else {
                "\\\n"
            });
        }
        previous_blank = blank;
        for c in line.trim_start().chars() {
            if c.is_ascii_punctuation() {
                out.push('\\');
            }
            out.push(c);
        }
    }
    out
}

/// A code block whose fence cannot occur inside `text`.
fn fenced(text: &str, language: &str) -> String {
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    format!(
        "{fence}{language}\n{}\n{fence}",
        text.trim_end_matches('\n')
    )
}

/// The head and tail of a long output, with a note saying how much was left out.
fn cut(text: &str) -> String {
    let shown = excerpt(text);
    match shown.cut {
        None => shown.head.into_owned(),
        Some(cut) => format!(
            "{}\n… ({} lines, {} left out of {} lines; `--json` has the whole output) …\n{}",
            shown.head,
            cut.omitted_lines,
            human_bytes(cut.omitted_bytes),
            shown.total_lines,
            cut.tail
        ),
    }
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
