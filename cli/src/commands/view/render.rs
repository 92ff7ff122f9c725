//! Cells as lines of toned text ([`super::line`]), the one rendering both the terminal UI and
//! the plain output draw from (the plain output drops the tones).

use codex_app_server_protocol::transcript::{
    Cell, CellBody, OUTPUT_FOLD_LINES, StatusLine, TurnState, TurnTokens,
};
use codex_app_server_protocol::v2::TurnStatus;

use super::line::{Line, LineBuilder, Span, Tone};
use super::markdown::markdown_lines;
use crate::output::status_word;

/// One line of `parts`.
fn line(parts: &[(&str, Tone)]) -> Vec<Line> {
    let mut builder = LineBuilder::default();
    for (text, tone) in parts {
        builder.push(text, *tone);
    }
    builder.finish()
}

/// Each line of `text` behind `prefix`.
fn block(out: &mut Vec<Line>, prefix: &str, text: &str, tone: Tone) {
    for part in text.lines() {
        out.extend(line(&[(prefix, Tone::Dim), (part, tone)]));
    }
}

/// At most `keep` lines of `text` behind `prefix` when `folded`, then how many were left out.
fn folded_block(out: &mut Vec<Line>, prefix: &str, text: &str, tone: Tone, folded: bool) {
    let total = text.lines().count();
    let shown = if folded {
        total.min(OUTPUT_FOLD_LINES)
    } else {
        total
    };
    for part in text.lines().take(shown) {
        out.extend(line(&[(prefix, Tone::Dim), (part, tone)]));
    }
    if shown < total {
        out.extend(line(&[(
            &format!("{prefix}… {} more lines (Enter unfolds)", total - shown),
            Tone::Dim,
        )]));
    }
}

/// The lines of `cell`; `turn` numbers a turn separator.
pub(crate) fn render_cell(cell: &Cell, folded: bool, turn: usize) -> Vec<Line> {
    let mut out = Vec::new();
    let live = if cell.live { " (running)" } else { "" };
    match &cell.body {
        CellBody::User { text, attachments } => {
            let mut lines = text.trim_matches('\n').lines();
            let first = lines.next().unwrap_or_default();
            out.extend(line(&[("› ", Tone::User), (first, Tone::User)]));
            for rest in lines {
                out.extend(line(&[("  ", Tone::Plain), (rest, Tone::User)]));
            }
            for attachment in attachments {
                out.extend(line(&[("  ", Tone::Plain), (attachment, Tone::Dim)]));
            }
        }
        CellBody::Agent { markdown } => {
            for (index, mut md_line) in markdown_lines(markdown).into_iter().enumerate() {
                let bullet = if index == 0 { "• " } else { "  " };
                md_line.insert(
                    0,
                    Span {
                        text: bullet.to_owned(),
                        tone: Tone::Dim,
                    },
                );
                out.push(md_line);
            }
            if out.is_empty() {
                out.extend(line(&[("• ", Tone::Dim)]));
            }
        }
        CellBody::Reasoning { paragraphs } => {
            let first = paragraphs
                .iter()
                .flat_map(|paragraph| paragraph.lines())
                .find(|text| !text.trim().is_empty())
                .unwrap_or_default();
            if folded {
                out.extend(line(&[("▸ reasoning: ", Tone::Dim), (first, Tone::Dim)]));
            } else {
                out.extend(line(&[("▾ reasoning", Tone::Dim)]));
                for paragraph in paragraphs {
                    block(&mut out, "  ", paragraph, Tone::Dim);
                }
            }
        }
        CellBody::Plan { text } => {
            out.extend(line(&[("☰ plan", Tone::Heading)]));
            block(&mut out, "  ", text, Tone::Plain);
        }
        CellBody::Command {
            command,
            cwd,
            status,
            exit_code,
            duration_ms,
            output,
        } => {
            out.extend(line(&[
                ("$ ", Tone::Dim),
                (command, Tone::Command),
                (live, Tone::Live),
            ]));
            let mut facts = vec![format!("cwd {cwd}")];
            if let Some(code) = exit_code {
                facts.push(format!("exit {code}"));
            }
            if let Some(ms) = duration_ms {
                facts.push(duration(*ms));
            }
            facts.push((*status).to_owned());
            let good = *exit_code == Some(0) || (*status == "running" && exit_code.is_none());
            out.extend(line(&[
                ("  ", Tone::Plain),
                (
                    &facts.join(" · "),
                    if good { Tone::Good } else { Tone::Bad },
                ),
            ]));
            folded_block(&mut out, "  │ ", output, Tone::Dim, folded);
        }
        CellBody::FileChange { status, files } => {
            out.extend(line(&[
                ("✎ patch ", Tone::Heading),
                (status, Tone::Dim),
                (live, Tone::Live),
            ]));
            let mut diff_lines = 0;
            for file in files {
                out.extend(line(&[
                    ("  ", Tone::Plain),
                    (file.kind, Tone::Dim),
                    (" ", Tone::Plain),
                    (&file.path, Tone::Strong),
                ]));
                for text in file.diff.lines() {
                    diff_lines += 1;
                    if folded && diff_lines > 2 * OUTPUT_FOLD_LINES {
                        continue;
                    }
                    let shown = match file.kind {
                        "add" => format!("+{text}"),
                        "delete" => format!("-{text}"),
                        _ => text.to_owned(),
                    };
                    let tone = if shown.starts_with("@@") {
                        Tone::Hunk
                    } else if shown.starts_with('+') {
                        Tone::Added
                    } else if shown.starts_with('-') {
                        Tone::Removed
                    } else {
                        Tone::Plain
                    };
                    out.extend(line(&[("    ", Tone::Plain), (&shown, tone)]));
                }
            }
            if folded && diff_lines > 2 * OUTPUT_FOLD_LINES {
                out.extend(line(&[(
                    &format!(
                        "    … {} more diff lines (Enter unfolds)",
                        diff_lines - 2 * OUTPUT_FOLD_LINES
                    ),
                    Tone::Dim,
                )]));
            }
        }
        CellBody::Tool {
            kind,
            title,
            status,
            detail,
        } => {
            out.extend(line(&[
                ("⚙ ", Tone::Dim),
                (kind, Tone::Heading),
                (" ", Tone::Plain),
                (title, Tone::Command),
                (" · ", Tone::Dim),
                (status, Tone::Dim),
                (live, Tone::Live),
            ]));
            folded_block(&mut out, "  │ ", detail, Tone::Dim, folded);
        }
        CellBody::Marker { text } => {
            out.extend(line(&[
                ("── ", Tone::Marker),
                (text, Tone::Marker),
                (" ──", Tone::Marker),
            ]));
        }
        CellBody::TurnEnd {
            status,
            duration_ms,
            tokens,
            error,
        } => {
            let mut facts = vec![format!("turn {turn} {}", status_word(*status))];
            if let Some(ms) = duration_ms {
                facts.push(duration(*ms));
            }
            if let Some(tokens) = tokens {
                facts.push(tokens_text(tokens));
            }
            let tone = if *status == TurnStatus::Completed {
                Tone::Marker
            } else {
                Tone::Bad
            };
            out.extend(line(&[(&format!("─── {} ───", facts.join(" · ")), tone)]));
            if let Some(error) = error {
                out.extend(line(&[("  error: ", Tone::Bad), (error, Tone::Bad)]));
            }
        }
    }
    out
}

/// `850 ms`, `3.2 s`, `4 min 5 s`.
pub(crate) fn duration(ms: i64) -> String {
    if ms < 1000 {
        format!("{ms} ms")
    } else if ms < 60_000 {
        format!("{:.1} s", ms as f64 / 1000.0)
    } else {
        format!("{} min {} s", ms / 60_000, (ms % 60_000) / 1000)
    }
}

/// `tokens 1200 in (800 cached) / 300 out`.
pub(crate) fn tokens_text(tokens: &TurnTokens) -> String {
    format!(
        "tokens {} in ({} cached) / {} out",
        tokens.input, tokens.cached_input, tokens.output
    )
}

/// The status line's text.
pub(crate) fn status_text(status: &StatusLine) -> String {
    let mut parts = vec![format!(
        "model {}",
        status.model.as_deref().unwrap_or("unknown")
    )];
    parts.push(format!("{} turn(s)", status.turns));
    if let Some(tokens) = &status.tokens {
        parts.push(tokens_text(tokens));
    }
    parts.push(match &status.turn {
        TurnState::Idle => "idle".to_owned(),
        TurnState::Running {
            turn_id,
            live_items,
        } => format!("running turn {turn_id} ({live_items} live item(s))"),
        TurnState::LeftOpen { turn_id } => format!("turn {turn_id} left open"),
    });
    parts.join(" · ")
}
