//! What a session file holds, at a glance: the numbers `codex-thread inspect` reports,
//! computed from a rollout's lines as a caller streams them.
//!
//! Definitions (they are the JSON contract of `inspect --json`):
//! - `lines`: every line of the input, good or bad;
//! - `line_types`: loaded lines by envelope `type` (`legacy_marker` for the
//!   `{"record_type": ...}` lines of pre-envelope files, which carry no item);
//! - `item_types`: loaded items by payload `type`, under their line type
//!   (`response_item`, `event_msg`);
//! - `turns`: the thread's turns, the turns `thread`, `view` and `table` show
//!   (app-server-protocol's history builder over codex-rollout's client view);
//! - `user_messages`: the messages a person sent that still count after rollbacks, as
//!   `codex_rollout::turns` defines them (the count `fork --drop-turns` works on): it differs
//!   from `turns` where a message steered a running turn or a turn holds none of the
//!   person's messages;
//! - `tool_calls`: calls by tool name; `unanswered_calls`: calls that need an output and have
//!   none anywhere in the file (an interrupted or still-running tool);
//! - `tokens`: what the session's own responses used, counted as `usage` counts them
//!   (codex-home's `UsageScan`: a forked child's copied parent prefix is not charged to it),
//!   and the newest context window a `token_count` named;
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

use std::collections::HashMap;

use crate::{ReadError, SessionInput, UsageScan, stream_client_view, stream_session};
use codex_app_server_protocol::ThreadHistoryBuilder;
use codex_protocol::call_matching::{Pushed, StreamingCallMatcher};
use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{HistoryBase, LineFormat, RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use codex_protocol::tool_call::tool_name;
use codex_rollout::{ClientView, ParentPrefixScan, Provenance};
use codex_rollout::{LineProblem, StreamedContent};
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

/// What the session's own responses used: the usage count ([`crate::FileUsage`], the
/// one `usage` reports; a forked child's copied parent prefix is not charged to it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InspectedTokens {
    /// Input tokens (cached ones included).
    pub input: i64,
    /// Input tokens served from the cache.
    pub cached_input: i64,
    /// Output tokens (reasoning included).
    pub output: i64,
    /// Reasoning output tokens.
    pub reasoning_output: i64,
    /// All tokens.
    pub total: i64,
    /// The model's context window, when the file says.
    pub model_context_window: Option<i64>,
}

/// Everything `inspect` reports; serializes to exactly the documented keys.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Inspection {
    /// The first session meta's thread id.
    pub thread_id: Option<String>,
    /// The first session meta's CLI version.
    pub cli_version: Option<String>,
    /// Every line of the input, good or bad.
    pub lines: usize,
    /// The problem lines.
    pub problems: Vec<ProblemReport>,
    /// Loaded lines by envelope `type`.
    pub line_types: BTreeMap<String, usize>,
    /// Loaded items by payload `type`, under their line type.
    pub item_types: BTreeMap<String, BTreeMap<String, usize>>,
    /// The thread's turns.
    pub turns: usize,
    /// The person's messages that still count after rollbacks.
    pub user_messages: usize,
    /// Calls by tool name.
    pub tool_calls: BTreeMap<String, usize>,
    /// Calls that need an output and have none in the file.
    pub unanswered_calls: Vec<UnansweredCall>,
    /// What the session's own responses used, when the file counted it.
    pub tokens: Option<InspectedTokens>,
    /// `compacted` lines.
    pub compactions: usize,
    /// `thread_rolled_back` events.
    pub rollbacks: usize,
    /// The first session meta's `history_mode`.
    pub history_mode: Option<String>,
    /// The lines a forked or sub-agent child copied from its parent.
    pub copied_from_parent: Option<CopiedPrefix>,
    /// A fork by reference's `history_base`.
    pub history_base: Option<HistoryBase>,
}

/// The lines a child copied from its parent.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CopiedPrefix {
    /// The parent thread.
    pub thread_id: String,
    /// First and last copied line, 1-based.
    pub lines: [usize; 2],
}

/// The inspection of a rollout, computed one line at a time as a caller streams the file
/// (`codex-thread inspect`). It
/// keeps counters, the calls still waiting for an output and the unanswered ones, never the
/// items.
#[derive(Debug)]
pub struct Inspector {
    inspection: Inspection,
    meta_seen: bool,
    calls: StreamingCallMatcher,
    /// Calls by line, until their output is read; the unanswered ones stay.
    open_calls: HashMap<usize, UnansweredCall>,
    prefix: ParentPrefixScan,
    /// The copied parent lines: the parent, the first and the last line; closed at the
    /// first own line after them.
    copied: Option<(ThreadId, usize, usize)>,
    copied_closed: bool,
    /// The session's own responses, counted by `usage`'s rule.
    usage: UsageScan,
    /// A usage line was read (a `token_count` with usage, or a `token_usage_record`).
    usage_seen: bool,
    /// The model's context window, from the newest `token_count` that says.
    context_window: Option<i64>,
    /// The thread's turns, counted as `thread` builds them.
    view: ClientView,
    history: ThreadHistoryBuilder,
}

impl Default for Inspector {
    fn default() -> Self {
        Self::new()
    }
}

impl Inspector {
    /// An inspector that has read nothing.
    pub fn new() -> Self {
        Self {
            inspection: Inspection {
                thread_id: None,
                cli_version: None,
                lines: 0,
                problems: Vec::new(),
                line_types: BTreeMap::new(),
                item_types: BTreeMap::new(),
                turns: 0,
                user_messages: 0,
                tool_calls: BTreeMap::new(),
                unanswered_calls: Vec::new(),
                tokens: None,
                compactions: 0,
                rollbacks: 0,
                history_mode: None,
                copied_from_parent: None,
                history_base: None,
            },
            meta_seen: false,
            calls: StreamingCallMatcher::new(),
            open_calls: HashMap::new(),
            prefix: ParentPrefixScan::default(),
            copied: None,
            copied_closed: false,
            usage: UsageScan::new(),
            usage_seen: false,
            context_window: None,
            view: ClientView::streaming(),
            history: ThreadHistoryBuilder::planner(),
        }
    }

    /// Takes the problem of line `number`, if it had one, and counts the line.
    pub fn push_line(&mut self, number: usize, problem: Option<&LineProblem>) {
        self.inspection.lines = self.inspection.lines.max(number);
        if let Some(problem) = problem {
            self.inspection.problems.push(problem.into());
        }
    }

    /// Takes a legacy `{"record_type": ...}` marker line.
    pub fn push_marker(&mut self, format: LineFormat) {
        self.view.note_format(format);
        *self
            .inspection
            .line_types
            .entry("legacy_marker".to_string())
            .or_default() += 1;
    }

    /// Takes a line of a known kind whose payload the model cannot read (it is counted among
    /// the problems only).
    pub fn push_opaque(&mut self, format: LineFormat) {
        self.view.note_format(format);
    }

    /// Takes the line `number`, whose bytes are `raw`.
    pub fn push_item(&mut self, number: usize, line: &RolloutLine, format: LineFormat, raw: &[u8]) {
        let item = &line.item;
        self.usage.push(number, line);
        let inspection = &mut self.inspection;
        self.view.note_format(format);
        let history = &mut self.history;
        self.view.push(number, raw, item, &mut |item| {
            history.handle_rollout_item(item);
        });
        match self.prefix.push(item) {
            Provenance::Copied { parent_thread_id } if !self.copied_closed => {
                match &mut self.copied {
                    Some((_, _, last)) => *last = number,
                    None => self.copied = Some((parent_thread_id, number, number)),
                }
            }
            Provenance::Own if self.copied.is_some() => self.copied_closed = true,
            _ => {}
        }
        *inspection
            .line_types
            .entry(item.tag().to_string())
            .or_default() += 1;
        let payload_type = match item {
            RolloutItem::ResponseItem(ResponseItem::Other)
            | RolloutItem::EventMsg(EventMsg::Other) => {
                Some(peek_payload_type(raw).unwrap_or_else(|| "other".into()))
            }
            RolloutItem::ResponseItem(response) => Some(response.item_type().to_string()),
            RolloutItem::EventMsg(event) => Some(event.type_name().to_string()),
            _ => None,
        };
        if let Some(payload_type) = payload_type {
            *inspection
                .item_types
                .entry(item.tag().to_string())
                .or_default()
                .entry(payload_type)
                .or_default() += 1;
        }
        match item {
            // The file's own meta: the first one (later ones are resumes or a parent's,
            // replayed).
            RolloutItem::SessionMeta(meta) if !self.meta_seen => {
                self.meta_seen = true;
                let meta = &meta.meta;
                inspection.thread_id = Some(meta.id.to_string());
                inspection.cli_version = Some(meta.cli_version.clone());
                inspection.history_mode = Some(meta.effective_history_mode().as_str().to_string());
                inspection.history_base = meta.history_base.clone();
            }
            RolloutItem::ResponseItem(response) => {
                if let Some(name) = tool_name(response) {
                    *inspection.tool_calls.entry(name).or_default() += 1;
                }
                match self.calls.push_owned(number, response) {
                    Pushed::Call => {
                        self.open_calls.insert(
                            number,
                            UnansweredCall {
                                line: number,
                                call_id: response.call_id().unwrap_or_default().to_string(),
                                name: tool_name(response)
                                    .unwrap_or_else(|| response.item_type().to_string()),
                            },
                        );
                    }
                    Pushed::Answered(pair) => {
                        self.open_calls.remove(&pair.call);
                    }
                    Pushed::Nothing | Pushed::Orphan => {}
                }
            }
            RolloutItem::Compacted(_) => inspection.compactions += 1,
            RolloutItem::EventMsg(EventMsg::ThreadRolledBack(_)) => inspection.rollbacks += 1,
            RolloutItem::EventMsg(EventMsg::TokenCount(count)) => {
                if let Some(info) = &count.info {
                    self.usage_seen = true;
                    self.context_window = info.model_context_window;
                }
            }
            RolloutItem::TokenUsageRecord(_) => self.usage_seen = true,
            _ => {}
        }
    }

    /// The inspection of everything read, and whether its `turns` must be counted again:
    /// when the file's client view had to be built by another rule than its first lines
    /// said, the caller counts them over the file again, with the rule known.
    pub fn finish(mut self) -> (Inspection, bool) {
        let mut inspection = self.inspection;
        inspection.user_messages = self.view.user_turns();
        let history = &mut self.history;
        let view = self
            .view
            .finish(&mut |item| history.handle_rollout_item(item));
        inspection.turns = self.history.finish_schedule().turns();
        if self.usage_seen {
            let total = self.usage.finish().total();
            let signed = |count: u64| i64::try_from(count).unwrap_or(i64::MAX);
            inspection.tokens = Some(InspectedTokens {
                input: signed(total.input_tokens),
                cached_input: signed(total.cached_input_tokens),
                output: signed(total.output_tokens),
                reasoning_output: signed(total.reasoning_output_tokens),
                total: signed(total.total_tokens),
                model_context_window: self.context_window,
            });
        }
        inspection.copied_from_parent = self.copied.map(|(thread_id, first, last)| CopiedPrefix {
            thread_id: thread_id.to_string(),
            lines: [first, last],
        });
        inspection.unanswered_calls = self
            .calls
            .finish()
            .unanswered
            .into_iter()
            .filter_map(|line| self.open_calls.remove(&line))
            .collect();
        if let Err(changed) = &view {
            tracing::debug!(%changed, "the turns are counted again");
        }
        (inspection, view.is_err())
    }
}

/// Inspects `input` in one streamed pass ([`Inspector`]; memory bounded by its longest line)
/// and, when its client view had to be built by another rule than its first lines said,
/// counts its turns again over `recount`: the same session opened afresh (a caller that shows
/// progress for `input` passes one that shows none).
pub fn inspect_input(
    input: &dyn SessionInput,
    recount: &dyn SessionInput,
) -> Result<Inspection, ReadError> {
    let mut inspector = Inspector::new();
    stream_session(input, |line| {
        inspector.push_line(line.number, line.problem.as_ref());
        match &line.content {
            StreamedContent::Line(rollout_line, format) => {
                inspector.push_item(line.number, rollout_line, *format, line.raw);
            }
            StreamedContent::LegacyMarker(format) => inspector.push_marker(*format),
            StreamedContent::Opaque(format) => inspector.push_opaque(*format),
            StreamedContent::Skipped => {}
        }
    })?;
    let (mut inspection, count_again) = inspector.finish();
    if count_again {
        let count = stream_client_view(recount, ThreadHistoryBuilder::planner, |history, item| {
            history.handle_rollout_item(item)
        })?;
        inspection.turns = count.finish_schedule().turns();
    }
    Ok(inspection)
}

/// The payload `type` of a line whose payload the model does not know.
fn peek_payload_type(raw: &[u8]) -> Option<String> {
    let value: serde_json::Value = serde_json::from_slice(raw).ok()?;
    let payload = value.get("payload").unwrap_or(&value);
    payload.get("type")?.as_str().map(str::to_string)
}

#[cfg(test)]
#[path = "inspect_tests.rs"]
mod tests;
