//! Reading the index: FTS5 queries with filters, newest first or by rank, with a snippet.

use std::path::{Path, PathBuf};

use rusqlite::types::Value;
use rusqlite::{Connection, params_from_iter};

use super::extract::{Role, TextKind};
use super::snippet::snippet;
use super::syntax::{Syntax, like_escaped, plan};
use super::{Result, SearchError};

/// A search: typed text (every term a substring, any case) or FTS5 query syntax over
/// trigrams ([`Syntax`]), and filters.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Query {
    /// What to look for.
    pub text: String,
    /// How [`Query::text`] is read.
    pub syntax: Syntax,
    /// Only texts from this role.
    pub role: Option<Role>,
    /// Only texts recorded in this working directory or below it.
    pub cwd: Option<String>,
    /// Only texts recorded at or after this time (Unix ms).
    pub since_ms: Option<i64>,
    /// Only texts recorded before this time (Unix ms).
    pub until_ms: Option<i64>,
    /// Also texts a forked or sub-agent file copied from its parent (found in the
    /// parent's own file otherwise, so left out by default).
    pub copied: bool,
    /// At most this many hits.
    pub limit: usize,
    /// The order of the hits.
    pub order: Order,
    /// What is put before and after each matched term in a snippet.
    pub highlight: (String, String),
}

/// The order of search hits.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Newest first (by line time; the order of a session browser).
    Newest,
    /// Best match first (FTS5's BM25 rank).
    Rank,
}

impl Query {
    /// A query for the typed `text` with no filter, 20 hits, newest first, terms in
    /// `[`…`]`.
    pub fn new(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            syntax: Syntax::Text,
            role: None,
            cwd: None,
            since_ms: None,
            until_ms: None,
            copied: false,
            limit: 20,
            order: Order::Newest,
            highlight: ("[".to_string(), "]".to_string()),
        }
    }

    /// [`Query::new`] for a query in FTS5 syntax.
    pub fn fts(text: impl Into<String>) -> Self {
        Self {
            syntax: Syntax::Fts,
            ..Self::new(text)
        }
    }
}

/// One matching text, as `codex-thread search --json` prints it (its time as RFC 3339 UTC
/// with milliseconds, `timestamp`).
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Hit {
    /// The thread the file records: its session meta's id, its name's when it has none.
    pub thread_id: String,
    /// The session file.
    #[serde(serialize_with = "displayed")]
    pub path: PathBuf,
    /// The line (1-based) of the item.
    pub line: u64,
    /// The user turn (1-based, counted in file order; 0 before the first turn).
    pub turn: u32,
    /// Who the text is from.
    pub role: Role,
    /// What kind of item it came from.
    pub kind: TextKind,
    /// When the line was written (Unix ms), when it says.
    #[serde(rename = "timestamp", serialize_with = "rfc3339_ms")]
    pub timestamp_ms: Option<i64>,
    /// The working directory at the time.
    pub cwd: Option<String>,
    /// The model at the time, when a turn context said.
    pub model: Option<String>,
    /// The text around the match, matched terms highlighted.
    pub snippet: String,
    /// BM25 rank (lower is better).
    pub rank: f64,
    /// The line was copied from a parent thread.
    pub copied: bool,
}

/// A path as it is shown (any bytes that are not UTF-8 replaced).
fn displayed<S: serde::Serializer>(
    path: &Path,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    serializer.collect_str(&path.display())
}

/// Unix milliseconds as RFC 3339 UTC with milliseconds (`2025-09-25T10:00:00.000Z`).
fn rfc3339_ms<S: serde::Serializer>(
    ms: &Option<i64>,
    serializer: S,
) -> std::result::Result<S::Ok, S::Error> {
    let at = ms.and_then(chrono::DateTime::<chrono::Utc>::from_timestamp_millis);
    let text = at.map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
    serde::Serialize::serialize(&text, serializer)
}

pub(crate) fn search(
    conn: &Connection,
    index: &Path,
    home: &str,
    query: &Query,
) -> Result<Vec<Hit>> {
    let plan = plan(&query.text, query.syntax)?;
    let mut sql = String::from(if plan.fts.is_some() {
        "SELECT f.thread_id, f.path, e.role, e.kind, e.turn, e.line, e.ts_ms, e.cwd, e.model,
                texts.text, bm25(texts), e.copied
         FROM texts JOIN entries e ON e.text_id = texts.rowid JOIN files f ON f.id = e.file_id
         WHERE f.home = ?1 AND texts MATCH ?2"
    } else {
        // Only terms too short for a trigram: no MATCH, so no rank; the LIKEs below scan.
        "SELECT f.thread_id, f.path, e.role, e.kind, e.turn, e.line, e.ts_ms, e.cwd, e.model,
                texts.text, 0.0, e.copied
         FROM texts JOIN entries e ON e.text_id = texts.rowid JOIN files f ON f.id = e.file_id
         WHERE f.home = ?1"
    });
    let mut values: Vec<Value> = vec![Value::Text(home.to_string())];
    if let Some(fts) = &plan.fts {
        values.push(Value::Text(fts.clone()));
    }
    let mut bind = |sql: &mut String, clause: &str, value: Value| {
        values.push(value);
        sql.push_str(&clause.replace('?', &format!("?{}", values.len())));
    };
    for like in &plan.likes {
        bind(
            &mut sql,
            " AND texts.text LIKE ? ESCAPE '\\'",
            Value::Text(like.clone()),
        );
    }
    if !query.copied {
        sql.push_str(" AND e.copied = 0");
    }
    if let Some(role) = query.role {
        bind(
            &mut sql,
            " AND e.role = ?",
            Value::Text(role.as_str().into()),
        );
    }
    if let Some(cwd) = &query.cwd {
        let cwd = cwd.trim_end_matches('/');
        let below = format!("{}/%", like_escaped(cwd));
        bind(&mut sql, " AND (e.cwd = ?", Value::Text(cwd.to_string()));
        bind(
            &mut sql,
            " OR e.cwd LIKE ? ESCAPE '\\')",
            Value::Text(below),
        );
    }
    if let Some(since) = query.since_ms {
        bind(&mut sql, " AND e.ts_ms >= ?", Value::Integer(since));
    }
    if let Some(until) = query.until_ms {
        bind(&mut sql, " AND e.ts_ms < ?", Value::Integer(until));
    }
    sql.push_str(match query.order {
        Order::Newest => " ORDER BY e.ts_ms DESC, e.id DESC",
        Order::Rank if plan.fts.is_some() => " ORDER BY bm25(texts), e.ts_ms DESC",
        Order::Rank => " ORDER BY e.ts_ms DESC, e.id DESC",
    });
    bind(
        &mut sql,
        " LIMIT ?",
        Value::Integer(i64::try_from(query.limit).unwrap_or(i64::MAX)),
    );
    let failed = |source: rusqlite::Error| match &source {
        // SQLite's generic error from this fixed statement is about the MATCH text (FTS5
        // syntax: "fts5: syntax error near …", "unterminated string", "no such column"),
        // which only a query in FTS5 syntax can get wrong: typed terms are quoted.
        rusqlite::Error::SqliteFailure(error, Some(message))
            if error.code == rusqlite::ErrorCode::Unknown =>
        {
            SearchError::Query {
                query: query.text.clone(),
                message: message.clone(),
            }
        }
        _ => SearchError::Index {
            path: index.to_path_buf(),
            source,
        },
    };
    let mut statement = conn.prepare_cached(&sql).map_err(failed)?;
    let rows = statement
        .query_map(params_from_iter(values.iter()), |row| {
            let role: String = row.get(2)?;
            let kind: String = row.get(3)?;
            Ok(Hit {
                thread_id: row.get(0)?,
                path: PathBuf::from(row.get::<_, String>(1)?),
                role: Role::parse(&role).unwrap_or(Role::Tool),
                kind: TextKind::parse(&kind).unwrap_or(TextKind::ToolOutput),
                turn: row.get(4)?,
                line: row.get::<_, i64>(5)?.max(0) as u64,
                timestamp_ms: row.get(6)?,
                cwd: row.get(7)?,
                model: row.get(8)?,
                snippet: snippet(&row.get::<_, String>(9)?, &plan.terms, &query.highlight),
                rank: row.get(10)?,
                copied: row.get(11)?,
            })
        })
        .map_err(failed)?;
    rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)
}

pub(crate) fn files_with_thread_prefix(
    conn: &Connection,
    index: &Path,
    home: &str,
    prefix: &str,
) -> Result<Vec<(String, PathBuf)>> {
    let failed = |source| SearchError::Index {
        path: index.to_path_buf(),
        source,
    };
    let mut statement = conn
        .prepare_cached(
            "SELECT thread_id, path FROM files WHERE home = ?1 AND thread_id LIKE ?2 ESCAPE '\\'
             ORDER BY path",
        )
        .map_err(failed)?;
    let pattern = format!("{}%", like_escaped(&prefix.to_lowercase()));
    let rows = statement
        .query_map([home, pattern.as_str()], |row| {
            Ok((row.get(0)?, PathBuf::from(row.get::<_, String>(1)?)))
        })
        .map_err(failed)?;
    rows.collect::<rusqlite::Result<Vec<_>>>().map_err(failed)
}
