//! Rendering a [`Transcript`] as Markdown: its header ([`head`]), then each part as it is
//! built ([`part`]), so that a long session is written one turn at a time.
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

use super::excerpt::excerpt;
use super::facts::{Overview, describe_turn_status, header_facts};
use super::transcript::{Entry, EntryKind, Image, Part, ToolCall, Transcript, TranscriptTurn};

/// The document's header: `head`'s session facts and the overview's counts.
pub(crate) fn head(head: &Transcript, overview: &Overview, redaction: Option<&str>) -> String {
    let mut md = String::new();
    let title = head.thread_id.as_deref().unwrap_or("(no session meta)");
    let _ = writeln!(md, "# Codex session {}\n", code_span(title));
    for (label, value) in header_facts(head, overview) {
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

/// The text of one part, in the order parts come (an empty preamble has none).
pub(crate) fn part(part: &Part) -> String {
    let mut md = String::new();
    match part {
        Part::Preamble(entries) if entries.is_empty() => {}
        Part::Preamble(entries) => {
            let _ = writeln!(md, "\n---\n\n## Before the first turn\n");
            render_entries(&mut md, entries);
        }
        Part::Turn(turn) => render_turn(&mut md, turn),
    }
    md
}

fn render_turn(md: &mut String, turn: &TranscriptTurn) {
    let heading = match turn.number {
        Some(number) => format!("Turn {number}"),
        None => "Rolled-back turn".to_string(),
    };
    let _ = writeln!(md, "\n---\n\n## {heading}\n");
    if let Some(at) = &turn.started_at {
        let _ = writeln!(md, "_Started {}_\n", code_span(at));
    }
    if turn.rolled_back {
        let _ = writeln!(
            md,
            "_A later rollback removed this turn from the model's memory._\n"
        );
    }
    render_entries(md, &turn.entries);
    let _ = writeln!(md, "_{}_", describe_turn_status(turn.status));
}

fn render_entries(md: &mut String, entries: &[Entry]) {
    for entry in entries {
        match &entry.kind {
            EntryKind::User { text, images } => {
                let _ = writeln!(md, "**User**{}\n", time_suffix(entry));
                let _ = writeln!(md, "{}", quote(text));
                for (number, image) in images.iter().enumerate() {
                    let _ = writeln!(md, ">\n> {}", image_line(number + 1, image));
                }
                md.push('\n');
            }
            EntryKind::Assistant { text, phase } => {
                let phase = phase
                    .as_deref()
                    .map(|phase| format!(" ({})", escape_text(&phase.replace('_', " "))))
                    .unwrap_or_default();
                let _ = writeln!(md, "**Assistant**{phase}{}\n", time_suffix(entry));
                let _ = writeln!(md, "{}\n", text.trim_end());
            }
            EntryKind::Reasoning { summary } => {
                for part in summary {
                    let _ = writeln!(md, "_Reasoning:_ {}\n", escape_text(part.trim()));
                }
            }
            EntryKind::ToolCall(call) => render_call(md, call, entry),
            EntryKind::WebSearch { query } => {
                let _ = writeln!(md, "**Web search:** {}\n", escape_text(query));
            }
            EntryKind::Compaction => {
                let _ = writeln!(md, "_The context was compacted here._\n");
            }
            EntryKind::Note { text } => {
                let _ = writeln!(md, "_Note: {}._\n", escape_text(text));
            }
        }
    }
}

fn render_call(md: &mut String, call: &ToolCall, entry: &Entry) {
    let id = call
        .call_id
        .as_deref()
        .map(|id| format!(" ({})", code_span(id)))
        .unwrap_or_default();
    let _ = writeln!(
        md,
        "**Tool call {}**{id}{}\n",
        code_span(&call.name),
        time_suffix(entry)
    );
    let mut facts = Vec::new();
    if let Some(command) = &call.command {
        facts.push(format!("command {}", code_span(command)));
    }
    if let Some(code) = call.exit_code {
        facts.push(format!("exit code {code}"));
    }
    if let Some(ms) = call.duration_ms {
        facts.push(format!("took {}", super::transcript::human_duration_ms(ms)));
    }
    if !facts.is_empty() {
        let _ = writeln!(md, "{}\n", facts.join(", "));
    }
    match &call.patch {
        Some(patch) => {
            let _ = writeln!(md, "{}\n", fenced(patch, "diff"));
        }
        None if !call.input.is_empty() => {
            let language = if call.input.starts_with('{') || call.input.starts_with('[') {
                "json"
            } else {
                "text"
            };
            let _ = writeln!(md, "{}\n", fenced(&call.input, language));
        }
        None => {}
    }
    match call.output.as_deref() {
        Some("") if call.output_images.is_empty() => {
            let _ = writeln!(md, "Output: _(empty)_\n");
        }
        Some(output) => {
            if !output.is_empty() {
                let _ = writeln!(md, "Output:\n\n{}\n", fenced(&cut(output), "text"));
            }
            for (number, image) in call.output_images.iter().enumerate() {
                let _ = writeln!(md, "{}\n", image_line(number + 1, image));
            }
        }
        None => {
            let _ = writeln!(md, "_No output recorded (the call never finished)._\n");
        }
    }
}

fn time_suffix(entry: &Entry) -> String {
    entry
        .at
        .as_deref()
        .map(|at| format!(" · {}", code_span(at)))
        .unwrap_or_default()
}

fn image_line(number: usize, image: &Image) -> String {
    let location = image
        .location
        .as_deref()
        .map(|location| format!(": {}", code_span(location)))
        .unwrap_or_default();
    format!(
        "_[image {number}: {}{location}]_",
        escape_text(&image.describe())
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
            super::transcript::human_bytes(cut.omitted_bytes),
            shown.total_lines,
            cut.tail
        ),
    }
}

#[cfg(test)]
#[path = "markdown_tests.rs"]
mod tests;
