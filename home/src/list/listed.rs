//! A listed session as it is shown: when it was created, which thread it is, its name and
//! source, the first thing the person said. `list` prints it (its `--json` is this type),
//! `view`'s session list shows it, so a session is created at the same time and named the
//! same in both.

use std::collections::HashMap;

use chrono::{DateTime, SecondsFormat, TimeZone, Utc};
use serde::Serialize;

use super::SessionSummary;

/// One listed session, as `codex-thread list --json` prints it. Times are RFC 3339 UTC with
/// milliseconds (`2025-06-02T09:00:00.000Z`), as session files write them.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ListedSession {
    /// The rollout file.
    pub path: String,
    /// The thread ([`SessionSummary::thread_id`]).
    pub thread_id: String,
    /// When the session was created ([`SessionSummary::created_at`]).
    pub created_at: String,
    /// When its file was last written, if the filesystem says.
    pub updated_at: Option<String>,
    /// The Codex release that wrote its session meta.
    pub cli_version: String,
    /// Its working directory.
    pub cwd: String,
    /// The first thing the person said, on one line.
    pub preview: String,
    /// The thread's name (Codex's `session_index.jsonl`), `null` when it has none.
    pub name: Option<String>,
    /// Which kind of client started it (app-server-protocol's `SOURCE_KINDS`).
    pub source: &'static str,
    /// The thread that spawned it (a sub-agent's parent), else `null`.
    pub parent_thread_id: Option<String>,
    /// The model of the first turn context near the top; `null` when the head names none.
    pub model: Option<String>,
    /// The file's damage (not part of the record: the listing reports it apart).
    #[serde(skip)]
    pub damage: Option<crate::Damage>,
}

impl ListedSession {
    /// The listed form of `summary`, named by the home's index `names` (thread id → name,
    /// [`codex_rollout::CodexHome::thread_names`]) as Codex names it.
    pub fn of(summary: SessionSummary, names: &HashMap<String, String>) -> Self {
        let thread_id = summary.thread_id().to_string();
        let (source, parent_thread_id) = summary.source();
        Self {
            path: summary.path.display().to_string(),
            name: source.shown_name(names.get(&thread_id).cloned()),
            source: source.kind(),
            parent_thread_id,
            thread_id,
            created_at: rfc3339_millis(summary.created_at()),
            updated_at: summary.updated_at.map(rfc3339_millis),
            cli_version: summary.session_meta.meta.cli_version,
            cwd: summary.session_meta.meta.cwd.display().to_string(),
            preview: summary.preview,
            model: summary.model,
            damage: summary.damage,
        }
    }
}

impl SessionSummary {
    /// When the session was created, in UTC: its meta's timestamp (UTC, written by Codex),
    /// else the file name's time, which Codex writes in the local zone of the machine (taken
    /// as this machine's zone).
    pub fn created_at(&self) -> DateTime<Utc> {
        if let Ok(at) = DateTime::parse_from_rfc3339(&self.session_meta.meta.timestamp) {
            return at.with_timezone(&Utc);
        }
        let named = self.name.created;
        chrono::Local
            .from_local_datetime(&named.naive_utc())
            .earliest()
            .map_or(named, |at| at.with_timezone(&Utc))
    }
}

/// `2025-06-02T09:00:00.000Z`.
fn rfc3339_millis(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::Millis, true)
}
