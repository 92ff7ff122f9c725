//! One cell of a turn as HTML: messages, folded reasoning, commands and tool calls with
//! their output, patches as diffs, images inline.

use std::fmt::Write;

use chrono::{DateTime, Utc};

use codex_app_server_protocol::transcript::CellBody;

use super::escape::{text, time};
use super::markdown;
use crate::commands::export::excerpt::excerpt;
use crate::commands::export::facts::{command_facts, describe_turn_end, output_size};
use crate::commands::export::image::{Image, describe, human_bytes};
use crate::commands::export::markdown::capitalized;
use crate::commands::export::shown::Shown;

/// Appends `shown`.
pub(crate) fn entry(out: &mut String, shown: &Shown) {
    let at = shown.at;
    match &shown.cell.body {
        CellBody::User {
            text: message,
            attachments,
        } => {
            out.push_str(r#"<div class="entry user">"#);
            who(out, "User", at);
            out.push_str(r#"<div class="body">"#);
            out.push_str(&markdown::render(message));
            if shown.images.is_empty() {
                for label in attachments {
                    let _ = write!(out, r#"<p class="attachment">{}</p>"#, text(label));
                }
            }
            for image in &shown.images {
                figure(out, image);
            }
            out.push_str("</div></div>\n");
        }
        CellBody::Agent { markdown: message } => {
            let class = match shown.phase.as_deref() {
                Some("commentary") => " commentary",
                Some("final answer") => " final",
                _ => "",
            };
            let _ = write!(out, r#"<div class="entry assistant{class}">"#);
            let label = match shown.phase.as_deref() {
                Some(phase) => format!("Assistant · {phase}"),
                None => "Assistant".to_string(),
            };
            who(out, &label, at);
            out.push_str(r#"<div class="body">"#);
            out.push_str(&markdown::render(message));
            out.push_str("</div></div>\n");
        }
        CellBody::Reasoning { paragraphs } => {
            out.push_str(r#"<details class="entry reasoning fold"><summary>Reasoning"#);
            if let Some(first) = paragraphs.first() {
                let line = first
                    .lines()
                    .find(|line| !line.trim().is_empty())
                    .unwrap_or("");
                // The first line as a title: without the Markdown emphasis around it.
                let title = line
                    .trim()
                    .trim_matches(|c| c == '*' || c == '_' || c == '#')
                    .trim();
                let _ = write!(out, r#" <span class="meta">{}</span>"#, text(title));
            }
            stamp(out, at);
            out.push_str(r#"</summary><div class="inner">"#);
            for part in paragraphs {
                out.push_str(&markdown::render(part));
            }
            out.push_str("</div></details>\n");
        }
        CellBody::Plan { text: plan } => {
            out.push_str(r#"<div class="entry assistant">"#);
            who(out, "Plan", at);
            let _ = write!(
                out,
                r#"<div class="body"><pre>{}</pre></div></div>"#,
                text(plan)
            );
            out.push('\n');
        }
        CellBody::Command {
            command,
            status,
            exit_code,
            duration_ms,
            output,
            ..
        } => {
            out.push_str(r#"<details class="entry tool fold"><summary>"#);
            out.push_str(r#"<span class="tool-name">command</span>"#);
            // Status first: a long command line is cut at the end of the summary.
            let class = match exit_code {
                Some(0) => "ok",
                _ => "bad",
            };
            let _ = write!(
                out,
                r#" <span class="exit {class}">{}</span>"#,
                text(&command_facts(status, *exit_code, *duration_ms))
            );
            stamp(out, at);
            let first = command.lines().next().unwrap_or("");
            let _ = write!(out, " <code>{}</code>", text(first));
            out.push_str(r#"</summary><div class="inner">"#);
            call_id(out, &shown.cell.item_id);
            if command.contains('\n') {
                let _ = write!(out, "<pre>{}</pre>", text(command));
            }
            output_block(out, output);
            out.push_str("</div></details>\n");
        }
        CellBody::FileChange { status, files } => {
            out.push_str(r#"<details class="entry tool fold"><summary>"#);
            let _ = write!(
                out,
                r#"<span class="tool-name">patch</span> <span class="meta">{}, {} file(s)</span>"#,
                text(status),
                files.len()
            );
            stamp(out, at);
            if let Some(file) = files.first() {
                let _ = write!(out, " <code>{}</code>", text(&file.path));
            }
            out.push_str(r#"</summary><div class="inner">"#);
            call_id(out, &shown.cell.item_id);
            for file in files {
                let _ = write!(
                    out,
                    r#"<div class="meta"><code>{}</code> ({})</div>"#,
                    text(&file.path),
                    file.kind
                );
                diff(out, &file.diff);
            }
            out.push_str("</div></details>\n");
        }
        CellBody::Tool {
            kind,
            title,
            status,
            detail,
        } => {
            out.push_str(r#"<details class="entry tool fold"><summary>"#);
            let _ = write!(out, r#"<span class="tool-name">{}</span>"#, text(title));
            let _ = write!(
                out,
                r#" <span class="meta">{}, {}</span>"#,
                text(kind),
                text(status)
            );
            stamp(out, at);
            out.push_str(r#"</summary><div class="inner">"#);
            call_id(out, &shown.cell.item_id);
            if !detail.is_empty() {
                output_block(out, detail);
            }
            for image in &shown.images {
                figure(out, image);
            }
            out.push_str("</div></details>\n");
        }
        CellBody::Marker { text: marker } => {
            let _ = write!(
                out,
                r#"<p class="entry note">{}."#,
                text(&capitalized(marker))
            );
            stamp(out, at);
            out.push_str("</p>\n");
        }
        CellBody::TurnEnd {
            status,
            duration_ms,
            tokens,
            error,
        } => {
            let end = describe_turn_end(*status, *duration_ms, tokens.as_ref(), error.as_deref());
            let _ = writeln!(out, r#"<p class="note">{}</p>"#, text(&end));
        }
    }
}

fn who(out: &mut String, label: &str, at: Option<DateTime<Utc>>) {
    let _ = write!(out, r#"<div class="who">{}"#, text(label));
    stamp(out, at);
    out.push_str("</div>");
}

fn stamp(out: &mut String, at: Option<DateTime<Utc>>) {
    if let Some(at) = at {
        out.push(' ');
        time(out, at, "at");
    }
}

fn call_id(out: &mut String, id: &str) {
    if !id.is_empty() {
        let _ = write!(
            out,
            r#"<div class="meta">call id <code>{}</code></div>"#,
            text(id)
        );
    }
}

/// An output: its size, then whole or as its head and tail.
fn output_block(out: &mut String, output: &str) {
    let shown = excerpt(output);
    let _ = write!(
        out,
        r#"<div class="meta">Output: {}</div>"#,
        output_size(shown.total_lines, shown.total_bytes)
    );
    if shown.total_lines > 0 {
        let _ = write!(out, "<pre>{}</pre>", text(&shown.head));
    }
    if let Some(cut) = &shown.cut {
        let _ = write!(
            out,
            r#"<div class="cut">… {} line(s), {} left out (the JSON export has the whole output) …</div><pre>{}</pre>"#,
            cut.omitted_lines,
            human_bytes(cut.omitted_bytes),
            text(&cut.tail)
        );
    }
}

/// A patch, each line classed by its role.
fn diff(out: &mut String, patch: &str) {
    out.push_str(r#"<pre class="diff">"#);
    for line in patch.lines() {
        let class = if line.starts_with("*** ") || line.starts_with("diff ") {
            "file"
        } else if line.starts_with("@@") {
            "hunk"
        } else if line.starts_with('+') {
            "add"
        } else if line.starts_with('-') {
            "del"
        } else {
            ""
        };
        if class.is_empty() {
            let _ = writeln!(out, "{}", text(line));
        } else {
            // The spans are blocks, so they end the line themselves.
            let _ = write!(out, r#"<span class="{class}">{}</span>"#, text(line));
        }
    }
    out.push_str("</pre>");
}

/// An image inline, or a line saying why it is not.
pub(crate) fn figure(out: &mut String, image: &Image) {
    match image {
        Image::Inline { info, data_url, .. } => {
            let _ = write!(
                out,
                r#"<figure><img src="{}" alt="{}" loading="lazy" decoding="async" width="{}" height="{}"><figcaption>{}</figcaption></figure>"#,
                text(data_url),
                text(&describe(image)),
                info.width,
                info.height,
                text(&describe(image))
            );
        }
        _ => {
            let location = image
                .location()
                .map(|location| format!(": <code>{}</code>", text(location)))
                .unwrap_or_default();
            let _ = write!(
                out,
                r#"<p class="missing-image">[image: {}{location}]</p>"#,
                text(&describe(image))
            );
        }
    }
}
