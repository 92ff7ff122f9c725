//! What the header of a transcript says, and when each line was written.
//!
//! The time of a line is its envelope's `timestamp`, which the loader does not keep with the
//! item; it is read back from the line's bytes (`RolloutContents::raw_line` for a loaded
//! file, the streamed line's own bytes for a stream), looking at the start of the line first,
//! where every writer puts it.

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::RolloutItem;
use serde::Deserialize;

use super::Transcript;

/// The `timestamp` of the line whose bytes are `raw`, when it has one.
pub(crate) fn line_time(raw: &[u8]) -> Option<String> {
    const PREFIX: &[u8] = br#"{"timestamp":""#;
    if let Some(rest) = raw.strip_prefix(PREFIX) {
        let end = rest.iter().position(|&byte| byte == b'"')?;
        return std::str::from_utf8(rest.get(..end)?)
            .ok()
            .map(str::to_string);
    }
    #[derive(Deserialize)]
    struct Stamp {
        timestamp: Option<String>,
    }
    serde_json::from_slice::<Stamp>(raw).ok()?.timestamp
}

/// Folds what an item says about the whole session into the header.
pub(crate) fn note_header(transcript: &mut Transcript, item: &RolloutItem) {
    match item {
        RolloutItem::SessionMeta(meta) if transcript.thread_id.is_none() => {
            transcript.thread_id = Some(meta.meta.id.to_string());
            transcript.cli_version = Some(meta.meta.cli_version.clone());
            transcript.cwd = Some(meta.meta.cwd.display().to_string());
            transcript.started_at = Some(meta.meta.timestamp.clone());
            transcript.git_branch = meta.git.as_ref().and_then(|git| git.branch.clone());
        }
        RolloutItem::TurnContext(context) => add_model(transcript, &context.model),
        RolloutItem::EventMsg(EventMsg::ThreadSettingsApplied(applied)) => {
            if let Some(model) = &applied.thread_settings.model {
                add_model(transcript, model);
            }
        }
        _ => {}
    }
}

fn add_model(transcript: &mut Transcript, model: &str) {
    if !model.is_empty() && !transcript.models.iter().any(|known| known == model) {
        transcript.models.push(model.to_string());
    }
}

/// The time between two line timestamps, `1 h 02 min`, `3 min 05 s`, `12 s`.
pub(crate) fn duration_between(start: &str, end: &str) -> Option<String> {
    let start = chrono::DateTime::parse_from_rfc3339(start).ok()?;
    let end = chrono::DateTime::parse_from_rfc3339(end).ok()?;
    let seconds = (end - start).num_seconds();
    (seconds >= 0).then(|| human_duration_ms(u64::try_from(seconds).unwrap_or(0) * 1000))
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
