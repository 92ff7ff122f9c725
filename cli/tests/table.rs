//! `codex-thread table` read back by DuckDB (from PyPI, pinned; `cargo xtask duckdb`): the
//! Parquet of a home of real sessions and of a home the real Codex wrote agrees with `usage`
//! (tokens per day and model, per thread, fork children not double counted), with `inspect`
//! (tool calls per thread) and with `thread` (turns per thread); and two queries a team runs
//! (tool failure rate by model, median turn duration per cwd) give the answers this test
//! computes on its own from the JSONL, each line parsed as plain JSON.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use codex_test_support::{
    CodexHome, Reply, Script, ScriptedModel, Usage, assistant_message, duckdb_python_or_skip,
    exec_command_call, real_codex_or_skip,
};
use serde_json::Value;

use common::real_codex::{home_path_of, run_ours, text};
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
    fn keyed(&self, sql: &str, keys: usize) -> Result<BTreeMap<Vec<String>, Vec<Value>>, Failure> {
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

fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "null".to_string(),
        other => other.to_string(),
    }
}

/// Every session file under `home` (live and archived).
fn session_files(home: &Path) -> Result<Vec<PathBuf>, Failure> {
    let mut files = Vec::new();
    let mut folders = vec![home.join("sessions"), home.join("archived_sessions")];
    while let Some(folder) = folders.pop() {
        let Ok(entries) = std::fs::read_dir(&folder) else {
            continue;
        };
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.to_string_lossy().ends_with(".jsonl") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
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

    // Tokens per day and model equal `usage daily` (UTC days).
    let usage: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "usage",
        "daily",
        "--home",
        text(home)?,
        "--timezone",
        "UTC",
    ])?)?;
    let mut expected: BTreeMap<Vec<String>, Vec<Value>> = BTreeMap::new();
    for day in usage["daily"].as_array().ok_or("no daily rows")? {
        let date = day["date"].as_str().ok_or("no date")?;
        for (model, sums) in day["models"].as_object().ok_or("no models")? {
            let pick = |key: &str| sums[key].clone();
            expected.insert(
                vec![date.to_string(), model.clone()],
                vec![
                    pick("input_tokens"),
                    pick("cached_input_tokens"),
                    pick("output_tokens"),
                    pick("reasoning_output_tokens"),
                    pick("total_tokens"),
                ],
            );
        }
    }
    let tables = db.keyed(
        "select day::varchar, coalesce(model, 'unknown'), sum(input_tokens)::bigint, \
         sum(cached_input_tokens)::bigint, sum(output_tokens)::bigint, \
         sum(reasoning_output_tokens)::bigint, sum(total_tokens)::bigint \
         from {token_usage} group by all",
        2,
    )?;
    assert_eq!(tables, expected, "token usage per day and model");

    // Per thread equal `usage session` (a fork child never counts its parent's prefix).
    let sessions: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "usage",
        "session",
        "--home",
        text(home)?,
        "--timezone",
        "UTC",
    ])?)?;
    let mut per_thread: BTreeMap<Vec<String>, Vec<Value>> = BTreeMap::new();
    for row in sessions["session"].as_array().ok_or("no session rows")? {
        let id = as_text(&row["thread_id"]);
        let entry = per_thread
            .entry(vec![id])
            .or_insert_with(|| vec![Value::from(0u64); 2]);
        for (index, key) in ["input_tokens", "output_tokens"].iter().enumerate() {
            let sum = entry[index].as_u64().unwrap_or(0) + row[*key].as_u64().unwrap_or(0);
            entry[index] = Value::from(sum);
        }
    }
    let tables = db.keyed(
        "select thread_id, sum(input_tokens)::bigint, sum(output_tokens)::bigint \
         from {token_usage} group by all having sum(total_tokens) > 0",
        1,
    )?;
    per_thread.retain(|_, sums| sums.iter().any(|sum| sum.as_u64() != Some(0)));
    assert_eq!(tables, per_thread, "token usage per thread");

    // Per file: `inspect` (tool calls, the copied prefix) and `thread` (turns).
    let mut calls: BTreeMap<Vec<String>, Vec<Value>> = BTreeMap::new();
    let mut turns: BTreeMap<Vec<String>, Vec<Value>> = BTreeMap::new();
    let mut facts = Facts::default();
    // Per file: thread id, the thread it continues by reference, the one it copied, and the
    // turn ids `thread` shows.
    let mut shown: Vec<Shown> = Vec::new();
    // Per thread: the turn ids its files start (`task_started`), rolled back or not.
    let mut started: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for file in session_files(home)? {
        let inspection: Value =
            serde_json::from_str(&run_ours(&["--json", "inspect", text(&file)?])?)?;
        let Some(id) = inspection["thread_id"].as_str() else {
            continue;
        };
        let count: u64 = inspection["tool_calls"]
            .as_object()
            .map_or(0, |tools| tools.values().filter_map(Value::as_u64).sum());
        add(&mut calls, id, count);
        if let Some(last) = inspection["copied_from_parent"]["lines"][1].as_u64() {
            let counted = db.rows(&format!(
                "select count(*) from {{token_usage}} where thread_id = '{id}' and line <= {last}"
            ))?;
            assert_eq!(
                counted[0][0],
                Value::from(0),
                "{id}: a copied line was counted"
            );
        }
        // `thread` shows a fork by reference with its parent's turns up to the fork; the
        // file's own turns are the ones its parent's `thread` does not show.
        let thread: Value = serde_json::from_str(&run_ours(&[
            "--json",
            "thread",
            text(&file)?,
            "--home",
            text(home)?,
        ])?)?;
        let turn_ids: Vec<String> = thread["turns"]
            .as_array()
            .map(|turns| turns.iter().map(|turn| as_text(&turn["id"])).collect())
            .unwrap_or_default();
        let base = inspection["history_base"]["thread_id"]
            .as_str()
            .map(str::to_string);
        let copied_from = inspection["copied_from_parent"]["thread_id"]
            .as_str()
            .map(str::to_string);
        let text = std::fs::read_to_string(&file)?;
        started.insert(id.to_string(), started_turns(&text));
        shown.push((id.to_string(), base, copied_from, turn_ids));
        facts.read(&text);
    }
    // A file's own turns are the ones its parent's files never started. The table has every
    // turn `thread` shows of a copying child (the copied ones marked), only its own of a fork
    // by reference.
    let mut compared_turns = 0;
    for (id, base, copied_from, turn_ids) in &shown {
        let parent_id = base.as_ref().or(copied_from.as_ref());
        let parent: Vec<&String> = parent_id
            .and_then(|parent| started.get(parent))
            .map(|ids| ids.iter().collect())
            .unwrap_or_default();
        let own = turn_ids
            .iter()
            .filter(|turn| !parent.contains(turn))
            .count() as u64;
        let all = if base.is_some() {
            own
        } else {
            turn_ids.len() as u64
        };
        compared_turns += all as usize;
        let entry = turns
            .entry(vec![id.clone()])
            .or_insert_with(|| vec![Value::from(0u64), Value::from(0u64)]);
        entry[0] = Value::from(entry[0].as_u64().unwrap_or(0) + all);
        entry[1] = Value::from(entry[1].as_u64().unwrap_or(0) + own);
    }
    calls.retain(|_, count| count[0] != 0);
    let tables = db.keyed(
        "select thread_id, count(*) from {items} where tool_name is not null group by all",
        1,
    )?;
    assert_eq!(tables, calls, "tool calls per thread (inspect)");
    let compared_calls = calls
        .values()
        .filter_map(|count| count[0].as_u64())
        .sum::<u64>() as usize;
    turns.retain(|_, count| count[0] != 0);
    let tables = db.keyed(
        "select thread_id, count(*) filter (where not rolled_back), \
         count(*) filter (where not rolled_back and not copied) from {turns} group by all",
        1,
    )?;
    let tables: BTreeMap<_, _> = tables
        .into_iter()
        .filter(|(key, _)| turns.contains_key(key))
        .collect();
    assert_eq!(tables, turns, "turns per thread (thread)");

    // Team query 1: tool failure rate by model (own calls, not a fork's copied ones).
    let tables = db.keyed(
        "select coalesce(model, 'unknown'), count(*), count(*) filter (where status = 'failed') \
         from {items} where tool_name is not null and not copied group by all",
        1,
    )?;
    let expected: BTreeMap<Vec<String>, Vec<Value>> = facts
        .calls
        .iter()
        .map(|(model, (calls, failed))| {
            (
                vec![model.clone()],
                vec![Value::from(*calls), Value::from(*failed)],
            )
        })
        .collect();
    assert_eq!(tables, expected, "tool calls and failures by model");

    // Team query 2: median turn duration per cwd.
    let tables = db.keyed(
        "select th.cwd, median(t.duration_ms)::double from {turns} t join {threads} th \
         using (thread_id) where not t.rolled_back and t.duration_ms is not null group by all",
        1,
    )?;
    let expected: BTreeMap<Vec<String>, Vec<Value>> = facts
        .durations
        .iter()
        .filter(|(_, durations)| !durations.is_empty())
        .map(|(cwd, durations)| (vec![cwd.clone()], vec![Value::from(median(durations))]))
        .collect();
    assert_eq!(tables, expected, "median turn duration per cwd");
    Ok((compared_calls, compared_turns))
}

/// The turn ids of a file's `task_started` events, each line read as plain JSON.
fn started_turns(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|value| value["payload"]["type"] == "task_started")
        .filter_map(|value| value["payload"]["turn_id"].as_str().map(str::to_string))
        .collect()
}

type Shown = (String, Option<String>, Option<String>, Vec<String>);

fn add(map: &mut BTreeMap<Vec<String>, Vec<Value>>, id: &str, count: u64) {
    let entry = map
        .entry(vec![id.to_string()])
        .or_insert_with(|| vec![Value::from(0u64)]);
    entry[0] = Value::from(entry[0].as_u64().unwrap_or(0) + count);
}

fn median(values: &[i64]) -> f64 {
    let mut sorted = values.to_vec();
    sorted.sort_unstable();
    let middle = sorted.len() / 2;
    if sorted.len().is_multiple_of(2) {
        (sorted[middle - 1] as f64 + sorted[middle] as f64) / 2.0
    } else {
        sorted[middle] as f64
    }
}

/// What this test reads from the files itself, each line as plain JSON.
#[derive(Default)]
struct Facts {
    /// Model to (own tool calls, failed ones).
    calls: BTreeMap<String, (u64, u64)>,
    /// Cwd to the durations of the turns a thread keeps.
    durations: BTreeMap<String, Vec<i64>>,
}

const CALL_TYPES: [&str; 6] = [
    "function_call",
    "custom_tool_call",
    "local_shell_call",
    "tool_search_call",
    "web_search_call",
    "image_generation_call",
];

impl Facts {
    fn read(&mut self, text: &str) {
        let mut own_id: Option<String> = None;
        let mut cwd: Option<String> = None;
        let mut copied = false;
        let mut model: Option<String> = None;
        // Calls in order: (model, copied, failed); the latest call of each id.
        let mut calls: Vec<(String, bool, bool)> = Vec::new();
        let mut by_id: BTreeMap<String, usize> = BTreeMap::new();
        // Turns in order: (turn id, duration); the open one is the last when `open`.
        let mut turns: Vec<Option<i64>> = Vec::new();
        let mut open = false;
        for line in text.lines() {
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            // A pre-envelope file's lines are bare items.
            let bare = value.get("payload").is_none();
            let kind = if bare {
                "response_item"
            } else {
                value["type"].as_str().unwrap_or_default()
            };
            let payload = if bare { &value } else { &value["payload"] };
            let payload_type = payload["type"].as_str().unwrap_or_default();
            let mut fail = |call_id: &Value, failed: bool| {
                if let Some(index) = call_id.as_str().and_then(|id| by_id.get(id))
                    && failed
                {
                    calls[*index].2 = true;
                }
            };
            match (kind, payload_type) {
                ("session_meta", _) => {
                    let id = payload["id"].as_str().map(str::to_string);
                    if own_id.is_none() {
                        own_id = id;
                        cwd = payload["cwd"].as_str().map(str::to_string);
                    } else if id != own_id {
                        copied = true;
                    }
                }
                ("turn_context", _) => {
                    if let Some(name) = payload["model"].as_str().filter(|name| !name.is_empty()) {
                        model = Some(name.to_string());
                    }
                }
                ("event_msg", "thread_settings_applied") => {
                    if let Some(name) = payload["thread_settings"]["model"]
                        .as_str()
                        .filter(|name| !name.is_empty())
                    {
                        model = Some(name.to_string());
                    }
                }
                ("event_msg", "task_started") => {
                    let turn_id = payload["turn_id"].as_str().unwrap_or_default();
                    if copied && own_id.as_deref().is_some_and(|own| turn_id > own) {
                        copied = false;
                    }
                    turns.push(None);
                    open = true;
                }
                ("event_msg", "task_complete" | "turn_aborted") => {
                    if open && let Some(last) = turns.last_mut() {
                        *last = payload["duration_ms"].as_i64();
                    }
                    open = false;
                }
                ("event_msg", "thread_rolled_back") => {
                    open = false;
                    let drop = payload["num_turns"].as_u64().unwrap_or(0) as usize;
                    turns.truncate(turns.len().saturating_sub(drop));
                }
                ("event_msg", "exec_command_end") => {
                    fail(
                        &payload["call_id"],
                        payload["exit_code"].as_i64() != Some(0),
                    );
                }
                ("event_msg", "patch_apply_end") => {
                    fail(
                        &payload["call_id"],
                        payload["success"] == Value::Bool(false),
                    );
                }
                ("event_msg", "mcp_tool_call_end") => {
                    let result = &payload["result"];
                    let failed = result.get("Err").is_some()
                        || result["Ok"]["isError"] == Value::Bool(true)
                        || result["Ok"]["is_error"] == Value::Bool(true);
                    fail(&payload["call_id"], failed);
                }
                ("event_msg", "item_completed") => {
                    let item = &payload["item"];
                    let status = item["status"].as_str().unwrap_or_default();
                    let refused = status == "failed" || status == "declined";
                    let failed = match item["type"].as_str().unwrap_or_default() {
                        "CommandExecution" => {
                            refused
                                || status != "completed"
                                || item["exit_code"].as_i64().is_some_and(|code| code != 0)
                        }
                        "FileChange" | "McpToolCall" => refused,
                        _ => false,
                    };
                    fail(&item["id"], failed);
                }
                ("response_item", "function_call_output" | "custom_tool_call_output") => {
                    fail(
                        &payload["call_id"],
                        payload["output"]["success"] == Value::Bool(false),
                    );
                }
                ("response_item", call) if CALL_TYPES.contains(&call) => {
                    if let Some(call_id) = payload["call_id"].as_str() {
                        by_id.insert(call_id.to_string(), calls.len());
                    }
                    let name = model.clone().unwrap_or_else(|| "unknown".to_string());
                    calls.push((name, copied, false));
                }
                _ => {}
            }
        }
        for (model, copied, failed) in calls {
            if copied {
                continue;
            }
            let entry = self.calls.entry(model).or_default();
            entry.0 += 1;
            entry.1 += u64::from(failed);
        }
        if let Some(cwd) = cwd {
            self.durations
                .entry(cwd)
                .or_default()
                .extend(turns.into_iter().flatten());
        }
    }
}

/// The real session files, each where Codex keeps it in a throwaway home.
#[test]
fn tables_of_real_sessions_agree_with_usage_inspect_and_thread() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let Some(python) = duckdb_python_or_skip() else {
        return Ok(());
    };
    let home = tempfile::tempdir()?;
    let mut placed = 0;
    for file in files.iter().filter(|file| !common::is_catalogue(file)) {
        if let Some((path, _)) = home_path_of(file, home.path())? {
            std::fs::copy(file, path)?;
            placed += 1;
        }
    }
    assert!(placed >= 12, "only {placed} real files have a session meta");
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
    let Some(python) = duckdb_python_or_skip() else {
        return Ok(());
    };
    let usage = |n: u64| Usage::new(1_000 * n, 100 * n, 10 * n, n);
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![exec_command_call("call_t1", "echo one")]).usage(usage(1)))
            .reply(Reply::items(vec![exec_command_call("call_t2", "exit 3")]).usage(usage(2)))
            .reply(Reply::items(vec![assistant_message("msg_t3", "One.")]).usage(usage(3)))
            .reply(Reply::items(vec![assistant_message("msg_t4", "Again.")]).usage(usage(4)))
            .reply(Reply::items(vec![assistant_message("msg_t5", "Other.")]).usage(usage(5)))
            .reply(Reply::items(vec![assistant_message("msg_t6", "Forked.")]).usage(usage(6))),
    )?;
    let home = CodexHome::new(&codex, &model)?;
    let first = home.exec("first")?;
    first.assert_success();
    let first = first.expect_thread_id().to_owned();
    home.resume(&first, "again")?.assert_success();
    home.exec("second")?.assert_success();
    let fork = home.fork(&first, "from here")?;
    fork.assert_success();
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
    let fork_id = fork.expect_thread_id();
    let rows = db.rows(&format!(
        "select sum(input_tokens)::bigint, count(*) from {{token_usage}} where thread_id = '{fork_id}'"
    ))?;
    assert_eq!(rows, vec![vec![Value::from(6_000), Value::from(1)]]);
    let rows = db.rows(&format!(
        "select forked_from_id from {{threads}} where thread_id = '{fork_id}'"
    ))?;
    assert_eq!(rows, vec![vec![Value::from(first)]]);
    let rows = db.rows(
        "select count(*) filter (where status = 'failed'), count(*) filter (where exit_code = 3) \
         from {items} where tool_name is not null and not copied",
    )?;
    assert_eq!(rows, vec![vec![Value::from(1), Value::from(1)]]);
    Ok(())
}
