//! `codex-thread list [--home DIR] [--limit N] [--cursor C] [--archived]`: sessions under a
//! Codex home (`sessions/`, or `archived_sessions/` with `--archived`), newest first, with the
//! first thing the person said, one page at a time.
//!
//! codex-rollout's listing does the work: the order comes from the dated file names, only the
//! head of each file is read, sessions without a user message are not listed. The next page
//! starts after the cursor printed at the end of this one.

use std::path::PathBuf;

use codex_rollout::CodexHome;
use codex_rollout::list::{Cursor, SessionsPage, list_archived_sessions, list_sessions};
use serde::Serialize;

use crate::error::{CommandResult, Failure, Status};
use crate::output::{Output, note, one_line};

/// One listed session, as `list --json` prints it. Times are RFC 3339 UTC with
/// milliseconds (`2025-06-02T09:00:00.000Z`), as session files write them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedSession {
    pub path: String,
    pub thread_id: String,
    pub created_at: String,
    pub updated_at: Option<String>,
    pub cli_version: String,
    pub cwd: String,
    pub preview: String,
}

/// What `list --json` prints.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Listing {
    pub home: String,
    pub sessions: Vec<ListedSession>,
    /// Pass to `--cursor` for the next page; `null` on the last page.
    pub next_cursor: Option<String>,
}

/// Runs `list`.
pub fn run(
    home: Option<PathBuf>,
    limit: usize,
    cursor: Option<&str>,
    archived: bool,
    out: &mut Output,
) -> CommandResult {
    if limit == 0 {
        return Err(Failure::Usage(
            "--limit must be at least 1 (sessions per page)".to_string(),
        ));
    }
    let home_arg = home.clone();
    let home = crate::inputs::resolve_home(home.as_deref())?;
    if !home.root().is_dir() {
        return Err(Failure::Unreadable(format!(
            "Codex home {} is not a directory",
            home.root().display()
        )));
    }
    let cursor = cursor
        .map(|text| {
            text.parse::<Cursor>().map_err(|_| {
                Failure::Usage(format!(
                    "invalid --cursor `{text}`: expected `<time>|<thread id>` as printed by list"
                ))
            })
        })
        .transpose()?;
    let list = if archived {
        list_archived_sessions
    } else {
        list_sessions
    };
    let page = list(&home, limit, cursor.as_ref()).map_err(|err| {
        Failure::Unreadable(format!("cannot list {}: {err}", home.root().display()))
    })?;
    let listing = listing(&home, page);
    if out.is_json() {
        out.json_line(&listing)?;
        return Ok(Status::Ok);
    }
    if listing.sessions.is_empty() {
        let folder = if archived {
            home.archived_sessions_dir()
        } else {
            home.sessions_dir()
        };
        note(&format!("no sessions under {}", folder.display()));
    }
    for session in &listing.sessions {
        // The minute is enough for a person; `--json` has the whole time.
        let created = session.created_at.get(..16).unwrap_or(&session.created_at);
        out.line(&format!(
            "{}  {}  {}",
            created.replace('T', " "),
            session.thread_id,
            session.cli_version
        ))?;
        out.line(&format!("    {}", one_line(&session.preview, 74)))?;
    }
    if let Some(cursor) = &listing.next_cursor {
        // The hint repeats what chose this page, so pasting it continues the same listing.
        let mut again = String::from("codex-thread list");
        if let Some(home) = &home_arg {
            again.push_str(&format!(" --home '{}'", home.display()));
        }
        if archived {
            again.push_str(" --archived");
        }
        again.push_str(&format!(" --limit {limit} --cursor '{cursor}'"));
        out.line(&format!("more: {again}"))?;
    }
    Ok(Status::Ok)
}

fn listing(home: &CodexHome, page: SessionsPage) -> Listing {
    let sessions = page
        .items
        .into_iter()
        .map(|summary| ListedSession {
            path: summary.path.display().to_string(),
            thread_id: summary.name.thread_id.hyphenated().to_string(),
            created_at: rfc3339_millis(summary.name.created),
            updated_at: summary.updated_at.map(rfc3339_millis),
            cli_version: summary.session_meta.meta.cli_version.clone(),
            cwd: summary.session_meta.meta.cwd.display().to_string(),
            preview: summary.preview,
        })
        .collect();
    Listing {
        home: home.root().display().to_string(),
        sessions,
        next_cursor: page.next_cursor.map(|cursor| cursor.to_string()),
    }
}

/// `2025-06-02T09:00:00.000Z`.
fn rfc3339_millis(at: chrono::DateTime<chrono::Utc>) -> String {
    at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}
