//! What Codex's own state says of a home's threads, and the two writes made to it directly.
//!
//! Read (only ever read-only): its `state_5.sqlite` (a row per thread: the file, archived,
//! history mode, name) and `thread_history_1.sqlite` (how far each paginated history is
//! projected, and how many items it holds). Codex keys a projected history by the file it came
//! from, its rollout id: a thread's own id for its first file, the trailing uuid of the name of
//! a continuation file (`rollout-<time>-<thread>_<rollout>.jsonl`). The schema is Codex's (sqlx
//! migrations; columns as `reference/codex-state.md` lists them); a database without the
//! columns read here is reported as such, never guessed at.
//!
//! Written, each only on a schema this version was tested on, in one transaction: the
//! projected history of named rollouts deleted, so that Codex projects their files again from
//! the start ([`forget_projections`], repair's); and a thread's row pointed at one of its own
//! files ([`point_thread_row`], for a thread continued in other files, whose earlier pieces
//! Codex never projects by itself).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use codex_rollout::parse_rollout_file_name;
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

/// How far Codex projected one file of a paginated thread.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Projection {
    /// The bytes of the file projected.
    pub(crate) next_byte_offset: u64,
    /// The items projected.
    pub(crate) items: u64,
}

/// The migrations of `thread_history_1.sqlite` whose schema [`forget_projections`] was tested
/// on (8: Codex 0.169; 9: 0.171, which adds indexes).
pub(crate) const TESTED_HISTORY_SCHEMAS: [i64; 2] = [8, 9];

/// The migrations of `state_5.sqlite` whose schema [`point_thread_row`] was tested on (62:
/// Codex 0.169; 64: 0.171).
pub(crate) const TESTED_STATE_SCHEMAS: [i64; 2] = [62, 64];

/// Why Codex's state could not be changed.
#[derive(Debug, thiserror::Error)]
pub enum StateWriteError {
    /// The database is of a schema the write was not tested on.
    #[error(
        "{database} is at migration {found}, which this version has not been tested on \
         (tested: {tested:?}); nothing was changed"
    )]
    UntestedSchema {
        /// The database's file name.
        database: &'static str,
        /// Its newest migration.
        found: i64,
        /// The migrations the write was tested on.
        tested: &'static [i64],
    },
    /// A running Codex holds the thread for writing.
    #[error("a running Codex holds thread {thread_id}; nothing was changed")]
    Held {
        /// The thread.
        thread_id: String,
    },
    /// The thread has no row to point.
    #[error("{STATE_DATABASE} has no row for thread {thread_id}; nothing was changed")]
    NoRow {
        /// The thread.
        thread_id: String,
    },
    /// SQLite refused.
    #[error("{database}: {source}")]
    Sqlite {
        /// The database's file name.
        database: &'static str,
        /// What SQLite said.
        #[source]
        source: rusqlite::Error,
    },
}

/// The rollout id Codex keys the projection of the session file at `path` by (see the module
/// docs); `None` when its name is not a session file's.
pub(crate) fn rollout_key(path: &Path) -> Option<String> {
    let name = path.file_name()?.to_str()?;
    parse_rollout_file_name(name).map(|name| name.rollout().to_string())
}

/// `database` in `root` opened for writing, if its schema is one of `tested`.
fn open_tested(
    root: &Path,
    database: &'static str,
    tested: &'static [i64],
) -> Result<Connection, StateWriteError> {
    let sqlite = |source| StateWriteError::Sqlite { database, source };
    let connection = Connection::open(root.join(database)).map_err(sqlite)?;
    let found = newest_migration(&connection).map_err(sqlite)?;
    if !tested.contains(&found) {
        return Err(StateWriteError::UntestedSchema {
            database,
            found,
            tested,
        });
    }
    Ok(connection)
}

/// A consistent copy of `database` (open as `connection`) written beside it, named for
/// `stamp`, unless one of that name is there already (an earlier write of the same run).
fn back_up(
    connection: &Connection,
    root: &Path,
    database: &'static str,
    stamp: u64,
) -> Result<PathBuf, StateWriteError> {
    let backup = root.join(format!("{database}.repair-backup-{stamp}"));
    if !backup.exists() {
        connection
            .execute("VACUUM INTO ?1", [backup.to_string_lossy()])
            .map_err(|source| StateWriteError::Sqlite { database, source })?;
    }
    Ok(backup)
}

/// Deletes the projected history of `rollouts` (their rows of the projection state, items
/// and turns; keyed by rollout id, see the module docs) from Codex's `thread_history_1.sqlite`
/// in `root`, so that Codex's next catch-up of each projects its file from the start. First a
/// consistent copy of the database is written beside it (`VACUUM INTO`; its path is
/// returned), then every row goes in one transaction, or none. Refused for a schema this
/// version was not tested on.
pub(crate) fn forget_projections(
    root: &Path,
    rollouts: &[String],
    backup_stamp: u64,
) -> Result<PathBuf, StateWriteError> {
    let sqlite = |source| StateWriteError::Sqlite {
        database: HISTORY_DATABASE,
        source,
    };
    let mut history = open_tested(root, HISTORY_DATABASE, &TESTED_HISTORY_SCHEMAS)?;
    let backup = back_up(&history, root, HISTORY_DATABASE, backup_stamp)?;
    let transaction = history
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite)?;
    for rollout in rollouts {
        for table in [
            "thread_history_projection_state",
            "thread_items",
            "thread_turns",
        ] {
            transaction
                .execute(
                    &format!("DELETE FROM {table} WHERE thread_id = ?1"),
                    [rollout],
                )
                .map_err(sqlite)?;
        }
    }
    transaction.commit().map_err(sqlite)?;
    Ok(backup)
}

/// Points the row of `thread_id` in Codex's `state_5.sqlite` in `root` at `rollout_path`
/// (its `rollout_path` column only, in one transaction): so that Codex's next load of the
/// thread reads, and projects, that file. First a consistent copy of the database is written
/// beside it, once per `backup_stamp` (its path is returned). Refused for a schema this
/// version was not tested on, and when the thread has no row.
pub(crate) fn point_thread_row(
    root: &Path,
    thread_id: &str,
    rollout_path: &Path,
    backup_stamp: u64,
) -> Result<PathBuf, StateWriteError> {
    let sqlite = |source| StateWriteError::Sqlite {
        database: STATE_DATABASE,
        source,
    };
    let mut rows = open_tested(root, STATE_DATABASE, &TESTED_STATE_SCHEMAS)?;
    let backup = back_up(&rows, root, STATE_DATABASE, backup_stamp)?;
    let transaction = rows
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite)?;
    let changed = transaction
        .execute(
            "UPDATE threads SET rollout_path = ?1 WHERE id = ?2",
            [rollout_path.to_string_lossy().as_ref(), thread_id],
        )
        .map_err(sqlite)?;
    if changed != 1 {
        return Err(StateWriteError::NoRow {
            thread_id: thread_id.to_owned(),
        });
    }
    transaction.commit().map_err(sqlite)?;
    Ok(backup)
}

/// The file Codex's row of `thread_id` in `root` names, if it has one.
pub(crate) fn row_path(root: &Path, thread_id: &str) -> Result<Option<PathBuf>, rusqlite::Error> {
    let rows_path = root.join(STATE_DATABASE);
    if !rows_path.exists() {
        return Ok(None);
    }
    let rows = open(&rows_path)?;
    match rows.query_row(
        "SELECT rollout_path FROM threads WHERE id = ?1",
        [thread_id],
        |row| row.get::<_, String>(0),
    ) {
        Ok(path) => Ok(Some(PathBuf::from(path))),
        Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
        Err(error) => Err(error),
    }
}

/// Codex's state of a home, as far as repair reads it.
#[derive(Debug, Clone, Default)]
pub(crate) struct CodexState {
    /// Whether the home has a state database at all (Codex 0.1xx with SQLite state).
    pub(crate) has_state: bool,
    /// The thread rows, by thread id.
    pub(crate) rows: HashMap<String, ThreadRow>,
    /// The projections, by rollout id (none when there is no history database).
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
