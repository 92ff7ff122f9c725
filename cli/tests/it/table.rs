//! `codex-thread table` read back by DuckDB (from PyPI, pinned; `cargo xtask duckdb`): the
//! Parquet of a home of real sessions and of a home the real Codex wrote agrees with `usage`
//! (tokens per day and model, per thread, fork children not double counted), with `inspect`
//! (tool calls per thread) and with `thread` (turns per thread); and two queries a team runs
//! (tool failure rate by model, median turn duration per cwd) give the answers this test
//! computes on its own from the JSONL, each line parsed as plain JSON.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use codex_test_support::{DUCKDB, real_codex_or_skip};
use serde_json::Value;

use common::real_codex::{run_ours, text};
use common::tables::{Keyed, as_text, expected_of, home_codex_wrote, median, place_real_sessions};
use common::{TestResult, real_files};

type Failure = Box<dyn std::error::Error>;

/// A query runner: DuckDB in Python, rows back as JSON.
struct DuckDb {
    python: PathBuf,
    out: PathBuf,
}

impl DuckDb {
    /// The rows of `sql`, where `{threads}`, `{turns}`, `{items}` and `{token_usage}` name
    /// the tables under the output folder (Hive partitions, so `day` is a column).
    fn rows(&self, sql: &str) -> Result<Vec<Vec<Value>>, Failure> {
        let mut sql = sql.to_string();
        for table in ["threads", "turns", "items", "token_usage"] {
            let glob = self.out.join(table).join("*").join("*.parquet");
            sql = sql.replace(
                &format!("{{{table}}}"),
                &format!(
                    "read_parquet('{}', hive_partitioning = true)",
                    glob.display()
                ),
            );
        }
        let script = "import duckdb, json, sys\n\
                      rows = duckdb.connect().sql(sys.argv[1]).fetchall()\n\
                      print(json.dumps([list(row) for row in rows], default=str))";
        let output = Command::new(&self.python)
            .args(["-c", script, &sql])
            .output()?;
        if !output.status.success() {
            return Err(format!(
                "duckdb failed on {sql}: {}",
                String::from_utf8_lossy(&output.stderr)
            )
            .into());
        }
        Ok(serde_json::from_slice(&output.stdout)?)
    }

    /// Rows keyed by their first `keys` columns, the rest as the value.
    fn keyed(&self, sql: &str, keys: usize) -> Result<Keyed, Failure> {
        Ok(self
            .rows(sql)?
            .into_iter()
            .map(|row| {
                let key = row[..keys].iter().map(as_text).collect();
                (key, row[keys..].to_vec())
            })
            .collect())
    }
}

/// Writes the tables of `home` and checks them against the other commands and against this
/// test's own reading of the files. Returns how many tool calls and turns were compared, so a
/// caller can require that something was.
fn check_home(python: &Path, home: &Path) -> Result<(usize, usize), Failure> {
    let out = tempfile::tempdir()?;
    let out_dir = out.path().join("tables");
    run_ours(&["table", "--home", text(home)?, "-o", text(&out_dir)?])?;
    let db = DuckDb {
        python: python.to_path_buf(),
        out: out_dir,
    };
    let expected = expected_of(home)?;

    // Tokens per day and model equal `usage daily` (UTC days).
    let tables = db.keyed(
        "select day::varchar, coalesce(model, 'unknown'), sum(input_tokens)::bigint, \
         sum(cached_input_tokens)::bigint, sum(output_tokens)::bigint, \
         sum(reasoning_output_tokens)::bigint, sum(total_tokens)::bigint \
         from {token_usage} group by all",
        2,
    )?;
    assert_eq!(tables, expected.tokens, "token usage per day and model");

    // Per thread equal `usage session` (a fork child never counts its parent's prefix).
    let tables = db.keyed(
        "select thread_id, sum(input_tokens)::bigint, sum(output_tokens)::bigint \
         from {token_usage} group by all having sum(total_tokens) > 0",
        1,
    )?;
    assert_eq!(tables, expected.thread_tokens, "token usage per thread");

    // A line a child copied from its parent is never counted.
    for (id, last) in &expected.copied {
        let counted = db.rows(&format!(
            "select count(*) from {{token_usage}} where thread_id = '{id}' and line <= {last}"
        ))?;
        assert_eq!(
            counted[0][0],
            Value::from(0),
            "{id}: a copied line was counted"
        );
    }

    // Tool calls per thread (`inspect`) and turns per thread (`thread`).
    let tables = db.keyed(
        "select thread_id, count(*) from {items} where tool_name is not null group by all",
        1,
    )?;
    assert_eq!(tables, expected.calls, "tool calls per thread (inspect)");
    let tables = db.keyed(
        "select thread_id, count(*) filter (where not rolled_back), \
         count(*) filter (where not rolled_back and not copied) from {turns} group by all",
        1,
    )?;
    let tables: Keyed = tables
        .into_iter()
        .filter(|(key, _)| expected.turns.contains_key(key))
        .collect();
    assert_eq!(tables, expected.turns, "turns per thread (thread)");

    // Team query 1: tool failure rate by model (own calls, not a fork's copied ones).
    let tables = db.keyed(
        "select coalesce(model, 'unknown'), count(*), count(*) filter (where status = 'failed') \
         from {items} where tool_name is not null and not copied group by all",
        1,
    )?;
    let by_model: Keyed = expected
        .calls_by_model
        .iter()
        .map(|(model, (calls, failed))| {
            (
                vec![model.clone()],
                vec![Value::from(*calls), Value::from(*failed)],
            )
        })
        .collect();
    assert_eq!(tables, by_model, "tool calls and failures by model");

    // Team query 2: median turn duration per cwd.
    let tables = db.keyed(
        "select th.cwd, median(t.duration_ms)::double from {turns} t join {threads} th \
         using (thread_id) where not t.rolled_back and t.duration_ms is not null group by all",
        1,
    )?;
    let by_cwd: Keyed = expected
        .durations
        .iter()
        .map(|(cwd, durations)| (vec![cwd.clone()], vec![Value::from(median(durations))]))
        .collect();
    assert_eq!(tables, by_cwd, "median turn duration per cwd");
    Ok(expected.sizes())
}

/// The real session files, each where Codex keeps it in a throwaway home.
#[test]
fn tables_of_real_sessions_agree_with_usage_inspect_and_thread() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let Some(python) = DUCKDB.python_or_skip() else {
        return Ok(());
    };
    let home = tempfile::tempdir()?;
    place_real_sessions(&files, home.path())?;
    let (calls, turns) = check_home(&python, home.path())?;
    assert!(
        calls > 500 && turns > 50,
        "compared {calls} calls, {turns} turns"
    );
    Ok(())
}

/// A home the real Codex wrote: two turns with a command that succeeds and one that fails,
/// another thread, and a fork whose copied prefix must not count again.
#[test]
fn tables_of_a_home_codex_wrote_agree_with_usage_inspect_and_thread() -> TestResult {
    let Some(codex) = real_codex_or_skip("tables_of_a_home_codex_wrote") else {
        return Ok(());
    };
    let Some(python) = DUCKDB.python_or_skip() else {
        return Ok(());
    };
    let written = home_codex_wrote(&codex)?;
    let home = &written.home;
    let (calls, turns) = check_home(&python, home.path())?;
    assert!(
        calls >= 2 && turns >= 4,
        "compared {calls} calls, {turns} turns"
    );

    // The fork's own responses only: 6, never its parent's 1 to 4.
    let out = tempfile::tempdir()?;
    run_ours(&[
        "table",
        "--home",
        text(home.path())?,
        "-o",
        text(out.path())?,
    ])?;
    let db = DuckDb {
        python,
        out: out.path().to_path_buf(),
    };
    let fork_id = &written.fork;
    let rows = db.rows(&format!(
        "select sum(input_tokens)::bigint, count(*) from {{token_usage}} where thread_id = '{fork_id}'"
    ))?;
    assert_eq!(rows, vec![vec![Value::from(6_000), Value::from(1)]]);
    let rows = db.rows(&format!(
        "select forked_from_id from {{threads}} where thread_id = '{fork_id}'"
    ))?;
    assert_eq!(rows, vec![vec![Value::from(written.first.as_str())]]);
    let rows = db.rows(
        "select count(*) filter (where status = 'failed'), count(*) filter (where exit_code = 3) \
         from {items} where tool_name is not null and not copied",
    )?;
    assert_eq!(rows, vec![vec![Value::from(1), Value::from(1)]]);
    Ok(())
}
