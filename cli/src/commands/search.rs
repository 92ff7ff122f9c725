//! `codex-thread search QUERY [--home DIR] [--index PATH] [--role R] [--cwd DIR] [--since T]
//! [--until T] [--limit N] [--sort newest|rank]`: full-text search over every session of a
//! home.
//!
//! codex-rollout's search index does the work (`codex_home`): it is brought up to
//! date with the home before the query, then queried. What stays here is the arguments, the
//! layout of the hits and the resume hint.

use std::path::{Path, PathBuf};

use chrono::{DateTime, Days, NaiveDate, SecondsFormat, Utc};
use codex_home::{Hit, Order, Query, Role, SearchError, SearchIndex, update_and_search};
use serde::Serialize;

use crate::cli::SearchArgs;
use crate::error::{CommandResult, Failure, Status};
use crate::inputs::resolve_home;
use crate::output::{Output, note, one_line};

/// One hit, as `search --json` prints it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchHit {
    pub thread_id: String,
    pub path: String,
    pub line: u64,
    pub turn: u32,
    pub role: &'static str,
    pub kind: &'static str,
    /// RFC 3339 UTC with milliseconds, when the line has a time.
    pub timestamp: Option<String>,
    pub cwd: Option<String>,
    pub model: Option<String>,
    /// The text around the match, matched terms in `[`…`]`.
    pub snippet: String,
    /// BM25 rank (lower is better).
    pub rank: f64,
    /// The line was copied from a parent thread (shown with `--copied` only).
    pub copied: bool,
    /// The command that resumes the thread in Codex.
    pub resume: String,
}

/// What `search --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SearchResults {
    pub query: String,
    pub home: String,
    pub index: String,
    pub hits: Vec<SearchHit>,
}

/// Runs `search`.
pub fn run(args: SearchArgs, out: &mut Output) -> CommandResult {
    if args.limit == 0 {
        return Err(Failure::Usage("--limit must be at least 1".to_string()));
    }
    let home = resolve_home(args.home.as_deref())?;
    let index = index_path(args.index)?;
    let query = Query {
        text: args.query.clone(),
        role: args.role.map(|role| match role {
            crate::cli::SearchRole::User => Role::User,
            crate::cli::SearchRole::Assistant => Role::Assistant,
            crate::cli::SearchRole::Tool => Role::Tool,
        }),
        cwd: args.cwd.map(|cwd| cwd.display().to_string()),
        since_ms: args
            .since
            .as_deref()
            .map(|text| time_arg("--since", text, false))
            .transpose()?,
        until_ms: args
            .until
            .as_deref()
            .map(|text| time_arg("--until", text, true))
            .transpose()?,
        copied: args.copied,
        limit: args.limit,
        order: match args.sort {
            crate::cli::SearchSort::Newest => Order::Newest,
            crate::cli::SearchSort::Rank => Order::Rank,
        },
        highlight: ("[".to_string(), "]".to_string()),
    };
    let (hits, _report, rebuilt) =
        update_and_search(&index, &home, &query, &mut |_| {}).map_err(|err| match err {
            SearchError::Query { .. } => Failure::Usage(err.to_string()),
            other => Failure::Unreadable(other.to_string()),
        })?;
    if let Some(rebuilt) = rebuilt {
        note(&format!("{}: {rebuilt}", index.display()));
    }
    let results = SearchResults {
        query: args.query,
        home: home.root().display().to_string(),
        index: index.display().to_string(),
        hits: hits.into_iter().map(search_hit).collect(),
    };
    if out.is_json() {
        out.json_line(&results)?;
        return Ok(Status::Ok);
    }
    if results.hits.is_empty() {
        note(&format!(
            "no match for {:?} in {}",
            results.query, results.home
        ));
    }
    for hit in &results.hits {
        let when = hit
            .timestamp
            .as_deref()
            .and_then(|at| at.get(..16))
            .unwrap_or("(no time)")
            .replace('T', " ");
        let mut head = format!("{when}  {}  turn {}  {}", hit.role, hit.turn, hit.kind);
        if let Some(cwd) = &hit.cwd {
            head.push_str(&format!("  {cwd}"));
        }
        out.line(&head)?;
        out.line(&format!("    {}", one_line(&hit.snippet, 100)))?;
        out.line(&format!(
            "    {}    ({}:{})",
            hit.resume, hit.path, hit.line
        ))?;
    }
    Ok(Status::Ok)
}

fn search_hit(hit: Hit) -> SearchHit {
    SearchHit {
        resume: format!("codex resume {}", hit.thread_id),
        thread_id: hit.thread_id,
        path: hit.path.display().to_string(),
        line: hit.line,
        turn: hit.turn,
        role: hit.role.as_str(),
        kind: hit.kind.as_str(),
        timestamp: hit
            .timestamp_ms
            .and_then(DateTime::<Utc>::from_timestamp_millis)
            .map(|at| at.to_rfc3339_opts(SecondsFormat::Millis, true)),
        cwd: hit.cwd,
        model: hit.model,
        snippet: hit.snippet,
        rank: hit.rank,
        copied: hit.copied,
    }
}

/// `--index PATH`, else the user's cache directory.
fn index_path(explicit: Option<PathBuf>) -> Result<PathBuf, Failure> {
    match explicit {
        Some(path) => Ok(path),
        None => SearchIndex::default_path().map_err(|err| Failure::Usage(err.to_string())),
    }
}

/// A `--since`/`--until` value as Unix ms: RFC 3339, or a date (UTC), which means the start
/// of that day, or for `--until` its end.
fn time_arg(flag: &str, text: &str, end_of_day: bool) -> Result<i64, Failure> {
    if let Ok(at) = DateTime::parse_from_rfc3339(text) {
        return Ok(at.timestamp_millis());
    }
    let date = NaiveDate::parse_from_str(text, "%Y-%m-%d").map_err(|_| {
        Failure::Usage(format!(
            "invalid {flag} `{text}`: expected a date (2025-09-25) or an RFC 3339 time"
        ))
    })?;
    let date = if end_of_day {
        date.checked_add_days(Days::new(1)).unwrap_or(date)
    } else {
        date
    };
    Ok(date
        .and_hms_opt(0, 0, 0)
        .map_or(0, |at| at.and_utc().timestamp_millis()))
}

/// The rollout files of `home` whose thread id starts with `prefix`, from the search index
/// when one exists at the default place and knows any, else none (the caller scans names).
pub fn indexed_thread_files(
    home: &codex_rollout::CodexHome,
    prefix: &str,
) -> Vec<(String, PathBuf)> {
    let Ok(path) = SearchIndex::default_path() else {
        return Vec::new();
    };
    indexed_thread_files_at(&path, home, prefix)
}

fn indexed_thread_files_at(
    path: &Path,
    home: &codex_rollout::CodexHome,
    prefix: &str,
) -> Vec<(String, PathBuf)> {
    SearchIndex::open_existing(path)
        .and_then(|index| index.files_with_thread_prefix(home, prefix).ok())
        .unwrap_or_default()
        .into_iter()
        .filter(|(_, path)| path.is_file())
        .collect()
}
