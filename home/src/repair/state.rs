//! What Codex's own state says of a home's threads, read only: its `state_5.sqlite` (a row
//! per thread: the file, archived, history mode, name) and `thread_history_1.sqlite` (how far
//! each paginated thread's history is projected, and how many items it holds). The schema is
//! Codex's (sqlx migrations; columns as `reference/codex-state.md` lists them); a database
//! without the columns read here is reported as such, never guessed at.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

/// Codex's thread rows database.
pub(crate) const STATE_DATABASE: &str = "state_5.sqlite";
/// Codex's projected thread histories database.
pub(crate) const HISTORY_DATABASE: &str = "thread_history_1.sqlite";

/// A thread's row in Codex's state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct ThreadRow {
    pub(crate) rollout_path: PathBuf,
    pub(crate) name: Option<String>,
}

/// How far Codex projected a paginated thread's history.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Projection {
    /// The bytes of the file projected.
    pub(crate) next_byte_offset: u64,
    /// The items projected.
    pub(crate) items: u64,
}

/// Codex's state of a home, as far as repair reads it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CodexState {
    /// Whether the home has a state database at all (Codex 0.1xx with SQLite state).
    pub(crate) has_state: bool,
    /// The thread rows, by thread id.
    pub(crate) rows: HashMap<String, ThreadRow>,
    /// The projections, by thread id (none when there is no history database).
    pub(crate) projections: HashMap<String, Projection>,
    /// Each database's newest applied migration, for the report.
    pub(crate) versions: Vec<(String, i64)>,
}

/// Reads what Codex's state says of `root`'s threads; empty when it has no state database.
pub(crate) fn read_state(root: &Path) -> Result<CodexState, rusqlite::Error> {
    let mut state = CodexState::default();
    let rows_path = root.join(STATE_DATABASE);
    if !rows_path.exists() {
        return Ok(state);
    }
    state.has_state = true;
    let rows = open(&rows_path)?;
    state
        .versions
        .push((STATE_DATABASE.to_owned(), newest_migration(&rows)?));
    let mut statement = rows.prepare("SELECT id, rollout_path, name FROM threads")?;
    let found = statement.query_map([], |row| {
        Ok((
            row.get::<_, String>(0)?,
            ThreadRow {
                rollout_path: PathBuf::from(row.get::<_, String>(1)?),
                name: row.get::<_, Option<String>>(2)?,
            },
        ))
    })?;
    for row in found {
        let (id, row) = row?;
        state.rows.insert(id, row);
    }
    let history_path = root.join(HISTORY_DATABASE);
    if !history_path.exists() {
        return Ok(state);
    }
    let history = open(&history_path)?;
    state
        .versions
        .push((HISTORY_DATABASE.to_owned(), newest_migration(&history)?));
    let mut statement = history.prepare(
        "SELECT state.thread_id, state.next_rollout_byte_offset, \
         (SELECT count(*) FROM thread_items items WHERE items.thread_id = state.thread_id) \
         FROM thread_history_projection_state state",
    )?;
    let found = statement.query_map([], |row| {
        Ok((
            row.get::<_, String>(0)?,
            Projection {
                next_byte_offset: u64::try_from(row.get::<_, i64>(1)?).unwrap_or(0),
                items: u64::try_from(row.get::<_, i64>(2)?).unwrap_or(0),
            },
        ))
    })?;
    for projection in found {
        let (id, projection) = projection?;
        state.projections.insert(id, projection);
    }
    Ok(state)
}

/// `path` opened read-only (Codex may be writing it: SQLite's own locking keeps that safe).
fn open(path: &Path) -> Result<Connection, rusqlite::Error> {
    Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )
}

/// The newest migration sqlx applied to a database, 0 when it keeps no record.
fn newest_migration(connection: &Connection) -> Result<i64, rusqlite::Error> {
    let recorded: bool = connection.query_row(
        "SELECT count(*) > 0 FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
        [],
        |row| row.get(0),
    )?;
    if !recorded {
        return Ok(0);
    }
    connection.query_row(
        "SELECT coalesce(max(version), 0) FROM _sqlx_migrations",
        [],
        |row| row.get(0),
    )
}
