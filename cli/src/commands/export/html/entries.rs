//! One entry of a turn as HTML: messages, folded reasoning, tool calls with their output,
//! patches as diffs, images inline.

use std::fmt::Write;

use super::escape::{text, time};
use super::markdown;
use crate::commands::export::excerpt::excerpt;
use crate::commands::export::transcript::{
    Entry, EntryKind, Image, ImageSource, ToolCall, human_bytes, human_duration_ms,
};

/// Appends `entry`.
pub(crate) fn entry(out: &mut String, entry: &Entry) {
    match &entry.kind {
        EntryKind::User {
            text: message,
            images,
        } => {
            out.push_str(r#"<div class="entry user">"#);
            who(out, "User", entry.at.as_deref());
            out.push_str(r#"<div class="body">"#);
            out.push_str(&markdown::render(message));
            for image in images {
                figure(out, image);
            }
            out.push_str("</div></div>\n");
        }
        EntryKind::Assistant {
            text: message,
            phase,
        } => {
            let class = match phase.as_deref() {
                Some("commentary") => " commentary",
                Some("final_answer") => " final",
                _ => "",
            };
            let _ = write!(out, r#"<div class="entry assistant{class}">"#);
            let label = match phase.as_deref() {
                Some(phase) => format!("Assistant · {}", phase.replace('_', " ")),
                None => "Assistant".to_string(),
            };
            who(out, &label, entry.at.as_deref());
            out.push_str(r#"<div class="body">"#);
            out.push_str(&markdown::render(message));
            out.push_str("</div></div>\n");
        }
        EntryKind::Reasoning { summary } => {
            out.push_str(r#"<details class="entry reasoning fold"><summary>Reasoning"#);
            if let Some(first) = summary.first() {
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
            stamp(out, entry.at.as_deref());
            out.push_str(r#"</summary><div class="inner">"#);
            for part in summary {
                out.push_str(&markdown::render(part));
            }
            out.push_str("</div></details>\n");
        }
        EntryKind::ToolCall(call) => tool_call(out, call, entry.at.as_deref()),
        EntryKind::WebSearch { query } => {
            let _ = write!(
                out,
                r#"<div class="entry search"><span class="who">Web search</span> <code>{}</code>"#,
                text(query)
            );
            stamp(out, entry.at.as_deref());
            out.push_str("</div>\n");
        }
        EntryKind::Compaction => {
            out.push_str(r#"<p class="entry note">The context was compacted here."#);
            stamp(out, entry.at.as_deref());
            out.push_str("</p>\n");
        }
        EntryKind::Note { text: note } => {
            let _ = write!(out, r#"<p class="entry note">{}."#, text(note));
            stamp(out, entry.at.as_deref());
            out.push_str("</p>\n");
        }
    }
}

fn who(out: &mut String, label: &str, at: Option<&str>) {
    let _ = write!(out, r#"<div class="who">{}"#, text(label));
    stamp(out, at);
    out.push_str("</div>");
}

fn stamp(out: &mut String, at: Option<&str>) {
    if let Some(at) = at {
        out.push(' ');
        time(out, at, "at");
    }
}

fn tool_call(out: &mut String, call: &ToolCall, at: Option<&str>) {
    out.push_str(r#"<details class="entry tool fold"><summary>"#);
    let _ = write!(
        out,
        r#"<span class="tool-name">{}</span>"#,
        text(&call.name)
    );
    // Status first: a long command line is cut at the end of the summary.
    if let Some(code) = call.exit_code {
        let class = if code == 0 { "ok" } else { "bad" };
        let _ = write!(out, r#" <span class="exit {class}">exit {code}</span>"#);
    }
    if call.output.is_none() {
        out.push_str(r#" <span class="exit bad">no output</span>"#);
    }
    if let Some(ms) = call.duration_ms {
        let _ = write!(
            out,
            r#" <span class="meta">{}</span>"#,
            human_duration_ms(ms)
        );
    }
    stamp(out, at);
    if let Some(command) = &call.command {
        let first = command.lines().next().unwrap_or("");
        let _ = write!(out, " <code>{}</code>", text(first));
    }
    out.push_str(r#"</summary><div class="inner">"#);
    if let Some(id) = &call.call_id {
        let _ = write!(
            out,
            r#"<div class="meta">call id <code>{}</code></div>"#,
            text(id)
        );
    }
    if let Some(command) = call
        .command
        .as_deref()
        .filter(|command| command.contains('\n'))
    {
        let _ = write!(out, "<pre>{}</pre>", text(command));
    }
    match &call.patch {
        Some(patch) => diff(out, patch),
        None if !call.input.is_empty() => {
            let _ = write!(out, "<pre>{}</pre>", text(&call.input));
        }
        None => {}
    }
    match call.output.as_deref() {
        Some(output) => {
            let shown = excerpt(output);
            let _ = write!(
                out,
                r#"<div class="meta">Output: {} line(s), {}</div>"#,
                shown.total_lines,
                human_bytes(shown.total_bytes)
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
        None => {
            out.push_str(r#"<div class="meta">No output recorded (the call never finished).</div>"#)
        }
    }
    for image in &call.output_images {
        figure(out, image);
    }
    out.push_str("</div></details>\n");
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
    match (&image.source, &image.data_url) {
        (ImageSource::Inline, Some(url)) => {
            let _ = write!(
                out,
                r#"<figure><img src="{}" alt="{}" loading="lazy" decoding="async"{}><figcaption>{}</figcaption></figure>"#,
                text(url),
                text(&image.describe()),
                size_attributes(image),
                text(&image.describe())
            );
        }
        _ => {
            let location = image
                .location
                .as_deref()
                .map(|location| format!(": <code>{}</code>", text(location)))
                .unwrap_or_default();
            let _ = write!(
                out,
                r#"<p class="missing-image">[image: {}{location}]</p>"#,
                text(&image.describe())
            );
        }
    }
}

fn size_attributes(image: &Image) -> String {
    match (image.width, image.height) {
        (Some(width), Some(height)) => format!(r#" width="{width}" height="{height}""#),
        _ => String::new(),
    }
}
