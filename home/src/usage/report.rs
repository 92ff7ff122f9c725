//! The rows of a usage report: responses grouped by local day, week (starting Monday), month,
//! session or model, in a time zone, within an optional date range.
//!
//! Which responses exist, their tokens, model and time come from the parent module's tally of
//! one file ([`super::file_usage`]); this module only puts them in rows. Pricing and the
//! table or JSON layout are the binary's.

use std::collections::BTreeMap;

use super::{FileUsage, ResponseUsage, Tally, UNKNOWN_MODEL};
use chrono::{DateTime, Datelike, Duration, NaiveDate, Utc};
use chrono_tz::Tz;

/// The key project rows have for a file without a session meta.
const UNKNOWN_PROJECT: &str = "unknown";

/// What a report groups by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportKind {
    /// Local calendar day.
    Daily,
    /// Local week, Monday to Sunday, named by its Monday.
    Weekly,
    /// Local calendar month.
    Monthly,
    /// Session file.
    Session,
    /// Model.
    Model,
    /// Project: the session's git repository, else its working directory
    /// (`session_project`).
    Project,
}

impl ReportKind {
    /// Every kind, with the word that selects it on the command line.
    pub const ALL: [(&'static str, ReportKind); 6] = [
        ("daily", ReportKind::Daily),
        ("weekly", ReportKind::Weekly),
        ("monthly", ReportKind::Monthly),
        ("session", ReportKind::Session),
        ("model", ReportKind::Model),
        ("project", ReportKind::Project),
    ];

    /// The kind a command-line word names.
    pub fn from_word(word: &str) -> Option<Self> {
        Self::ALL
            .iter()
            .find(|(name, _)| *name == word)
            .map(|(_, kind)| *kind)
    }

    /// The key of the JSON array of rows (`daily`, `weekly`, ...).
    pub fn json_key(self) -> &'static str {
        Self::ALL
            .iter()
            .find(|(_, kind)| *kind == self)
            .map_or("daily", |(name, _)| *name)
    }
}

/// An inclusive range of local dates; either end may be open.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DateRange {
    /// First day counted.
    pub since: Option<NaiveDate>,
    /// Last day counted.
    pub until: Option<NaiveDate>,
}

impl DateRange {
    fn contains(&self, day: NaiveDate) -> bool {
        self.since.is_none_or(|since| day >= since) && self.until.is_none_or(|until| day <= until)
    }
}

/// One session file's usage, with the name it is reported under.
#[derive(Debug, Clone)]
pub struct SessionUsage {
    /// The file (`-` for standard input).
    pub path: String,
    /// What it spent.
    pub usage: FileUsage,
}

/// One row of a report.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageRow {
    /// The day (`2026-07-11`), week (its Monday), month (`2026-07`), model name, or thread id.
    pub key: String,
    /// For session rows: the file.
    pub path: Option<String>,
    /// The last response counted in the row.
    pub last_activity: DateTime<Utc>,
    /// The row's sums.
    pub tally: Tally,
}

/// A report: its rows in order and their total.
#[derive(Debug, Clone, PartialEq)]
pub struct UsageReport {
    /// Rows: periods in time order, sessions by last activity, models by name.
    pub rows: Vec<UsageRow>,
    /// Every counted response.
    pub totals: Tally,
    /// Responses left out because another file of their thread holds them
    /// ([`super::count_each_response_once`]).
    pub repeated_responses: usize,
}

/// Groups the responses of `sessions` into the rows of `kind`, dating them in `zone` and
/// keeping those whose local day is in `range`.
pub fn build_usage_report(
    kind: ReportKind,
    zone: Tz,
    range: DateRange,
    sessions: &[SessionUsage],
) -> UsageReport {
    let mut rows: BTreeMap<String, UsageRow> = BTreeMap::new();
    let mut totals = Tally::default();
    for session in sessions {
        for response in &session.usage.responses {
            let day = local_day(response, zone);
            if !range.contains(day) {
                continue;
            }
            totals.add(response);
            let (key, path) = match kind {
                ReportKind::Daily => (day.format("%Y-%m-%d").to_string(), None),
                ReportKind::Weekly => (week_start(day).format("%Y-%m-%d").to_string(), None),
                ReportKind::Monthly => (day.format("%Y-%m").to_string(), None),
                ReportKind::Model => (
                    response
                        .model
                        .as_deref()
                        .unwrap_or(UNKNOWN_MODEL)
                        .to_string(),
                    None,
                ),
                ReportKind::Project => (
                    session
                        .usage
                        .project
                        .clone()
                        .unwrap_or_else(|| UNKNOWN_PROJECT.to_string()),
                    None,
                ),
                ReportKind::Session => (
                    session
                        .usage
                        .thread_id
                        .map_or_else(|| session.path.clone(), |id| id.to_string()),
                    Some(session.path.clone()),
                ),
            };
            // The pieces of one thread (a continuation file goes on where its base ends) are
            // one session, shown by its newest piece, as Codex lists it.
            let row = rows.entry(key.clone()).or_insert_with(|| UsageRow {
                key,
                path: path.clone(),
                last_activity: response.timestamp,
                tally: Tally::default(),
            });
            if let (Some(shown), Some(path)) = (&mut row.path, path)
                && newer_piece(&path, shown)
            {
                *shown = path;
            }
            row.last_activity = row.last_activity.max(response.timestamp);
            row.tally.add(response);
        }
    }
    if kind == ReportKind::Session {
        // A piece with no response of its own (a revert copies none) is still the thread's
        // newest piece when it is newer.
        for session in sessions {
            let key = session
                .usage
                .thread_id
                .map_or_else(|| session.path.clone(), |id| id.to_string());
            if let Some(UsageRow {
                path: Some(shown), ..
            }) = rows.get_mut(&key)
                && newer_piece(&session.path, shown)
            {
                shown.clone_from(&session.path);
            }
        }
    }
    let mut rows: Vec<UsageRow> = rows.into_values().collect();
    if kind == ReportKind::Session {
        rows.sort_by(|a, b| (a.last_activity, &a.key).cmp(&(b.last_activity, &b.key)));
    }
    let repeated_responses = sessions
        .iter()
        .map(|session| session.usage.repeated_responses)
        .sum();
    UsageReport {
        rows,
        totals,
        repeated_responses,
    }
}

/// Whether the session file at `candidate` is a newer piece of its thread than `shown`: by
/// the creation time and rollout id their names give (a continuation file is named after the
/// moment it was made), else by the names themselves.
fn newer_piece(candidate: &str, shown: &str) -> bool {
    let name = |path: &str| {
        std::path::Path::new(path)
            .file_name()
            .and_then(|name| name.to_str())
            .and_then(codex_rollout::parse_rollout_file_name)
            .map(|name| (name.created, name.rollout()))
    };
    match (name(candidate), name(shown)) {
        (Some(candidate), Some(shown)) => candidate > shown,
        _ => candidate > shown,
    }
}

/// The local calendar day of a response.
pub fn local_day(response: &ResponseUsage, zone: Tz) -> NaiveDate {
    response.timestamp.with_timezone(&zone).date_naive()
}

/// The Monday of the week `day` is in.
fn week_start(day: NaiveDate) -> NaiveDate {
    day - Duration::days(i64::from(day.weekday().num_days_from_monday()))
}

#[cfg(test)]
#[path = "report_tests.rs"]
mod tests;
