//! Token usage of rollouts: each model response counted once, at its time, for its model.
//!
//! Usage reports (`codex-thread usage`, and the tools people run on their Codex homes) need
//! one answer to "what did this thread spend": a file's `token_count` lines repeat running
//! totals, a forked or sub-agent child starts with a copy of its parent's lines (totals
//! included), and newer files also write one `token_usage_record` per response. The rules,
//! decided here and nowhere else:
//!
//! - **Source.** A file that has `token_usage_record` lines is counted from them (one per
//!   response, its `usage`); any other file from the *change* of
//!   `token_count.info.total_token_usage`: a snapshot equal to the one before adds nothing
//!   (Codex repeats it at the end of a turn), `info: null` lines are skipped, and a total
//!   lower than the one before (a count that restarted) counts that line's
//!   `last_token_usage`.
//! - **Missing history.** The first running total of a file has no total before it. In a
//!   file that starts its thread it equals that line's `last_token_usage` and is counted
//!   whole. In a piece whose earlier history is in another file (a 0.159+ continuation file,
//!   an excerpt, a piece whose base is missing) it also holds that history, which the piece
//!   did not pay for and which its base counts when present: it sets the baseline and counts
//!   the line's `last_token_usage` when the model produced an item since the turn started
//!   (else the line is Codex's repeat of the last total at a turn's start, a response of the
//!   earlier history, and counts nothing). So a piece is charged its own responses, with or
//!   without its base; a line that gives no `last_token_usage` counts its total whole.
//! - **Copied prefix.** A child's lines copied from its parent (its parent's replayed meta
//!   and everything up to the child's own first turn, as [`ParentPrefixScan`] decides) never
//!   count; their totals still set the baseline the child's own totals grow from. A fork by
//!   reference copies nothing, so nothing is left out.
//! - **Subsets.** `input_tokens` includes `cached_input_tokens`, `output_tokens` includes
//!   `reasoning_output_tokens`, and `total_tokens` is `input + output` (see [`Tokens`]).
//! - **Model and time.** A response is billed to the model in force at its line (the last
//!   `turn_context` or `thread_settings_applied` that named one) at the line's timestamp.
//!
//! [`UsageScan`] applies the rules one line at a time (memory: the responses found, or with
//! [`UsageScan::by_day`] one entry per model and local day, flat in the file's size);
//! [`file_usage`] and [`file_usage_by_day`] run it over a [`RolloutStream`]; [`Tally`] sums
//! responses per model. Time zones (beyond grouping by day), prices and layout belong to the
//! caller.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::Path;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use codex_protocol::event::{EventMsg, TokenUsage};
use codex_protocol::rollout::{RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use serde::Serialize;

use codex_rollout::RolloutStream;
use codex_rollout::{ParentPrefixScan, Provenance};

mod files;
mod group;
mod light;
mod line_kind;
mod once;
mod project;
mod report;

use group::DayGroups;
use line_kind::{LineKind, is_model_output, line_kind};

pub use files::{UsageFile, read_usage_files};
#[cfg(feature = "tables")]
pub(crate) use once::SeenResponses;
pub use once::count_each_response_once;
use project::has_remote;
pub(crate) use project::session_project;
pub use report::{
    DateRange, ReportKind, SessionUsage, UsageReport, UsageRow, build_usage_report, local_day,
};

/// Token counts under the subset rules: `input_tokens` includes `cached_input_tokens`,
/// `output_tokens` includes `reasoning_output_tokens`, `total_tokens = input + output`.
///
/// Unsigned, so a negative count in a file (never written by Codex) reads as zero instead of
/// cancelling real usage.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize)]
pub struct Tokens {
    /// Input tokens, cached ones included.
    pub input_tokens: u64,
    /// The part of the input served from the prompt cache.
    pub cached_input_tokens: u64,
    /// Output tokens, reasoning included.
    pub output_tokens: u64,
    /// The part of the output spent on reasoning.
    pub reasoning_output_tokens: u64,
    /// `input_tokens + output_tokens`.
    pub total_tokens: u64,
}

impl Tokens {
    /// Builds counts from input and output with their subsets; a subset larger than its
    /// whole is cut to the whole.
    pub fn new(input: u64, cached_input: u64, output: u64, reasoning_output: u64) -> Self {
        Self {
            input_tokens: input,
            cached_input_tokens: cached_input.min(input),
            output_tokens: output,
            reasoning_output_tokens: reasoning_output.min(output),
            total_tokens: input.saturating_add(output),
        }
    }

    /// The counts of one response as Codex writes them. The written `total_tokens` is not
    /// read: it is always recomputed as input plus output.
    pub fn from_usage(usage: &TokenUsage) -> Self {
        let count = |value: i64| u64::try_from(value).unwrap_or(0);
        Self::new(
            count(usage.input_tokens),
            count(usage.cached_input_tokens),
            count(usage.output_tokens),
            count(usage.reasoning_output_tokens),
        )
    }

    /// Input tokens not served from the cache.
    pub fn uncached_input_tokens(&self) -> u64 {
        self.input_tokens.saturating_sub(self.cached_input_tokens)
    }

    /// Output tokens that are not reasoning.
    pub fn visible_output_tokens(&self) -> u64 {
        self.output_tokens
            .saturating_sub(self.reasoning_output_tokens)
    }

    /// Whether nothing was counted.
    pub fn is_zero(&self) -> bool {
        self.input_tokens == 0 && self.output_tokens == 0
    }

    /// Adds `other` (saturating).
    pub fn add(&mut self, other: &Tokens) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.cached_input_tokens = self
            .cached_input_tokens
            .saturating_add(other.cached_input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.reasoning_output_tokens = self
            .reasoning_output_tokens
            .saturating_add(other.reasoning_output_tokens);
        self.total_tokens = self.total_tokens.saturating_add(other.total_tokens);
    }
}

/// Which kind of line a response was counted from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CountedFrom {
    /// A `token_usage_record` line.
    Record,
    /// A change of a `token_count` line's running total.
    TotalChange,
}

/// One model response: what it used, when, for which model. From [`UsageScan::by_day`], the
/// responses of one model on one local day, counted from one kind of line: their sum, the
/// latest timestamp and its line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResponseUsage {
    /// 1-based line number of the line that counted it.
    pub line: usize,
    /// The line's timestamp.
    pub timestamp: DateTime<Utc>,
    /// The model in force at the line; `None` when no line named one before it.
    pub model: Option<Arc<str>>,
    /// What the response used.
    pub tokens: Tokens,
    /// The kind of line it was counted from.
    pub counted_from: CountedFrom,
}

/// What one file spent: its own responses, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileUsage {
    /// The file's own thread (its first `session_meta`), when it has one.
    pub thread_id: Option<ThreadId>,
    /// The thread whose lines the file starts with a copy of, when it is such a child.
    pub copied_from: Option<ThreadId>,
    /// The project of the file's own thread (`session_project`), when it has a meta.
    pub project: Option<String>,
    /// The responses the file's own thread made.
    pub responses: Vec<ResponseUsage>,
    /// Usage lines inside the copied parent prefix, left out.
    pub copied_usage_lines: usize,
    /// Line numbers of usage lines whose timestamp cannot be read: they cannot be placed in
    /// time, so they are left out (and reported).
    pub undated_lines: Vec<usize>,
    /// Responses left out because an earlier file of the same thread holds them
    /// ([`count_each_response_once`]).
    pub repeated_responses: usize,
    /// The file's damage ([`crate::Damage`]): what it could read is counted, the rest not.
    pub damage: Option<crate::Damage>,
}

impl FileUsage {
    /// The sum of the file's responses.
    pub fn total(&self) -> Tokens {
        let mut total = Tokens::default();
        for response in &self.responses {
            total.add(&response.tokens);
        }
        total
    }
}

/// The usage rules fed one line at a time, in file order (see the module docs).
#[derive(Debug, Default)]
pub struct UsageScan {
    prefix: ParentPrefixScan,
    usage: FileUsage,
    model: Option<Arc<str>>,
    last_total: Option<TokenUsage>,
    /// A `token_usage_record` was seen: the file is counted from records only.
    has_records: bool,
    /// The file's project is a git remote (not a directory that a copied parent meta's remote
    /// may still replace).
    project_from_remote: bool,
    /// The model produced an item since the last turn start or `turn_context` (the
    /// missing-history rule reads it until the file's first running total).
    output_since_turn_start: bool,
    /// Responses merged per model and local day, when asked for.
    groups: Option<DayGroups>,
}

impl UsageScan {
    /// A scan at the start of a file.
    pub fn new() -> Self {
        Self::default()
    }

    /// A scan that keeps one entry per model, local day in `zone` and kind of line (see
    /// [`ResponseUsage`]): every report grouped by day, week, month, session or model in
    /// `zone` is the same as from every response, and memory no longer grows with the file.
    pub fn by_day(zone: Tz) -> Self {
        Self {
            groups: Some(DayGroups::new(zone)),
            ..Self::default()
        }
    }

    /// Takes in the next line (`number` is its 1-based line number).
    pub fn push(&mut self, number: usize, line: &RolloutLine) {
        self.push_item(number, &line.timestamp, &line.item);
    }

    /// [`Self::push`] of a line's parts: its number, its timestamp as written, its item.
    pub fn push_item(&mut self, number: usize, timestamp: &str, item: &RolloutItem) {
        let provenance = self.prefix.push(item);
        let copied = matches!(provenance, Provenance::Copied { .. });
        if let Provenance::Copied { parent_thread_id } = provenance {
            self.usage.copied_from.get_or_insert(parent_thread_id);
        }
        let (tokens, counted_from) = match item {
            RolloutItem::SessionMeta(meta) => {
                match self.usage.thread_id {
                    None => {
                        self.usage.thread_id = Some(meta.meta.id);
                        self.usage.project = Some(session_project(meta));
                        self.project_from_remote = has_remote(meta);
                    }
                    // A sub-agent's own meta records no git; its parent's, copied after it,
                    // names the repository both work in.
                    Some(_) if copied && !self.project_from_remote && has_remote(meta) => {
                        self.usage.project = Some(session_project(meta));
                        self.project_from_remote = true;
                    }
                    Some(_) => {}
                }
                return;
            }
            RolloutItem::TurnContext(_)
            | RolloutItem::EventMsg(EventMsg::ThreadSettingsApplied(_)) => {
                if matches!(item, RolloutItem::TurnContext(_)) {
                    self.output_since_turn_start = false;
                }
                if let Some(model) = model_named(item) {
                    self.set_model(model);
                }
                return;
            }
            RolloutItem::EventMsg(EventMsg::TurnStarted(_)) => {
                self.output_since_turn_start = false;
                return;
            }
            RolloutItem::ResponseItem(response) => {
                if is_model_output(response) {
                    self.model_output();
                }
                return;
            }
            RolloutItem::TokenUsageRecord(record) => {
                if !self.has_records && !copied {
                    // The first own record: the file is counted from records, so what the
                    // running totals gave so far is dropped.
                    self.has_records = true;
                    self.usage
                        .responses
                        .retain(|response| response.counted_from == CountedFrom::Record);
                    if let Some(groups) = &mut self.groups {
                        groups.reindex(&self.usage.responses);
                    }
                }
                (Tokens::from_usage(&record.usage), CountedFrom::Record)
            }
            RolloutItem::EventMsg(EventMsg::TokenCount(count)) => {
                let Some(info) = &count.info else {
                    return;
                };
                let Some(tokens) =
                    self.total_change(&info.total_token_usage, &info.last_token_usage)
                else {
                    return;
                };
                if self.has_records {
                    return;
                }
                (tokens, CountedFrom::TotalChange)
            }
            _ => return,
        };
        if copied {
            self.usage.copied_usage_lines += 1;
            return;
        }
        let Ok(timestamp) = DateTime::parse_from_rfc3339(timestamp) else {
            self.usage.undated_lines.push(number);
            return;
        };
        let response = ResponseUsage {
            line: number,
            timestamp: timestamp.with_timezone(&Utc),
            model: self.model.clone(),
            tokens,
            counted_from,
        };
        match &mut self.groups {
            Some(groups) => groups.add(&mut self.usage.responses, response),
            None => self.usage.responses.push(response),
        }
    }

    /// Takes in a response item the model produced, seen without a parse (the scan needs
    /// only that it was one: see the missing-history rule).
    pub(crate) fn model_output(&mut self) {
        self.output_since_turn_start = true;
    }

    /// Whether the file's first running total is still to come (until then the scan wants
    /// to hear of the model's items, [`Self::model_output`]).
    pub(crate) fn awaits_first_total(&self) -> bool {
        self.last_total.is_none()
    }

    /// The file's usage.
    pub fn finish(self) -> FileUsage {
        self.usage
    }

    fn set_model(&mut self, model: &str) {
        if model.is_empty() || self.model.as_deref() == Some(model) {
            return;
        }
        self.model = Some(Arc::from(model));
    }

    /// What a new running total adds over the last one: `None` when it repeats it.
    fn total_change(&mut self, total: &TokenUsage, last: &TokenUsage) -> Option<Tokens> {
        let fields = |usage: &TokenUsage| {
            [
                usage.input_tokens,
                usage.cached_input_tokens,
                usage.output_tokens,
                usage.reasoning_output_tokens,
            ]
        };
        let now = fields(total);
        let Some(before) = self.last_total.replace(*total).as_ref().map(fields) else {
            // The first running total: in a file that starts its thread it is its first
            // response (the total is the line's own); in a piece whose earlier history is
            // elsewhere it also holds that history, which this file did not pay for.
            let whole = Tokens::from_usage(total);
            let own = Tokens::from_usage(last);
            if own.is_zero() || own == whole {
                return (!whole.is_zero()).then_some(whole);
            }
            // Codex repeats the last total when a turn starts: before the model has produced
            // anything in the turn, the line is that repeat, a response of the earlier
            // history. After, it is the line's own response.
            return (self.output_since_turn_start).then_some(own);
        };
        if now == before {
            return None;
        }
        if now.iter().zip(before).any(|(now, before)| *now < before) {
            // The running total restarted: this line's own response is all it tells.
            let tokens = Tokens::from_usage(last);
            return (!tokens.is_zero()).then_some(tokens);
        }
        let change =
            |index: usize| u64::try_from(now[index].saturating_sub(before[index])).unwrap_or(0);
        Some(Tokens::new(change(0), change(1), change(2), change(3)))
    }
}

/// Why a file's usage could not be read.
#[derive(Debug, thiserror::Error)]
#[error("cannot read {path}: {source}")]
pub struct UsageError {
    /// The file.
    pub path: std::path::PathBuf,
    /// The operating system's answer.
    #[source]
    pub source: std::io::Error,
}

/// The usage of the rollout `stream` reads (plain or compressed). Lines that cannot be read
/// are skipped, as everywhere, and the file's damage noted ([`FileUsage::damage`]); a damaged
/// compressed stream counts what came before the damage.
///
/// Only the lines that can change the answer are parsed: the file's own session meta (every
/// line is parsed until it is seen, so a file of any format names its thread), then lines
/// whose type tags name a type usage reads, told from the tags where Codex writes them
/// (`usage/line_kind.rs`; a line of another shape is searched whole for the tags, which may let a
/// message that quotes a tag through, never the reverse). Token counts get a small parse of
/// their timestamp and payload (`usage/light.rs`), the others the typed parse. Everything else (the
/// messages, tool calls and outputs that make up most of a file) is passed over unparsed.
pub fn file_usage<R: Read>(stream: RolloutStream<R>) -> std::io::Result<FileUsage> {
    scan_stream(stream, UsageScan::new())
}

/// [`file_usage`] with the responses merged per model and local day in `zone`
/// ([`UsageScan::by_day`]): what reports in `zone` need, in memory flat in the file's size.
pub fn file_usage_by_day<R: Read>(
    stream: RolloutStream<R>,
    zone: Tz,
) -> std::io::Result<FileUsage> {
    scan_stream(stream, UsageScan::by_day(zone))
}

fn scan_stream<R: Read>(
    mut stream: RolloutStream<R>,
    mut scan: UsageScan,
) -> std::io::Result<FileUsage> {
    let finders: Vec<memchr::memmem::Finder<'_>> = USAGE_LINE_TAGS
        .iter()
        .map(|tag| memchr::memmem::Finder::new(tag.as_bytes()))
        .collect();
    loop {
        let seen_meta = scan.usage.thread_id.is_some();
        let awaits_first_total = scan.awaits_first_total();
        // A line the test is not asked about (a damaged stream's end) goes the typed way.
        let mut kind = LineKind::Parse;
        let wanted = |raw: &[u8]| {
            if !seen_meta {
                return true;
            }
            if crate::may_be_damaged(raw) {
                // Parsed so that a torn or padded line is reported, never passed over.
                return true;
            }
            kind = line_kind(raw).unwrap_or_else(|| {
                if finders.iter().any(|finder| finder.find(raw).is_some()) {
                    LineKind::Parse
                } else {
                    LineKind::Skip
                }
            });
            if kind == LineKind::ModelOutput && !awaits_first_total {
                kind = LineKind::Skip;
            }
            // A token count is read by the small parse below (the typed one only when that
            // cannot). A model output's item is not read, but the line is parsed so that a
            // damaged one is noted, as every line parsed is.
            matches!(kind, LineKind::Parse | LineKind::ModelOutput)
        };
        let Some(mut line) = stream.next_line_where(wanted)? else {
            break;
        };
        if let Some(problem) = &line.problem {
            crate::note_damage(&mut scan.usage.damage, problem);
        }
        match kind {
            LineKind::Parse => {
                if let Some(rollout_line) = line.line() {
                    scan.push(line.number, rollout_line);
                }
            }
            LineKind::TokenCount => match light::token_count_line(line.raw) {
                Some(light) => {
                    let item = RolloutItem::EventMsg(EventMsg::TokenCount(light.payload));
                    scan.push_item(line.number, light.timestamp, &item);
                }
                None => {
                    // As it would have been read had it been wanted: its problem noted.
                    line.read_in_full();
                    if let Some(problem) = &line.problem {
                        crate::note_damage(&mut scan.usage.damage, problem);
                    }
                    if let Some(rollout_line) = line.line() {
                        scan.push(line.number, rollout_line);
                    }
                }
            },
            LineKind::ModelOutput => scan.model_output(),
            LineKind::Skip => {}
        }
    }
    Ok(scan.finish())
}

/// The model a line puts in force from then on: a `turn_context` or a
/// `thread_settings_applied` that names one (an empty name names none). Usage bills each
/// response to it; the tables give each item the same model.
pub(crate) fn model_named(item: &RolloutItem) -> Option<&str> {
    let model = match item {
        RolloutItem::TurnContext(context) => context.model.as_str(),
        RolloutItem::EventMsg(EventMsg::ThreadSettingsApplied(applied)) => {
            applied.thread_settings.model.as_deref()?
        }
        _ => return None,
    };
    (!model.is_empty()).then_some(model)
}

/// The type tags of the lines usage reads (see [`file_usage`]), quoted as JSON spells them.
const USAGE_LINE_TAGS: [&str; 7] = [
    "\"session_meta\"",
    "\"turn_context\"",
    "\"thread_settings_applied\"",
    "\"token_usage_record\"",
    "\"token_count\"",
    "\"task_started\"",
    "\"turn_started\"",
];

/// The usage of the rollout file at `path`.
pub fn file_usage_at(path: &Path) -> Result<FileUsage, UsageError> {
    let error = |source| UsageError {
        path: path.to_path_buf(),
        source,
    };
    file_usage(RolloutStream::open(path).map_err(error)?).map_err(error)
}

/// A sum of responses, in all and per model.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    /// All responses together.
    pub tokens: Tokens,
    /// Per model; responses with no known model are under [`UNKNOWN_MODEL`].
    pub models: BTreeMap<String, Tokens>,
}

/// The model name responses are tallied under when no line named their model.
pub const UNKNOWN_MODEL: &str = "unknown";

impl Tally {
    /// Adds one response.
    pub fn add(&mut self, response: &ResponseUsage) {
        self.add_tokens(response.model.as_deref(), &response.tokens);
    }

    /// Adds counts billed to `model`.
    pub fn add_tokens(&mut self, model: Option<&str>, tokens: &Tokens) {
        self.tokens.add(tokens);
        let model = model.unwrap_or(UNKNOWN_MODEL);
        match self.models.get_mut(model) {
            Some(sum) => sum.add(tokens),
            None => {
                self.models.insert(model.to_string(), *tokens);
            }
        }
    }

    /// Adds another tally.
    pub fn merge(&mut self, other: &Tally) {
        for (model, tokens) in &other.models {
            self.add_tokens(Some(model), tokens);
        }
    }
}

#[cfg(test)]
#[path = "usage_tests.rs"]
mod tests;
