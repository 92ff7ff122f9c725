//! docs/tables.md's team layout, read by real engines with the docs' own snippets.
//!
//! Two people export into one shared folder at the same time with `table --person`: `alice`
//! a home of the real session files, `bob` a home the real Codex wrote in the test. Then every
//! snippet of docs/tables.md runs as written (the folder substituted) in DuckDB (PyPI,
//! pinned) and in Spark (PySpark, pinned, local mode; set up once from Python and once in
//! Spark SQL), through `common/table_engines.py`. The three set-ups give the same rows for
//! every query, and those rows are what the other commands say of each person's home:
//! tokens per day and model `usage daily --timezone UTC`, tool calls per thread `inspect`,
//! turns per thread `thread`, failures and median durations the JSONL itself.
//!
//! Last, a newer export beside them (one column more, as a later schema version adds one)
//! is read together with today's files by the documented set-up in both engines.

// The engines' timings are reported on stderr (run with --nocapture).
#![allow(clippy::print_stderr)]

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use codex_test_support::{DUCKDB, PYSPARK, real_codex_or_skip};
use serde_json::Value;

use common::real_codex::text;
use common::tables::{
    Expected, Keyed, as_text, expected_of, home_codex_wrote, median, place_real_sessions,
};
use common::{TestResult, real_files};

type Failure = Box<dyn std::error::Error>;

const DOCS: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/tables.md");
const HARNESS: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/it/common/table_engines.py"
);

/// The documented queries, by the start of their first line, in order.
const QUERIES: [&str; 5] = [
    "-- Tokens per person, day and model",
    "-- Tool calls and failures per person and model",
    "-- Median turn duration per person and working directory",
    "-- Turns per thread",
    "-- Tool calls per thread",
];

/// Every set-up's rows per query: `duckdb`, `pyspark`, `spark sql`.
type Answers = BTreeMap<String, Vec<Vec<Vec<Value>>>>;

/// Runs the harness in `engine` with `python`, in a scratch folder (Spark's warehouse goes
/// there); the answers of each set-up and the query names.
fn run_engine(
    python: &Path,
    engine: &str,
    root: &Path,
    extra: &[&str],
) -> Result<(Vec<String>, Answers), Failure> {
    let scratch = tempfile::tempdir()?;
    let mut command = Command::new(python);
    command
        .arg(HARNESS)
        .args([engine, DOCS, text(root)?])
        .current_dir(scratch.path());
    for query in extra {
        command.args(["--extra", query]);
    }
    if !extra.is_empty() {
        command.arg("--only-extra");
    }
    let started = Instant::now();
    let output = command.output()?;
    eprintln!("{engine}: {:.1} s", started.elapsed().as_secs_f64());
    if !output.status.success() {
        return Err(format!(
            "{engine} failed on docs/tables.md's snippets: {}",
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    let mut answers: BTreeMap<String, Value> = serde_json::from_slice(&output.stdout)?;
    let names = serde_json::from_value(answers.remove("queries").ok_or("no query names")?)?;
    let answers = answers
        .into_iter()
        .map(|(setup, rows)| Ok((setup, serde_json::from_value(rows)?)))
        .collect::<Result<Answers, serde_json::Error>>()?;
    Ok((names, answers))
}

/// One person's rows of a query, keyed by the `keys` columns after `person`.
fn of_person(rows: &[Vec<Value>], person: &str, keys: usize) -> Keyed {
    rows.iter()
        .filter(|row| row.first().and_then(Value::as_str) == Some(person))
        .map(|row| {
            let key = row[1..=keys].iter().map(as_text).collect();
            (key, row[keys + 1..].to_vec())
        })
        .collect()
}

/// Checks the documented queries' rows against what `expected` says of `person`'s home.
fn check_person(answer: &[Vec<Vec<Value>>], person: &str, expected: &Expected) {
    assert_eq!(
        of_person(&answer[0], person, 2),
        expected.tokens,
        "{person}: tokens per day and model (usage daily)"
    );

    let by_model: Keyed = expected
        .calls_by_model
        .iter()
        .map(|(model, (calls, failed))| {
            let rate = (*failed as f64 / *calls as f64 * 1000.0).round() / 1000.0;
            (
                vec![model.clone()],
                vec![Value::from(*calls), Value::from(*failed), Value::from(rate)],
            )
        })
        .collect();
    assert_eq!(
        of_person(&answer[1], person, 1),
        by_model,
        "{person}: tool calls and failures by model"
    );

    let by_cwd: Keyed = expected
        .durations
        .iter()
        .map(|(cwd, durations)| {
            let seconds = (median(durations) / 1000.0 * 1e6).round() / 1e6;
            (
                vec![cwd.clone()],
                vec![Value::from(seconds), Value::from(durations.len())],
            )
        })
        .collect();
    assert_eq!(
        of_person(&answer[2], person, 1),
        by_cwd,
        "{person}: median turn duration per cwd"
    );

    let turns: Keyed = of_person(&answer[3], person, 1)
        .into_iter()
        .filter(|(key, _)| expected.turns.contains_key(key))
        .collect();
    assert_eq!(turns, expected.turns, "{person}: turns per thread (thread)");
    assert_eq!(
        of_person(&answer[4], person, 1),
        expected.calls,
        "{person}: tool calls per thread (inspect)"
    );
}

/// What the engines answered beside what the other commands say: the rows of each query per
/// set-up, and each person's token totals in Spark and in `usage`.
fn report(names: &[String], answers: &Answers, expected: &[(&str, Expected); 2]) {
    for (index, name) in names.iter().enumerate() {
        let counts: Vec<String> = answers
            .iter()
            .map(|(setup, answer)| format!("{setup} {} rows", answer[index].len()))
            .collect();
        eprintln!("{name}\n    {}", counts.join(", "));
    }
    let total = |rows: &Keyed, column: usize| -> u64 {
        rows.values()
            .filter_map(|row| row.get(column).and_then(Value::as_u64))
            .sum()
    };
    for (person, expected) in expected {
        let spark = of_person(&answers["spark sql"][0], person, 2);
        eprintln!(
            "{person}: total tokens {} in Spark SQL, {} in `usage daily`; input {} / {}",
            total(&spark, 4),
            total(&expected.tokens, 4),
            total(&spark, 0),
            total(&expected.tokens, 0),
        );
    }
}

/// Writes `home`'s tables as `person` into `out`, as a child process.
fn export(home: &Path, out: &Path, person: &str) -> Result<std::process::Child, Failure> {
    Ok(Command::new(env!("CARGO_BIN_EXE_codex-thread"))
        .args(["table", "--home", text(home)?, "--out", text(out)?])
        .args(["--person", person])
        .env_remove("CODEX_HOME")
        .stdout(std::process::Stdio::null())
        .spawn()?)
}

#[test]
fn a_teams_tables_answer_the_docs_queries_alike_in_spark_and_duckdb() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let Some(codex) = real_codex_or_skip("a_teams_tables_answer_the_docs_queries") else {
        return Ok(());
    };
    let Some(duckdb) = DUCKDB.python_or_skip() else {
        return Ok(());
    };
    let Some(spark) = PYSPARK.python_or_skip() else {
        return Ok(());
    };
    let alice = tempfile::tempdir()?;
    place_real_sessions(&files, alice.path())?;
    let bob = home_codex_wrote(&codex)?;

    // Both export into one folder at the same time.
    let shared = tempfile::tempdir()?;
    let root: PathBuf = shared.path().join("codex-tables");
    let mut runs = vec![
        export(alice.path(), &root, "alice")?,
        export(bob.home.path(), &root, "bob")?,
    ];
    for run in &mut runs {
        assert!(run.wait()?.success(), "an export failed");
    }
    let expected = [
        ("alice", expected_of(alice.path())?),
        ("bob", expected_of(bob.home.path())?),
    ];
    let (alice_calls, alice_turns) = expected[0].1.sizes();
    assert!(
        alice_calls > 500 && alice_turns > 50,
        "{alice_calls} calls, {alice_turns} turns"
    );

    let (names, mut answers) = run_engine(&duckdb, "duckdb", &root, &[])?;
    let (spark_names, spark_answers) = run_engine(&spark, "spark", &root, &[])?;
    answers.extend(spark_answers);
    assert_eq!(names, spark_names);
    assert_eq!(
        names.len(),
        QUERIES.len(),
        "docs/tables.md's queries: {names:?}"
    );
    for (name, start) in names.iter().zip(QUERIES) {
        assert!(name.starts_with(start), "{name:?} is not {start:?}");
    }
    assert_eq!(
        answers.keys().collect::<Vec<_>>(),
        ["duckdb", "pyspark", "spark sql"]
    );
    let duck = &answers["duckdb"];
    report(&names, &answers, &expected);
    for (setup, answer) in &answers {
        for (index, name) in names.iter().enumerate() {
            assert_eq!(
                answer[index], duck[index],
                "{setup} differs from duckdb on {name}"
            );
        }
        for (person, expected) in &expected {
            check_person(answer, person, expected);
        }
    }
    // The team read gives each person's totals: tokens of the two homes, nothing else.
    let people: Vec<&str> = duck[0]
        .iter()
        .filter_map(|row| row.first().and_then(Value::as_str))
        .collect();
    assert!(
        people
            .iter()
            .all(|person| ["alice", "bob"].contains(person))
    );
    assert!(people.contains(&"alice") && people.contains(&"bob"));

    // A later schema's export (one column more) beside today's: read together by the
    // documented set-up, today's rows with the new column null.
    let carol = root.join("token_usage").join("person=carol");
    let copy = format!(
        "copy (select * exclude (person), 'flex' as service_tier from \
         read_parquet('{}/token_usage/person=bob/**/*.parquet', hive_partitioning = true)) \
         to '{}' (format parquet, partition_by (day))",
        text(&root)?,
        text(&carol)?
    );
    let status = Command::new(&duckdb)
        .args(["-c", &format!("import duckdb; duckdb.sql({copy:?})")])
        .status()?;
    assert!(status.success(), "could not write the newer export");
    let tiers = "select person, count(*) as responses, count(service_tier) as tiered, \
                 sum(total_tokens) as total_tokens from token_usage group by all order by all";
    let (_, mut merged) = run_engine(&duckdb, "duckdb", &root, &[tiers])?;
    merged.extend(run_engine(&spark, "spark", &root, &[tiers])?.1);
    let bob_rows = &merged["duckdb"][0]
        .iter()
        .find(|row| row[0] == "bob")
        .ok_or("no rows of bob")?
        .clone();
    for (setup, answer) in &merged {
        let rows = &answer[0];
        assert_eq!(rows.len(), 3, "{setup}: {rows:?}");
        for row in rows {
            let tiered = if row[0] == "carol" {
                &row[1]
            } else {
                &Value::from(0)
            };
            assert_eq!(&row[2], tiered, "{setup}: {row:?}");
        }
        let carol_rows = rows
            .iter()
            .find(|row| row[0] == "carol")
            .ok_or("no carol")?;
        assert_eq!(
            (&carol_rows[1], &carol_rows[3]),
            (&bob_rows[1], &bob_rows[3]),
            "{setup}: the newer export holds bob's rows"
        );
        assert_eq!(rows, &merged["duckdb"][0], "{setup} differs from duckdb");
    }
    Ok(())
}
