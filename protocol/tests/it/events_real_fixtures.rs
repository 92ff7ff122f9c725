//! Every `event_msg` line of every real session file parses into a typed [`EventMsg`].
//!
//! The files live in `../shared/fixtures/real` (never copied into the project). A tag may go
//! to [`EventMsg::Other`] only when it is listed in [`UNMODELLED_TAGS`]; a typed parse may fail
//! only in the shape catalogue (values replaced by placeholder text) and only where listed in
//! [`CATALOGUE_EXPECTED_FAILURES`]. The test also reports how many event lines re-serialize to
//! JSON equal to the original.

use std::collections::BTreeMap;
use std::collections::BTreeSet;
use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_test_support::{jsonl_files_in, real_fixtures_dir};
use serde_json::Value;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Event tags seen in the fixtures that this crate deliberately does not model (they read as
/// `EventMsg::Other`; the session-file reader keeps their lines verbatim).
const UNMODELLED_TAGS: &[&str] = &[
    // multi-agent bookkeeping, carried by CollabAgentToolCall items instead
    "collab_agent_interaction_end",
    "collab_agent_spawn_end",
    "collab_close_end",
    "collab_waiting_end",
    "sub_agent_activity",
    // client-registered tools: answered through the app-server request channel
    "dynamic_tool_call_request",
    "dynamic_tool_call_response",
    // safety reviewer, thread metadata and settings: app-server concerns
    "guardian_assessment",
    "thread_goal_updated",
    "thread_name_updated",
    "thread_settings_applied",
    // removed upstream; only old files have it
    "undo_completed",
];

/// The shape catalogue (`jazzyalex__agent-sessions__small.jsonl`) replaces values with the
/// text `[trimmed for fixture]`, including where the wire demands a UUID or one of a closed
/// set of values. These are the (tag, error text, count) triples whose typed parse is
/// expected to fail there; every other catalogue line of a modelled tag must parse.
const CATALOGUE: &str = "jazzyalex__agent-sessions__small.jsonl";
const PLACEHOLDER: &str = "[trimmed for fixture]";
const CATALOGUE_EXPECTED_FAILURES: &[(&str, &str, usize)] = &[
    // `source` of the command is a closed enum (agent, user_shell, ...)
    (
        "exec_command_end",
        "unknown variant `[trimmed for fixture]`",
        3,
    ),
    // item `source` / `status` are closed enums
    (
        "item_completed",
        "unknown variant `[trimmed for fixture]`",
        4,
    ),
];

#[derive(Default, Debug)]
struct FileReport {
    events: usize,
    typed: usize,
    round_trips: usize,
    other_tags: BTreeMap<String, usize>,
    failures: Vec<(usize, String, String)>,
    /// JSON paths present in the original but not in the typed re-serialization.
    dropped_paths: BTreeMap<String, usize>,
    /// JSON paths the typed re-serialization adds or changes.
    changed_paths: BTreeMap<String, usize>,
}

/// Records the paths (`tag.key.sub`) where `original` and `typed` differ.
fn diff_paths(prefix: &str, original: &Value, typed: &Value, report: &mut FileReport) {
    match (original, typed) {
        (Value::Object(left), Value::Object(right)) => {
            for (key, value) in left {
                let path = format!("{prefix}.{key}");
                match right.get(key) {
                    Some(other) => diff_paths(&path, value, other, report),
                    None => *report.dropped_paths.entry(path).or_default() += 1,
                }
            }
            for key in right.keys().filter(|key| !left.contains_key(*key)) {
                *report
                    .changed_paths
                    .entry(format!("{prefix}.{key} (added)"))
                    .or_default() += 1;
            }
        }
        (Value::Array(left), Value::Array(right)) if left.len() == right.len() => {
            for (value, other) in left.iter().zip(right) {
                diff_paths(&format!("{prefix}[]"), value, other, report);
            }
        }
        _ if original == typed => {}
        _ => {
            *report
                .changed_paths
                .entry(format!("{prefix} (value)"))
                .or_default() += 1
        }
    }
}

fn event_payloads(path: &Path) -> Result<Vec<(usize, Value)>, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let mut out = Vec::new();
    for (index, line) in bytes.split(|byte| *byte == b'\n').enumerate() {
        let Ok(value) = serde_json::from_slice::<Value>(line) else {
            continue;
        };
        if value.get("type").and_then(Value::as_str) != Some("event_msg") {
            continue;
        }
        if let Some(payload) = value.get("payload") {
            out.push((index + 1, payload.clone()));
        }
    }
    Ok(out)
}

fn check_file(path: &Path) -> Result<FileReport, Box<dyn std::error::Error>> {
    let mut report = FileReport::default();
    for (line, payload) in event_payloads(path)? {
        report.events += 1;
        let tag = payload
            .get("type")
            .and_then(Value::as_str)
            .unwrap_or("<none>")
            .to_string();
        match serde_json::from_value::<EventMsg>(payload.clone()) {
            Ok(EventMsg::Other) => *report.other_tags.entry(tag).or_default() += 1,
            Ok(event) => {
                report.typed += 1;
                let typed = serde_json::to_value(&event)?;
                if typed == payload {
                    report.round_trips += 1;
                } else {
                    diff_paths(&tag, &payload, &typed, &mut report);
                }
            }
            Err(err) => {
                let message = err.to_string();
                assert!(
                    !message.contains(PLACEHOLDER) || payload.to_string().contains(PLACEHOLDER),
                    "line {line}: error names a placeholder the line does not contain"
                );
                report.failures.push((line, tag, message));
            }
        }
    }
    Ok(report)
}

#[test]
fn every_real_event_line_parses_to_a_typed_variant() -> TestResult {
    let Some(dir) = real_fixtures_dir() else {
        return Ok(());
    };
    let files = jsonl_files_in(&dir)?;
    assert!(!files.is_empty(), "no .jsonl files in {}", dir.display());

    let unmodelled: BTreeSet<&str> = UNMODELLED_TAGS.iter().copied().collect();
    let mut problems = Vec::new();
    let mut total_events = 0;
    for path in &files {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default()
            .to_string();
        let report = check_file(path)?;
        total_events += report.events;
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "{name}: {} event lines, {} typed, {} round-trip exactly, other {:?}, failed {}",
                report.events,
                report.typed,
                report.round_trips,
                report.other_tags,
                report.failures.len()
            );
            eprintln!("  dropped by the typed model: {:?}", report.dropped_paths);
            eprintln!(
                "  added or changed by the typed model: {:?}",
                report.changed_paths
            );
        }
        for tag in report.other_tags.keys() {
            if !unmodelled.contains(tag.as_str()) {
                problems.push(format!("{name}: tag {tag} fell back to Other"));
            }
        }
        if name == CATALOGUE {
            let mut failed: BTreeMap<(String, String), usize> = BTreeMap::new();
            for (line, tag, err) in &report.failures {
                #[allow(clippy::print_stderr)]
                {
                    eprintln!("  catalogue line {line} ({tag}): {err}");
                }
                let reason = CATALOGUE_EXPECTED_FAILURES
                    .iter()
                    .find(|(expected_tag, reason, _)| expected_tag == tag && err.contains(reason))
                    .map(|(_, reason, _)| reason.to_string())
                    .unwrap_or_else(|| format!("UNEXPECTED: {err}"));
                *failed.entry((tag.clone(), reason)).or_default() += 1;
            }
            let expected: BTreeMap<(String, String), usize> = CATALOGUE_EXPECTED_FAILURES
                .iter()
                .map(|(tag, reason, count)| ((tag.to_string(), reason.to_string()), *count))
                .collect();
            if failed != expected {
                problems.push(format!(
                    "{name}: typed failures {failed:?}, expected {expected:?}"
                ));
            }
        } else {
            for (line, tag, err) in &report.failures {
                problems.push(format!("{name}:{line}: {tag} failed to parse: {err}"));
            }
        }
    }
    assert!(total_events > 0, "the fixtures contain no event_msg lines");
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    Ok(())
}
