//! The numbers `inspect` reports, computed from a tolerantly loaded rollout.
//!
//! Definitions (they are the JSON contract of `inspect --json`):
//! - `lines`: every line of the input, good or bad;
//! - `line_types`: loaded lines by envelope `type` (`legacy_marker` for the
//!   `{"record_type": ...}` lines of pre-envelope files, which carry no item);
//! - `item_types`: loaded items by payload `type`, under their line type
//!   (`response_item`, `event_msg`);
//! - `user_turns`: the messages a person sent that still count after rollbacks, as
//!   `codex_rollout::turns` defines them (the same count `fork --drop-turns` works on);
//! - `tool_calls`: calls by tool name; `unanswered_calls`: calls that need an output and have
//!   none anywhere in the file (an interrupted or still-running tool);
//! - `tokens`: the cumulative usage of the last `token_count` event that carried usage;
//! - `compactions`: `compacted` lines; `rollbacks`: `thread_rolled_back` events;
//! - `history_mode`: the first session meta's `history_mode` (`legacy` when absent, any other
//!   spelling as written; `null` without a meta);
//! - `copied_from_parent`: for a forked or sub-agent child, the thread its replayed parent
//!   meta names and the 1-based first and last line it copied (`codex_rollout::turns`
//!   finds them), else `null`;
//! - `history_base`: for a fork by reference, the first meta's `history_base` (the parent
//!   thread and where its prefix ends), else `null`; the counts above are of this file's own
//!   lines.

use std::collections::BTreeMap;

use codex_protocol::call_matching::match_calls;
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{HistoryBase, RolloutItem};
use codex_rollout::load::{EntryContent, LineProblem, RolloutContents};
use codex_rollout::turns::{parent_prefix, user_turn_count};
use serde::Serialize;

/// A problem line, as every command reports it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ProblemReport {
    /// 1-based line number.
    pub line: usize,
    /// Stable kind name (`malformed`, `truncated`, `unknown_line_type`, ...).
    pub kind: &'static str,
    /// What was wrong.
    pub message: String,
}

impl From<&LineProblem> for ProblemReport {
    fn from(problem: &LineProblem) -> Self {
        Self {
            line: problem.line,
            kind: problem.kind.as_str(),
            message: problem.message.clone(),
        }
    }
}

/// A call that has no output in the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct UnansweredCall {
    /// Line of the call.
    pub line: usize,
    /// Its call id.
    pub call_id: String,
    /// The tool it called.
    pub name: String,
}

/// Cumulative token usage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Tokens {
    pub input: i64,
    pub cached_input: i64,
    pub output: i64,
    pub reasoning_output: i64,
    pub total: i64,
    /// The model's context window, when the file says.
    pub model_context_window: Option<i64>,
}

/// Everything `inspect` reports; serializes to exactly the documented keys.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inspection {
    pub thread_id: Option<String>,
    pub cli_version: Option<String>,
    pub lines: usize,
    pub problems: Vec<ProblemReport>,
    pub line_types: BTreeMap<String, usize>,
    pub item_types: BTreeMap<String, BTreeMap<String, usize>>,
    pub user_turns: usize,
    pub tool_calls: BTreeMap<String, usize>,
    pub unanswered_calls: Vec<UnansweredCall>,
    pub tokens: Option<Tokens>,
    pub compactions: usize,
    pub rollbacks: usize,
    pub history_mode: Option<String>,
    pub copied_from_parent: Option<CopiedPrefix>,
    pub history_base: Option<HistoryBase>,
}

/// The lines a child copied from its parent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopiedPrefix {
    pub thread_id: String,
    /// First and last copied line, 1-based.
    pub lines: [usize; 2],
}

/// The copied parent prefix of `contents`, by line numbers.
fn copied_prefix(contents: &RolloutContents) -> Option<CopiedPrefix> {
    let prefix = parent_prefix(contents.items())?;
    let line = |index: usize| contents.entry_of_item(index).map(|entry| entry.number);
    let first = line(prefix.items.start)?;
    let last = prefix
        .items
        .end
        .checked_sub(1)
        .and_then(line)
        .unwrap_or(first);
    Some(CopiedPrefix {
        thread_id: prefix.parent_thread_id.to_string(),
        lines: [first, last],
    })
}

/// Computes the inspection of `contents`.
pub fn inspect(contents: &RolloutContents) -> Inspection {
    let items = contents.items();
    // The file's own meta: the first one (later ones are resumes or a parent's, replayed).
    let meta = items.iter().find_map(|item| match item {
        RolloutItem::SessionMeta(meta) => Some(&meta.meta),
        _ => None,
    });
    let mut inspection = Inspection {
        thread_id: contents.thread_id().map(|id| id.to_string()),
        cli_version: meta.map(|meta| meta.cli_version.clone()),
        lines: contents.line_count(),
        problems: contents
            .problems()
            .iter()
            .map(ProblemReport::from)
            .collect(),
        line_types: BTreeMap::new(),
        item_types: BTreeMap::new(),
        user_turns: user_turn_count(contents),
        tool_calls: BTreeMap::new(),
        unanswered_calls: Vec::new(),
        tokens: None,
        compactions: 0,
        rollbacks: 0,
        history_mode: meta.map(|meta| meta.effective_history_mode().as_str().to_string()),
        copied_from_parent: copied_prefix(contents),
        history_base: meta.and_then(|meta| meta.history_base.clone()),
    };
    for entry in contents.entries() {
        let item = match entry.content {
            EntryContent::Item(index) => match items.get(index) {
                Some(item) => item,
                None => continue,
            },
            EntryContent::LegacyMarker => {
                *inspection
                    .line_types
                    .entry("legacy_marker".to_string())
                    .or_default() += 1;
                continue;
            }
            // Kept for forks, but unreadable: it is counted among the problems.
            EntryContent::Opaque => continue,
        };
        *inspection
            .line_types
            .entry(item.tag().to_string())
            .or_default() += 1;
        let payload_type = match item {
            RolloutItem::ResponseItem(ResponseItem::Other)
            | RolloutItem::EventMsg(EventMsg::Other) => {
                peek_payload_type(contents.raw_line(entry)).unwrap_or_else(|| "other".into())
            }
            RolloutItem::ResponseItem(response) => response.item_type().to_string(),
            RolloutItem::EventMsg(event) => event.type_name().to_string(),
            _ => continue,
        };
        *inspection
            .item_types
            .entry(item.tag().to_string())
            .or_default()
            .entry(payload_type)
            .or_default() += 1;
    }
    count_calls(contents, &mut inspection);
    for item in items {
        match item {
            RolloutItem::Compacted(_) => inspection.compactions += 1,
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(_)) => inspection.rollbacks += 1,
            RolloutItem::EventMsg(EventMsg::TokenCount(count)) => {
                if let Some(info) = &count.info {
                    let total = &info.total_token_usage;
                    inspection.tokens = Some(Tokens {
                        input: total.input_tokens,
                        cached_input: total.cached_input_tokens,
                        output: total.output_tokens,
                        reasoning_output: total.reasoning_output_tokens,
                        total: total.total_tokens,
                        model_context_window: info.model_context_window,
                    });
                }
            }
            _ => {}
        }
    }
    inspection
}

/// Tool calls by name, and the calls without an output (codex-protocol's matching rule: an
/// output before its call, or a second one, answers nothing).
fn count_calls(contents: &RolloutContents, inspection: &mut Inspection) {
    let items = contents.items();
    let responses: Vec<(usize, &ResponseItem)> = items
        .iter()
        .enumerate()
        .filter_map(|(index, item)| match item {
            RolloutItem::ResponseItem(response) => Some((index, response)),
            _ => None,
        })
        .collect();
    for (_, response) in &responses {
        if let Some(name) = tool_name(response) {
            *inspection.tool_calls.entry(name).or_default() += 1;
        }
    }
    for index in match_calls(responses.iter().copied()).unanswered {
        let Some(RolloutItem::ResponseItem(call)) = items.get(index) else {
            continue;
        };
        inspection.unanswered_calls.push(UnansweredCall {
            line: contents
                .entry_of_item(index)
                .map_or(0, |entry| entry.number),
            call_id: call.call_id().unwrap_or_default().to_string(),
            name: tool_name(call).unwrap_or_else(|| call.item_type().to_string()),
        });
    }
}

/// The tool a call item invokes; `None` for items that are not calls.
pub fn tool_name(item: &ResponseItem) -> Option<String> {
    let name = match item {
        ResponseItem::FunctionCall {
            name, namespace, ..
        } => match namespace {
            // The namespace is a prefix such as `mcp__server__`, written before the name.
            Some(namespace) => format!("{namespace}{name}"),
            _ => name.clone(),
        },
        ResponseItem::CustomToolCall { name, .. } => name.clone(),
        ResponseItem::LocalShellCall { .. } => "local_shell".to_string(),
        ResponseItem::ToolSearchCall { .. } => "tool_search".to_string(),
        ResponseItem::WebSearchCall { .. } => "web_search".to_string(),
        ResponseItem::ImageGenerationCall { .. } => "image_generation".to_string(),
        _ => return None,
    };
    Some(name)
}

/// The payload `type` of a line whose payload the model does not know.
fn peek_payload_type(raw: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(raw).ok()?;
    let payload = value.get("payload").unwrap_or(&value);
    payload.get("type")?.as_str().map(str::to_string)
}
