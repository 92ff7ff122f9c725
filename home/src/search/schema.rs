//! The index's tables, and opening a file as an index: WAL, busy timeout, schema created
//! once, and a file that is not an index of this schema replaced.
//!
//! - `files`: one row per session file of a home: where it is, its thread id, what it was
//!   when last read (size, mtime, a hash of its first bytes), how far it was read (decoded
//!   bytes and lines of complete lines) and the reader's state there (turn tally, cwd, model);
//! - `entries`: one row per indexed text of a line: its file, role, kind, user turn, line,
//!   time, cwd, model, whether the line was copied from a parent thread, and which text it is;
//! - `text_keys`: one row per distinct text, content-addressed (the first 16 bytes of the
//!   text's SHA-256), so a text that many entries hold (a fork's copied prefix, a repeated
//!   output) is tokenized and stored once;
//! - `texts`: the FTS5 table of the distinct texts, whose rowid is the `text_keys` id,
//!   tokenized into trigrams (any substring of three characters or more is found, in any
//!   script; `search/syntax.rs` says how shorter ones are).
//!
//! FTS5 writes each transaction's new texts as a segment and merges segments as they
//! accumulate, a little after each write (pages in proportion to what the write added times
//! the number of levels, so a batch's transaction stays short). By default (`automerge` 4)
//! it merges four segments of a level into one of the next, so a posting is rewritten once
//! per level of four; the index merges sixteen (`automerge` 16), and a level that reaches
//! thirty-two (`crisismerge` 32; FTS5's 16 would merge a level at once before the little
//! steps could) is merged at once, a fallback. A posting is rewritten half as often (a build
//! of 100 MB of texts that do not repeat: 11 % fewer instructions, docs/search.md), and a
//! query reads a bounded number of segments.

use std::path::{Path, PathBuf};

use rusqlite::{Connection, ErrorCode, TransactionBehavior};

use super::{BUSY_TIMEOUT, Result, SearchError};

/// Bumped whenever the tables or what is indexed change: an index of another version is
/// rebuilt.
pub(crate) const SCHEMA_VERSION: i64 = 3;

/// The page size of a new index file (bytes).
const PAGE_SIZE: i64 = 16 * 1024;

const CREATE: &str = "
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    home TEXT NOT NULL,
    path TEXT NOT NULL UNIQUE,
    thread_id TEXT NOT NULL,
    archived INTEGER NOT NULL,
    compressed INTEGER NOT NULL,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    head_len INTEGER NOT NULL,
    head_hash INTEGER NOT NULL,
    read_bytes INTEGER NOT NULL,
    read_lines INTEGER NOT NULL,
    complete INTEGER NOT NULL,
    state TEXT NOT NULL
);
CREATE INDEX files_home ON files(home, thread_id);
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    file_id INTEGER NOT NULL,
    role TEXT NOT NULL,
    kind TEXT NOT NULL,
    turn INTEGER NOT NULL,
    line INTEGER NOT NULL,
    ts_ms INTEGER,
    cwd TEXT,
    model TEXT,
    copied INTEGER NOT NULL,
    text_id INTEGER NOT NULL
);
CREATE INDEX entries_file ON entries(file_id);
CREATE TABLE text_keys (
    id INTEGER PRIMARY KEY,
    key BLOB UNIQUE
);
CREATE VIRTUAL TABLE texts USING fts5(
    text, tokenize = 'trigram case_sensitive 0 remove_diacritics 1'
);
INSERT INTO texts (texts, rank) VALUES ('automerge', 16);
INSERT INTO texts (texts, rank) VALUES ('crisismerge', 32);
";

/// The index that finds the entries holding a text (a hit's entries, and whether a file's
/// text is held by another file). Created with the tables, and again whenever an index is
/// opened without it: an update into an empty index drops it for its inserts and creates it
/// once they are done ([`defer_text_index`]), so a build that was stopped in between leaves
/// an index that is only missing it.
const TEXT_INDEX: &str = "CREATE INDEX IF NOT EXISTS entries_text ON entries(text_id)";

/// Opens `path` as an index, replacing a file that is not one (the reason is returned).
pub(crate) fn open(path: &Path) -> Result<(Connection, Option<String>)> {
    if let Some(dir) = path.parent().filter(|dir| !dir.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|source| SearchError::Io {
            action: "create the index folder",
            path: dir.to_path_buf(),
            source,
        })?;
    }
    match open_valid(path) {
        Ok(conn) => Ok((conn, None)),
        Err(Invalid::Sqlite(source)) if !is_corruption(&source) => Err(SearchError::Index {
            path: path.to_path_buf(),
            source,
        }),
        Err(invalid) => {
            let reason = match invalid {
                Invalid::Sqlite(source) => format!("the index was unreadable ({source})"),
                Invalid::Version(version) => {
                    format!("the index was of another version ({version}, now {SCHEMA_VERSION})")
                }
            };
            remove(path)?;
            let conn = open_valid(path).map_err(|invalid| SearchError::Index {
                path: path.to_path_buf(),
                source: match invalid {
                    Invalid::Sqlite(source) => source,
                    Invalid::Version(_) => rusqlite::Error::InvalidQuery,
                },
            })?;
            Ok((conn, Some(format!("{reason}; rebuilt it"))))
        }
    }
}

/// Why a file could not be used as an index.
#[derive(Debug)]
pub(crate) enum Invalid {
    Sqlite(rusqlite::Error),
    Version(i64),
}

impl From<rusqlite::Error> for Invalid {
    fn from(error: rusqlite::Error) -> Self {
        Self::Sqlite(error)
    }
}

/// Opens `path` as an index of this schema, creating the tables in an empty database.
pub(crate) fn open_valid(path: &Path) -> std::result::Result<Connection, Invalid> {
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // 16 KiB pages for a new file (an existing one keeps its own): a quarter of the page
    // reads and writes of the default 4 KiB while the entries of a large home are stored
    // (system time of a 1 GiB build 0.52-0.61 s with 4 KiB, 0.34-0.46 s with 16 KiB),
    // for the same page cache in bytes. Must come before the file is put in WAL mode.
    conn.pragma_update(None, "page_size", PAGE_SIZE)?;
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    let version: i64 = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if version == SCHEMA_VERSION {
        // Reading the table's pages finds most damage now rather than in the middle of work.
        conn.query_row("SELECT count(*) FROM files", [], |row| row.get::<_, i64>(0))?;
        if !has_text_index(&conn)? {
            // A writer that holds the lock longer than the busy timeout is a first build
            // making the index itself: answers are right without it, only slower.
            match conn.execute_batch(TEXT_INDEX) {
                Err(err) if err.sqlite_error_code() == Some(ErrorCode::DatabaseBusy) => {}
                other => other?,
            }
        }
        return Ok(conn);
    }
    // Created by whichever process takes the write lock first; the others see it done.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let version: i64 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
    let tables: i64 = tx.query_row("SELECT count(*) FROM sqlite_master", [], |row| row.get(0))?;
    match (version, tables) {
        (SCHEMA_VERSION, _) => {}
        (0, 0) => {
            tx.execute_batch(CREATE)?;
            tx.execute_batch(TEXT_INDEX)?;
            tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
        }
        (version, _) => return Err(Invalid::Version(version)),
    }
    tx.commit()?;
    Ok(conn)
}

/// Whether the text index (`entries_text`) is there.
pub(super) fn has_text_index(conn: &Connection) -> rusqlite::Result<bool> {
    conn.query_row(
        "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'entries_text')",
        [],
        |row| row.get(0),
    )
}

/// Readies an update for many inserts: when the index holds no entry yet (a first build, or
/// one after a rebuild), the text index is dropped, so the entries go in without the random
/// page writes that index takes (one place per distinct text, across the whole table: at
/// 10 GiB of real lines nearly every insert a page read and write), and it is created after
/// them in one sorted pass ([`restore_text_index`]). An index that holds entries keeps it:
/// an update of a known home adds few entries, and dropping a file's texts looks them up
/// through it. Returns whether it was dropped.
pub(crate) fn defer_text_index(conn: &Connection) -> rusqlite::Result<bool> {
    let empty: bool = conn.query_row("SELECT NOT EXISTS (SELECT 1 FROM entries)", [], |row| {
        row.get(0)
    })?;
    if empty {
        conn.execute_batch("DROP INDEX IF EXISTS entries_text")?;
    }
    Ok(empty)
}

/// Creates the text index again after [`defer_text_index`] dropped it.
pub(crate) fn restore_text_index(conn: &Connection) -> rusqlite::Result<()> {
    conn.execute_batch(TEXT_INDEX)
}

/// Whether `error` says the database file is damaged or not a database at all.
pub(crate) fn is_corruption(error: &rusqlite::Error) -> bool {
    matches!(
        error.sqlite_error_code(),
        Some(ErrorCode::DatabaseCorrupt | ErrorCode::NotADatabase)
    )
}

/// Deletes the index at `path` with its WAL and shared-memory files.
pub(crate) fn remove(path: &Path) -> Result<()> {
    for suffix in ["", "-wal", "-shm"] {
        let mut name = path.as_os_str().to_owned();
        name.push(suffix);
        let file = PathBuf::from(name);
        match std::fs::remove_file(&file) {
            Ok(()) => {}
            Err(err) if err.kind() == std::io::ErrorKind::NotFound => {}
            Err(source) => {
                return Err(SearchError::Io {
                    action: "remove the broken index",
                    path: file,
                    source,
                });
            }
        }
    }
    Ok(())
}
