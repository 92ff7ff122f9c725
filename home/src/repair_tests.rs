use std::path::Path;

use rusqlite::Connection;

use super::*;

const A: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a01";
const B: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a02";
const GONE: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a03";

/// A paginated session of thread `id` with one completed item; its ordinals are `ordinals`
/// (`None`: the line has none).
fn session(id: &str, ordinals: [Option<u64>; 3]) -> String {
    let envelope = |ordinal: Option<u64>| {
        ordinal
            .map(|ordinal| {
                format!(r#"{{"timestamp":"2025-06-02T09:00:00.000Z","ordinal":{ordinal},"#)
            })
            .unwrap_or_else(|| r#"{"timestamp":"2025-06-02T09:00:00.000Z","#.to_owned())
    };
    format!(
        concat!(
            r#"{}"type":"session_meta","payload":{{"id":"{id}","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp","originator":"test","cli_version":"0.169.0","history_mode":"paginated"}}}}"#,
            "\n",
            r#"{}"type":"event_msg","payload":{{"type":"task_started","turn_id":"t1","model_context_window":null,"collaboration_mode_kind":"default"}}}}"#,
            "\n",
            r#"{}"type":"event_msg","payload":{{"type":"item_completed","thread_id":"{id}","turn_id":"t1","item":{{"type":"ContextCompaction","id":"c1"}},"completed_at_ms":1}}}}"#,
            "\n",
        ),
        envelope(ordinals[0]),
        envelope(ordinals[1]),
        envelope(ordinals[2]),
        id = id,
    )
}

fn place(root: &Path, id: &str, text: &str) -> std::io::Result<PathBuf> {
    let day = root.join("sessions/2025/06/02");
    std::fs::create_dir_all(&day)?;
    let path = day.join(format!("rollout-2025-06-02T09-00-00-{id}.jsonl"));
    std::fs::write(&path, text)?;
    Ok(path)
}

/// Codex's two databases, with the tables and columns repair reads.
fn state(
    root: &Path,
    rows: &[(&str, &Path, Option<&str>)],
    projected: &[(&str, u64, u64)],
) -> rusqlite::Result<()> {
    let threads = Connection::open(root.join(state::STATE_DATABASE))?;
    threads.execute_batch(
        "CREATE TABLE threads (id TEXT PRIMARY KEY, rollout_path TEXT NOT NULL, name TEXT);
         CREATE TABLE _sqlx_migrations (version INTEGER);
         INSERT INTO _sqlx_migrations VALUES (62);",
    )?;
    for (id, path, name) in rows {
        threads.execute(
            "INSERT INTO threads VALUES (?1, ?2, ?3)",
            (id, path.to_string_lossy(), name),
        )?;
    }
    let history = Connection::open(root.join(state::HISTORY_DATABASE))?;
    history.execute_batch(
        "CREATE TABLE thread_history_projection_state (thread_id TEXT PRIMARY KEY,
             next_rollout_byte_offset INTEGER NOT NULL, next_rollout_ordinal INTEGER NOT NULL);
         CREATE TABLE thread_items (thread_id TEXT, item_id TEXT);
         CREATE TABLE thread_turns (thread_id TEXT, turn_id TEXT);",
    )?;
    for (id, offset, items) in projected {
        history.execute(
            "INSERT INTO thread_history_projection_state VALUES (?1, ?2, 0)",
            (id, offset),
        )?;
        for item in 0..*items {
            history.execute("INSERT INTO thread_items VALUES (?1, ?2)", (id, item))?;
        }
    }
    Ok(())
}

fn problems(report: &RepairReport, id: &str) -> Vec<Problem> {
    report
        .findings
        .iter()
        .filter(|finding| finding.thread_id == id)
        .map(|finding| finding.problem.clone())
        .collect()
}

#[test]
fn what_codex_would_show_wrongly_is_found_with_its_reason() -> Result<(), Box<dyn std::error::Error>>
{
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let a = place(root, A, &session(A, [Some(0), Some(1), Some(2)]))?;
    let b = place(root, B, &session(B, [Some(0), Some(2), Some(1)]))?;
    std::fs::write(
        root.join("session_index.jsonl"),
        format!(
            "{{\"id\":\"{A}\",\"thread_name\":\"kept\",\"updated_at\":\"2025-06-02T10:00:00Z\"}}\n"
        ),
    )?;
    let size_a = std::fs::metadata(&a)?.len();
    let gone = root.join("sessions/2025/06/02/gone.jsonl");
    state(
        root,
        &[(A, &a, None), (GONE, &gone, None)],
        &[(A, size_a - 10, 1)],
    )?;
    let report = find_repairs(&CodexHome::new(root))?;
    assert!(report.has_state);
    assert_eq!(report.threads, 2);
    assert_eq!(
        problems(&report, A),
        [
            Problem::ProjectedBehind {
                projected: size_a - 10,
                size: size_a
            },
            Problem::NameLost {
                name: "kept".to_owned()
            }
        ]
    );
    assert_eq!(
        problems(&report, B),
        [
            Problem::OrdinalsOutOfOrder { line: 3 },
            Problem::Unprojected,
            Problem::NoRow
        ]
    );
    assert_eq!(problems(&report, GONE), [Problem::RowWithoutFile]);
    assert_eq!(report.schema[0], (state::STATE_DATABASE.to_owned(), 62));
    let _ = b;
    Ok(())
}

#[test]
fn a_projection_complete_in_bytes_but_short_of_items_is_stale()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let a = place(root, A, &session(A, [Some(0), Some(1), None]))?;
    let size = std::fs::metadata(&a)?.len();
    state(root, &[(A, &a, None)], &[(A, size, 0)])?;
    let report = find_repairs(&CodexHome::new(root))?;
    assert_eq!(
        problems(&report, A),
        [
            Problem::LastLineWithoutOrdinal,
            Problem::StaleProjection {
                projected: 0,
                recorded: 1
            }
        ]
    );
    assert!(!Problem::RowWithoutFile.fixable());
    Ok(())
}

#[test]
fn a_home_without_codex_state_has_nothing_to_repair() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    place(dir.path(), A, &session(A, [Some(0), Some(1), Some(2)]))?;
    let report = find_repairs(&CodexHome::new(dir.path()))?;
    assert!(!report.has_state);
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    Ok(())
}

#[test]
fn a_projection_is_forgotten_only_on_a_tested_schema_and_after_a_backup()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let a = place(root, A, &session(A, [Some(0), Some(1), Some(2)]))?;
    let size = std::fs::metadata(&a)?.len();
    state(root, &[(A, &a, None)], &[(A, size, 0)])?;
    let history = Connection::open(root.join(state::HISTORY_DATABASE))?;
    let rows = |connection: &Connection| -> rusqlite::Result<i64> {
        connection.query_row(
            "SELECT count(*) FROM thread_history_projection_state",
            [],
            |row| row.get(0),
        )
    };
    // No migration record: not a schema this version knows.
    let refused = state::forget_projections(root, &[A.to_owned()], 1);
    assert!(matches!(
        refused,
        Err(StateWriteError::UntestedSchema { found: 0, .. })
    ));
    assert_eq!(rows(&history)?, 1, "nothing was changed");
    history.execute_batch(
        "CREATE TABLE _sqlx_migrations (version INTEGER); INSERT INTO _sqlx_migrations VALUES (8);",
    )?;
    let backup = state::forget_projections(root, &[A.to_owned()], 2)?;
    assert_eq!(rows(&history)?, 0);
    assert_eq!(
        rows(&Connection::open(&backup)?)?,
        1,
        "the backup holds the row"
    );
    Ok(())
}

#[test]
fn a_row_is_pointed_at_another_file_of_its_thread_only_on_a_tested_schema()
-> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let root = dir.path();
    let a = place(root, A, &session(A, [Some(0), Some(1), Some(2)]))?;
    let continued = root.join("sessions/2025/06/02/rollout-2025-06-02T09-00-01-x_y.jsonl");
    state(root, &[(A, &a, None)], &[])?;
    assert_eq!(state::row_path(root, A)?, Some(a.clone()));
    state::point_thread_row(root, A, &continued, 1)?;
    assert_eq!(state::row_path(root, A)?, Some(continued.clone()));
    assert!(matches!(
        state::point_thread_row(root, B, &a, 1),
        Err(StateWriteError::NoRow { .. })
    ));
    let threads = Connection::open(root.join(state::STATE_DATABASE))?;
    threads.execute_batch("INSERT INTO _sqlx_migrations VALUES (70);")?;
    assert!(matches!(
        state::point_thread_row(root, A, &a, 2),
        Err(StateWriteError::UntestedSchema { found: 70, .. })
    ));
    assert_eq!(
        state::row_path(root, A)?,
        Some(continued),
        "nothing was changed"
    );
    Ok(())
}
