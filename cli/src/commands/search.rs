//! `codex-thread search QUERY [--home DIR] [--index PATH] [--role R] [--cwd DIR] [--since T]
//! [--until T] [--limit N] [--sort newest|rank] [--fts]`: full-text search over every session of a
//! home.
//!
//! codex-home's search index does the work (`codex_home::SearchIndex`): it is brought up to
//! date with the home before the query, then queried. What stays here is the arguments, the
//! layout of the hits and the resume hint.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;
use codex_home::{Hit, Order, Query, RangeEnd, Role, Syntax, parse_instant_ms};
use serde::Serialize;

use crate::cli::SearchArgs;
use crate::damaged::DamagedFiles;
use crate::error::{CommandResult, Failure, Status};
use crate::home_threads::{index_path, resume_command, search_home};
use crate::input::resolve_home;
use crate::output::{Output, note, one_line};

/// One hit, as `search --json` prints it: codex-home's, with the command that resumes its
/// thread in Codex.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SearchHit {
    #[serde(flatten)]
    pub hit: Hit,
    pub resume: String,
}

/// What `search --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct SearchResults {
    pub query: String,
    pub home: String,
    pub index: String,
    pub hits: Vec<SearchHit>,
    /// The damaged files this run indexed (path, line, kind, message, lines).
    pub damaged: serde_json::Value,
}

/// Runs `search`.
pub(crate) fn run(args: SearchArgs, out: &mut Output) -> CommandResult {
    if args.limit == 0 {
        return Err(Failure::Usage("--limit must be at least 1".to_string()));
    }
    let home = resolve_home(args.home.as_deref())?;
    let index = index_path(args.index)?;
    // A day is read in the zone days are counted in, as `usage` counts them.
    let zone = match (&args.since, &args.until) {
        (None, None) => Tz::UTC,
        _ => crate::inputs::zone_of(args.timezone.as_deref())?,
    };
    let query = Query {
        text: args.query.clone(),
        syntax: if args.fts { Syntax::Fts } else { Syntax::Text },
        role: args.role.map(|role| match role {
            crate::cli::SearchRole::User => Role::User,
            crate::cli::SearchRole::Assistant => Role::Assistant,
            crate::cli::SearchRole::Tool => Role::Tool,
        }),
        cwd: args.cwd.map(|cwd| cwd.display().to_string()),
        since_ms: args
            .since
            .as_deref()
            .map(|text| time_arg("--since", text, RangeEnd::Start, zone))
            .transpose()?,
        until_ms: args
            .until
            .as_deref()
            .map(|text| time_arg("--until", text, RangeEnd::End, zone))
            .transpose()?,
        copied: args.copied,
        limit: args.limit,
        order: match args.sort {
            crate::cli::SearchSort::Newest => Order::Newest,
            crate::cli::SearchSort::Rank => Order::Rank,
        },
        highlight: ("[".to_string(), "]".to_string()),
    };
    let (hits, report, rebuilt) = search_home(&index, &home, &query)?;
    if let Some(rebuilt) = rebuilt {
        note(&format!("{}: {rebuilt}", index.display()));
    }
    let mut damaged = DamagedFiles::default();
    for (path, damage) in &report.damaged {
        damaged.note(&path.display().to_string(), damage);
    }
    let results = SearchResults {
        query: args.query,
        home: home.root.display().to_string(),
        index: index.display().to_string(),
        hits: hits.into_iter().map(search_hit).collect(),
        damaged: damaged.to_json(),
    };
    // grep's convention: a search that finds nothing exits with 1.
    let status = if results.hits.is_empty() {
        Status::ContentProblems
    } else {
        Status::Ok
    };
    if out.is_json() {
        out.json_line(&results)?;
        return Ok(damaged.status(status));
    }
    if results.hits.is_empty() {
        note(&format!(
            "no match for {:?} in {}",
            results.query, results.home
        ));
    }
    for SearchHit { hit, resume } in &results.hits {
        let when = hit
            .timestamp_ms
            .and_then(DateTime::<Utc>::from_timestamp_millis)
            .map_or_else(
                || "(no time)".to_owned(),
                |at| at.format("%Y-%m-%d %H:%M").to_string(),
            );
        let mut head = format!(
            "{when}  {}  turn {}  {}",
            hit.role.as_str(),
            hit.turn,
            hit.kind.as_str()
        );
        if let Some(cwd) = &hit.cwd {
            head.push_str(&format!("  {cwd}"));
        }
        out.line(&head)?;
        out.line(&format!("    {}", one_line(&hit.snippet, 100)))?;
        out.line(&format!(
            "    {resume}    ({}:{})",
            hit.path.display(),
            hit.line
        ))?;
    }
    Ok(damaged.status(status))
}

fn search_hit(hit: Hit) -> SearchHit {
    SearchHit {
        resume: resume_command(&hit.thread_id),
        hit,
    }
}

/// A `--since`/`--until` value as Unix ms, by codex-home's rule ([`codex_home::parse_instant_ms`]).
fn time_arg(flag: &str, text: &str, end: RangeEnd, zone: Tz) -> Result<i64, Failure> {
    parse_instant_ms(text, end, zone).ok_or_else(|| {
        Failure::Usage(format!(
            "invalid {flag} `{text}`: expected a date (2025-09-25) or an RFC 3339 time"
        ))
    })
}
