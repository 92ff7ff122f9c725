//! Real Codex session files through the context manager: record every response item (a
//! compaction's replacement history replaces what came before), project for the prompt, and
//! check the projection has no orphan output and no unanswered call.
//!
//! Real captures are complete except the in-progress session, whose last call has no output
//! yet: it must get exactly one synthesized output. The shape catalogue (not a capture) only
//! has to come out well paired.

use std::collections::HashMap;
use std::path::Path;

use codex_core::ContextManager;
use codex_core::InputModality;
use codex_core::TruncationPolicy;
use codex_protocol::call_pairing::CallSide;
use codex_protocol::call_pairing::PairKey;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::rollout::parse_rollout_line;
use codex_protocol::rollout::split_lines;
use codex_test_support::REAL_FIXTURES as FIXTURES;
use codex_test_support::real_jsonl_files;

const ALL_MODALITIES: &[InputModality] = &[
    InputModality::Text,
    InputModality::Image,
    InputModality::Audio,
];
const IN_PROGRESS_SESSION: &str = "madshn__localpush__rollout-2026-02-23T13-19-38";
const SHAPE_CATALOGUE: &str = "jazzyalex__agent-sessions__small.jsonl";

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Replays a session file into a history the simple way: response items are recorded, a
/// compaction with a replacement history replaces everything before it.
fn history_of_file(path: &Path) -> Result<ContextManager, Box<dyn std::error::Error>> {
    let bytes = std::fs::read(path)?;
    let mut history = ContextManager::new();
    for (_, line) in split_lines(&bytes) {
        let Ok(parsed) = parse_rollout_line(line) else {
            continue;
        };
        match parsed.into_line().map(|line| line.item) {
            Some(RolloutItem::ResponseItem(item)) => {
                history.record_owned_items([item], TruncationPolicy::Tokens(10_000));
            }
            Some(RolloutItem::Compacted(compacted)) => {
                if let Some(replacement) = compacted.replacement_history {
                    history.replace(replacement);
                }
            }
            _ => {}
        }
    }
    Ok(history)
}

/// What the projection changed, found by walking raw and projected side by side (the
/// projection keeps the order of what it keeps).
#[derive(Debug, Default, PartialEq)]
struct ProjectionDiff {
    synthesized: Vec<ResponseItem>,
    dropped: Vec<ResponseItem>,
}

fn diff(raw: &[ResponseItem], projected: &[ResponseItem]) -> ProjectionDiff {
    let mut result = ProjectionDiff::default();
    let (mut i, mut j) = (0, 0);
    loop {
        match (projected.get(i), raw.get(j)) {
            (None, None) => break,
            (Some(p), Some(r)) if p == r => {
                i += 1;
                j += 1;
            }
            (Some(p), _) if is_synthesized(p) => {
                result.synthesized.push(p.clone());
                i += 1;
            }
            (_, Some(r)) => {
                result.dropped.push(r.clone());
                j += 1;
            }
            (Some(p), None) => {
                result.synthesized.push(p.clone());
                i += 1;
            }
        }
    }
    result
}

/// The projection only ever adds `"aborted"` outputs (or empty tool search results).
fn is_synthesized(item: &ResponseItem) -> bool {
    match item {
        ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } => {
            output.text_content() == Some("aborted")
        }
        ResponseItem::ToolSearchOutput { tools, .. } => tools.is_empty(),
        _ => false,
    }
}

/// Per pairing key, calls and outputs alternate; an output without an open call must need
/// none. Returns a description of the first violation.
fn pairing_violation(items: &[ResponseItem]) -> Option<String> {
    let mut open: HashMap<PairKey<'_>, usize> = HashMap::new();
    for (index, item) in items.iter().enumerate() {
        let Some(link) = item.call_link() else {
            continue;
        };
        let Some(key) = link.pair_key() else { continue };
        match link.side {
            CallSide::Call => {
                if let Some(previous) = open.insert(key, index) {
                    return Some(format!(
                        "call at {index} while the call at {previous} is unanswered"
                    ));
                }
            }
            CallSide::Output => {
                if open.remove(&key).is_none() && link.requires_partner() {
                    return Some(format!("orphan output at {index}"));
                }
            }
        }
    }
    open.into_iter()
        .find(|(_, index)| {
            items[*index]
                .call_link()
                .is_some_and(|link| link.requires_partner())
        })
        .map(|(_, index)| format!("call at {index} has no output"))
}

#[test]
fn real_sessions_project_without_orphans_or_missing_outputs() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty(), "no .jsonl files in {FIXTURES}");
    let mut saw_in_progress = false;
    for path in &files {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        let history = history_of_file(path)?;
        let raw = history.raw_items().to_vec();
        let projected = history.for_prompt(ALL_MODALITIES);

        if let Some(violation) = pairing_violation(&projected) {
            return Err(format!("{name}: {violation}").into());
        }
        let changes = diff(&raw, &projected);
        assert!(!raw.is_empty(), "{name}: no response item recorded");
        #[allow(clippy::print_stderr)]
        {
            eprintln!(
                "{name}: {} history items, {} prompt items, {} synthesized, {} dropped",
                raw.len(),
                projected.len(),
                changes.synthesized.len(),
                changes.dropped.len()
            );
        }
        if name == SHAPE_CATALOGUE {
            continue;
        }
        if name.starts_with(IN_PROGRESS_SESSION) {
            saw_in_progress = true;
            assert_eq!(changes.synthesized.len(), 1, "{name}: {changes:?}");
            assert!(changes.dropped.is_empty(), "{name}: {changes:?}");
            let last_call = raw.iter().rev().find(|item| item.is_tool_call());
            let synthesized = &changes.synthesized[0];
            assert_eq!(
                synthesized.call_id(),
                last_call.and_then(ResponseItem::call_id)
            );
            let call_position = projected
                .iter()
                .position(|item| Some(item) == last_call)
                .ok_or("the call is missing from the projection")?;
            assert_eq!(
                projected.get(call_position + 1),
                Some(synthesized),
                "{name}"
            );
        } else {
            assert_eq!(
                changes,
                ProjectionDiff::default(),
                "{name}: a complete capture changed"
            );
        }
    }
    assert!(
        saw_in_progress,
        "the in-progress session is missing from {FIXTURES}"
    );
    Ok(())
}

#[test]
fn real_sessions_survive_repeated_head_trimming() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    for path in &files {
        let name = path
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        let mut history = ContextManager::new();
        history.replace(history_of_file(path)?.for_prompt(ALL_MODALITIES));
        while !history.is_empty() {
            history.trim_oldest(7);
            if let Some(violation) = pairing_violation(history.raw_items()) {
                return Err(format!("{name} after trimming: {violation}").into());
            }
        }
    }
    Ok(())
}
