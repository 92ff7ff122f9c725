//! Rendering a [`Transcript`] as Markdown.
//!
//! Choices, for a transcript people read and paste into issues:
//! - the person's messages are block quotes, the assistant's text is kept as the Markdown it
//!   usually is, reasoning summaries are italic;
//! - tool inputs and outputs are fenced code blocks whose fence is longer than any backtick
//!   run inside, so a tool output can never end the block early;
//! - long tool outputs are cut to their first [`MAX_OUTPUT_LINES`] lines (the JSON export has
//!   them whole).

use std::fmt::Write;

use super::transcript::{Entry, Transcript, TranscriptTurn};

/// Lines of a tool output shown before it is cut.
pub const MAX_OUTPUT_LINES: usize = 40;
/// Characters of a tool output shown before it is cut.
const MAX_OUTPUT_CHARS: usize = 4_000;

/// The Markdown text of `transcript`.
pub fn render(transcript: &Transcript) -> String {
    let mut md = String::new();
    let title = transcript
        .thread_id
        .as_deref()
        .unwrap_or("(no session meta)");
    let _ = writeln!(md, "# Codex session {title}\n");
    if let Some(version) = &transcript.cli_version {
        let _ = writeln!(md, "- Codex version: {version}");
    }
    if let Some(cwd) = &transcript.cwd {
        let _ = writeln!(md, "- Working directory: `{cwd}`");
    }
    if let Some(started) = &transcript.started_at {
        let _ = writeln!(md, "- Started: {started}");
    }
    let _ = writeln!(md, "- Turns: {}", transcript.turns.len());
    if transcript.rolled_back_turns > 0 {
        let _ = writeln!(md, "- Rolled back turns: {}", transcript.rolled_back_turns);
    }
    if !transcript.preamble.is_empty() {
        let _ = writeln!(md, "\n---\n\n## Before the first turn\n");
        render_entries(&mut md, &transcript.preamble);
    }
    for (index, turn) in transcript.turns.iter().enumerate() {
        render_turn(&mut md, index + 1, turn);
    }
    md
}

fn render_turn(md: &mut String, number: usize, turn: &TranscriptTurn) {
    let _ = writeln!(md, "\n---\n\n## Turn {number}\n");
    render_entries(md, &turn.entries);
    let ending = match turn.status {
        "completed" => "Turn completed.",
        "interrupted" => "Turn interrupted.",
        "failed" => "Turn failed.",
        _ => "Turn end not recorded.",
    };
    let _ = writeln!(md, "_{ending}_");
}

fn render_entries(md: &mut String, entries: &[Entry]) {
    for entry in entries {
        match entry {
            Entry::User { text, images } => {
                let _ = writeln!(md, "**User**\n");
                let _ = writeln!(md, "{}", quote(text));
                if *images > 0 {
                    let _ = writeln!(md, ">\n> _[{images} image(s) attached]_");
                }
                md.push('\n');
            }
            Entry::Assistant { text, phase } => {
                match phase.as_deref() {
                    Some(phase) => {
                        let _ = writeln!(md, "**Assistant** ({})\n", phase.replace('_', " "));
                    }
                    None => {
                        let _ = writeln!(md, "**Assistant**\n");
                    }
                }
                let _ = writeln!(md, "{}\n", text.trim_end());
            }
            Entry::Reasoning { summary } => {
                for part in summary {
                    let _ = writeln!(md, "_Reasoning: {}_\n", part.trim().replace('\n', " "));
                }
            }
            Entry::ToolCall {
                name,
                call_id,
                input,
                output,
            } => render_call(md, name, call_id.as_deref(), input, output.as_deref()),
            Entry::WebSearch { query } => {
                let _ = writeln!(md, "**Web search:** {query}\n");
            }
            Entry::Compaction => {
                let _ = writeln!(md, "_The context was compacted here._\n");
            }
            Entry::Note { text } => {
                let _ = writeln!(md, "_Note: {text}._\n");
            }
        }
    }
}

fn render_call(
    md: &mut String,
    name: &str,
    call_id: Option<&str>,
    input: &str,
    output: Option<&str>,
) {
    let id = call_id.map(|id| format!(" (`{id}`)")).unwrap_or_default();
    let _ = writeln!(md, "**Tool call `{name}`**{id}\n");
    if !input.is_empty() {
        let language = if input.starts_with('{') || input.starts_with('[') {
            "json"
        } else {
            "text"
        };
        let _ = writeln!(md, "{}\n", fenced(input, language));
    }
    match output {
        Some("") => {
            let _ = writeln!(md, "Output: _(empty)_\n");
        }
        Some(output) => {
            let _ = writeln!(md, "Output:\n\n{}\n", fenced(&cut(output), "text"));
        }
        None => {
            let _ = writeln!(md, "_No output recorded (the call never finished)._\n");
        }
    }
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

/// A code block whose fence cannot occur inside `text`.
fn fenced(text: &str, language: &str) -> String {
    let longest_run = text.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest_run.max(2) + 1);
    format!(
        "{fence}{language}\n{}\n{fence}",
        text.trim_end_matches('\n')
    )
}

/// The first lines of a long output, with a note saying how much was left out.
fn cut(text: &str) -> String {
    let total_lines = text.lines().count();
    let mut kept: String = text
        .lines()
        .take(MAX_OUTPUT_LINES)
        .collect::<Vec<_>>()
        .join("\n");
    if kept.chars().count() > MAX_OUTPUT_CHARS {
        kept = kept.chars().take(MAX_OUTPUT_CHARS).collect();
    }
    let shown_lines = kept.lines().count();
    if shown_lines < total_lines || kept.len() < text.trim_end_matches('\n').len() {
        let _ = write!(
            kept,
            "\n… ({shown_lines} of {total_lines} lines shown; `--json` has the whole output)"
        );
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fences_are_longer_than_any_backtick_run_inside() {
        assert_eq!(fenced("plain", "text"), "```text\nplain\n```");
        assert_eq!(fenced("a ```` b", "text"), "`````text\na ```` b\n`````");
    }

    #[test]
    fn long_outputs_are_cut_with_a_note() {
        let long: String = (0..100).map(|n| format!("line {n}\n")).collect();
        let shown = cut(&long);
        assert_eq!(shown.lines().count(), MAX_OUTPUT_LINES + 1);
        assert!(shown.ends_with("(40 of 100 lines shown; `--json` has the whole output)"));
        assert_eq!(cut("short\n"), "short");
    }
}
