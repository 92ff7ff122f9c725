//! The words both renderers use for the same facts: the header lines, a turn's line in the
//! table of contents, and how a turn ended.
//!
//! Why shared: the Markdown and HTML exports are two layouts of one transcript; a fact worded
//! here is worded the same in both.

use chrono::{DateTime, Utc};
use codex_app_server_protocol::BuiltThread;
use codex_app_server_protocol::transcript::{CellBody, TurnTokens};
use codex_app_server_protocol::v2::{Turn, TurnStatus};

use super::image::human_bytes;
use super::shown::{Shown, rfc3339, utc_second};
use crate::output::status_word;

/// What the document says of the thread before its first turn, known from the first pass
/// (the thread without its items, the token totals).
#[derive(Debug, Clone)]
pub(crate) struct Header {
    /// The thread, its turns without their items.
    pub thread: BuiltThread,
    /// The thread's token totals, when the file counted them.
    pub tokens: Option<TurnTokens>,
}

/// What the document says before its first turn that depends on every turn's items: known
/// once every turn was rendered.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Overview {
    pub turns: usize,
    /// Every image of the transcript.
    pub images: usize,
    /// When the last turn that says so ended (Unix seconds).
    pub ended_at: Option<i64>,
}

/// A turn as a table of contents lists it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContentsLine {
    pub number: usize,
    pub status: &'static str,
    /// The start of the person's message, on one line (at most 90 characters).
    pub preview: String,
}

impl Overview {
    /// Counts one turn in (`shown` are its cells).
    pub(crate) fn add(&mut self, turn: &Turn, shown: &[Shown]) {
        self.turns += 1;
        self.images += shown.iter().map(|shown| shown.images.len()).sum::<usize>();
        self.ended_at = turn.completed_at.or(turn.started_at).or(self.ended_at);
    }
}

impl ContentsLine {
    /// The table of contents' line of turn `number`.
    pub(crate) fn of(number: usize, turn: &Turn, shown: &[Shown]) -> Self {
        let preview = shown
            .iter()
            .find_map(|shown| match &shown.cell.body {
                CellBody::User { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or("");
        let preview: String = preview.split_whitespace().collect::<Vec<_>>().join(" ");
        Self {
            number,
            status: status_word(turn.status),
            preview: preview.chars().take(90).collect(),
        }
    }
}

/// The header's facts, as (label, value) pairs, in the order they are shown.
pub(crate) fn header_facts(header: &Header, overview: &Overview) -> Vec<(&'static str, String)> {
    let mut facts = Vec::new();
    if let BuiltThread::Thread(thread) = &header.thread {
        if let Some(name) = &thread.name {
            facts.push(("Name", name.clone()));
        }
        facts.push(("Source", thread.source.kind().to_string()));
        if !thread.cli_version.is_empty() {
            facts.push(("Codex version", thread.cli_version.clone()));
        }
        if let Some(model) = &thread.model {
            facts.push(("Model", model.clone()));
        }
        if !thread.cwd.is_empty() {
            facts.push(("Working directory", thread.cwd.clone()));
        }
        if let Some(branch) = thread.git_info.as_ref().and_then(|git| git.branch.clone()) {
            facts.push(("Git branch", branch));
        }
        if let Some(started) = started(header) {
            facts.push(("Started", rfc3339(started)));
        }
        let ran = overview
            .ended_at
            .and_then(|end| end.checked_sub(thread.created_at))
            .and_then(|seconds| u64::try_from(seconds).ok());
        if let Some(seconds) = ran {
            facts.push(("Duration", human_duration_ms(seconds.saturating_mul(1000))));
        }
    }
    facts.push(("Turns", overview.turns.to_string()));
    if let Some(tokens) = &header.tokens {
        facts.push((
            "Tokens",
            format!(
                "{} input ({} cached), {} output",
                tokens.input, tokens.cached_input, tokens.output
            ),
        ));
    }
    facts
}

/// When the thread started, to the second (the header's "Started").
pub(crate) fn started(header: &Header) -> Option<DateTime<Utc>> {
    match &header.thread {
        BuiltThread::Thread(thread) => utc_second(thread.created_at),
        BuiltThread::TurnsOnly(_) => None,
    }
}

/// How a turn ended, as a sentence: its status, how long it ran, what it used, its error.
pub(crate) fn describe_turn_end(
    status: TurnStatus,
    duration_ms: Option<i64>,
    tokens: Option<&TurnTokens>,
    error: Option<&str>,
) -> String {
    let mut sentence = match status {
        TurnStatus::Completed => "Turn completed",
        TurnStatus::Interrupted => "Turn interrupted",
        TurnStatus::Failed => "Turn failed",
        TurnStatus::InProgress => "Turn end not recorded",
    }
    .to_string();
    let mut details = Vec::new();
    if let Some(ms) = duration_ms.and_then(|ms| u64::try_from(ms).ok()) {
        details.push(format!("took {}", human_duration_ms(ms)));
    }
    if let Some(tokens) = tokens {
        details.push(format!(
            "{} input, {} output tokens",
            tokens.input, tokens.output
        ));
    }
    if !details.is_empty() {
        sentence.push_str(&format!(" ({})", details.join(", ")));
    }
    sentence.push('.');
    if let Some(error) = error {
        sentence.push_str(&format!(" Error: {error}"));
    }
    sentence
}

/// A command's facts on one line: `exit code 1, took 2.0 s` (or how it stands when it has
/// no exit code).
pub(crate) fn command_facts(status: &str, exit_code: Option<i32>, duration: Option<i64>) -> String {
    let mut facts = Vec::new();
    match exit_code {
        Some(code) => facts.push(format!("exit code {code}")),
        None => facts.push(status.to_string()),
    }
    if let Some(ms) = duration.and_then(|ms| u64::try_from(ms).ok()) {
        facts.push(format!("took {}", human_duration_ms(ms)));
    }
    facts.join(", ")
}

/// A size said with its lines: `12 line(s), 1.2 KiB`.
pub(crate) fn output_size(lines: usize, bytes: usize) -> String {
    format!("{lines} line(s), {}", human_bytes(bytes))
}

/// Milliseconds as a short human duration.
pub(crate) fn human_duration_ms(ms: u64) -> String {
    let seconds = ms / 1000;
    match seconds {
        0 => format!("{ms} ms"),
        1..60 => format!("{:.1} s", ms as f64 / 1000.0),
        60..3600 => format!("{} min {:02} s", seconds / 60, seconds % 60),
        _ => format!("{} h {:02} min", seconds / 3600, (seconds % 3600) / 60),
    }
}
