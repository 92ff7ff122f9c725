//! The words both renderers use for the same facts: the header lines and how a turn ended.
//!
//! Why shared: the Markdown and HTML exports are two layouts of one transcript; a fact worded
//! here is worded the same in both.

use super::transcript::{Entry, EntryKind, Part, Transcript, TranscriptTurn, duration_between};

/// What a document says before its first turn that depends on every turn: known after a
/// pass over the whole transcript (built part by part and dropped), or from a whole one.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Overview {
    /// The turns that count (rolled-back ones left out).
    pub live_turns: usize,
    /// Every image of the transcript.
    pub images: usize,
    /// Every turn, rolled-back ones included: the lines of a table of contents (each is
    /// [`ContentsLine::of`] its turn, rendered as the turn is read and set aside, not kept).
    pub turns: usize,
}

/// A turn as a table of contents lists it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ContentsLine {
    pub number: Option<usize>,
    pub rolled_back: bool,
    pub status: &'static str,
    /// The start of the person's message, on one line (at most 90 characters).
    pub preview: String,
}

impl Overview {
    /// Counts one part in.
    pub(crate) fn add(&mut self, part: &Part) {
        match part {
            Part::Preamble(entries) => self.images += images_in(entries),
            Part::Turn(turn) => self.add_turn(turn),
        }
    }

    fn add_turn(&mut self, turn: &TranscriptTurn) {
        self.images += images_in(&turn.entries);
        self.live_turns += usize::from(!turn.rolled_back);
        self.turns += 1;
    }
}

impl ContentsLine {
    /// The table of contents' line of `turn`.
    pub(crate) fn of(turn: &TranscriptTurn) -> Self {
        let preview = turn
            .entries
            .iter()
            .find_map(|entry| match &entry.kind {
                EntryKind::User { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .unwrap_or("");
        let preview: String = preview.split_whitespace().collect::<Vec<_>>().join(" ");
        Self {
            number: turn.number,
            rolled_back: turn.rolled_back,
            status: turn.status,
            preview: preview.chars().take(90).collect(),
        }
    }
}

fn images_in(entries: &[Entry]) -> usize {
    entries.iter().map(|entry| entry.images().len()).sum()
}

/// The header's facts, as (label, value) pairs, in the order they are shown: `head`'s
/// session facts (its turns are not looked at) and the overview's counts.
pub(crate) fn header_facts(head: &Transcript, overview: &Overview) -> Vec<(&'static str, String)> {
    let transcript = head;
    let mut facts = Vec::new();
    if let Some(version) = &transcript.cli_version {
        facts.push(("Codex version", version.clone()));
    }
    if !transcript.models.is_empty() {
        facts.push(("Model", transcript.models.join(", ")));
    }
    if let Some(cwd) = &transcript.cwd {
        facts.push(("Working directory", cwd.clone()));
    }
    if let Some(branch) = &transcript.git_branch {
        facts.push(("Git branch", branch.clone()));
    }
    if let Some(started) = &transcript.started_at {
        facts.push(("Started", started.clone()));
    }
    let duration = transcript
        .started_at
        .as_deref()
        .zip(transcript.ended_at.as_deref())
        .and_then(|(start, end)| duration_between(start, end));
    if let Some(duration) = duration {
        facts.push(("Duration", duration));
    }
    facts.push(("Turns", overview.live_turns.to_string()));
    if transcript.rolled_back_turns > 0 {
        facts.push((
            "Rolled back turns",
            transcript.rolled_back_turns.to_string(),
        ));
    }
    if let Some(tokens) = &transcript.tokens {
        facts.push((
            "Tokens",
            format!(
                "{} total ({} input, {} cached, {} output, {} reasoning)",
                tokens.total,
                tokens.input,
                tokens.cached_input,
                tokens.output,
                tokens.reasoning_output
            ),
        ));
    }
    facts
}

/// How a turn ended, as a sentence.
pub(crate) fn describe_turn_status(status: &str) -> &'static str {
    match status {
        "completed" => "Turn completed.",
        "interrupted" => "Turn interrupted.",
        "failed" => "Turn failed.",
        _ => "Turn end not recorded.",
    }
}
