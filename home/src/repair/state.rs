//! What Codex's own state says of a home's threads, read only: its `state_5.sqlite` (a row
//! per thread: the file, archived, history mode, name) and `thread_history_1.sqlite` (how far
//! each paginated thread's history is projected, and how many items it holds). The schema is
//! Codex's (sqlx migrations; columns as `reference/codex-state.md` lists them); a database
//! without the columns read here is reported as such, never guessed at.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags, TransactionBehavior};

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

/// The migrations of `thread_history_1.sqlite` whose schema the one direct write was tested
/// on (8: Codex 0.169; 9: 0.171, which adds indexes).
pub(crate) const TESTED_HISTORY_SCHEMAS: [i64; 2] = [8, 9];

/// Why Codex's projection state could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum ProjectionWriteError {
    /// The database is of a schema the write was not tested on.
    #[error(
        "{HISTORY_DATABASE} is at migration {found}, which this version has not been tested on \
         (tested: {TESTED_HISTORY_SCHEMAS:?}); nothing was changed"
    )]
    UntestedSchema {
        /// Its newest migration.
        found: i64,
    },
    /// SQLite refused.
    #[error("{HISTORY_DATABASE}: {0}")]
    Sqlite(#[from] rusqlite::Error),
}

/// Deletes the projected history of `thread_ids` (their rows of the projection state, items
/// and turns) from Codex's `thread_history_1.sqlite` in `root`, so that Codex's next catch-up
/// of each projects its file from the start: the one direct write to Codex's state. First a
/// consistent copy of the database is written beside it (`VACUUM INTO`; its path is
/// returned), then every row goes in one transaction, or none. Refused for a schema this
/// version was not tested on.
pub(crate) fn forget_projections(
    root: &Path,
    thread_ids: &[String],
    backup_stamp: u64,
) -> Result<PathBuf, ProjectionWriteError> {
    let mut history = Connection::open(root.join(HISTORY_DATABASE))?;
    let found = newest_migration(&history)?;
    if !TESTED_HISTORY_SCHEMAS.contains(&found) {
        return Err(ProjectionWriteError::UntestedSchema { found });
    }
    let backup = root.join(format!("{HISTORY_DATABASE}.repair-backup-{backup_stamp}"));
    history.execute("VACUUM INTO ?1", [backup.to_string_lossy()])?;
    let transaction = history.transaction_with_behavior(TransactionBehavior::Immediate)?;
    for thread_id in thread_ids {
        for table in [
            "thread_history_projection_state",
            "thread_items",
            "thread_turns",
        ] {
            transaction.execute(
                &format!("DELETE FROM {table} WHERE thread_id = ?1"),
                [thread_id],
            )?;
        }
    }
    transaction.commit()?;
    Ok(backup)
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
