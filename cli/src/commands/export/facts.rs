//! The words both renderers use for the same facts: the header lines and how a turn ended.
//!
//! Why shared: the Markdown and HTML exports are two layouts of one transcript; a fact worded
//! here is worded the same in both.

use super::transcript::{Transcript, duration_between};

/// The header's facts, as (label, value) pairs, in the order they are shown.
pub fn header_facts(transcript: &Transcript) -> Vec<(&'static str, String)> {
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
    facts.push(("Turns", transcript.live_turns().count().to_string()));
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
pub fn describe_turn_status(status: &str) -> &'static str {
    match status {
        "completed" => "Turn completed.",
        "interrupted" => "Turn interrupted.",
        "failed" => "Turn failed.",
        _ => "Turn end not recorded.",
    }
}
