//! What a home's Parquet tables must answer, found without them: from the other commands
//! (`usage`, `inspect`, `thread`) and from the JSONL itself, each line parsed as plain JSON.
//! `cli/tests/it/table.rs` (DuckDB, one person's layout) and `cli/tests/it/table_engines.rs`
//! (DuckDB and Spark over a team's layout, running docs/tables.md's snippets) compare their
//! engines' rows with it.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use codex_test_support::{
    CodexHome, RealCodex, Reply, Script, ScriptedModel, Usage, assistant_message, exec_command_call,
};
use serde_json::Value;

use super::real_codex::{home_path_of, run_ours, text};

type Failure = Box<dyn std::error::Error>;

/// Rows keyed by their first columns, the rest as the value.
pub(crate) type Keyed = BTreeMap<Vec<String>, Vec<Value>>;

/// A home's expected answers.
#[derive(Debug, Default)]
pub(crate) struct Expected {
    /// (day, model) to input, cached input, output, reasoning and total tokens: `usage daily
    /// --timezone UTC`.
    pub tokens: Keyed,
    /// Thread to input and output tokens, threads with tokens only: `usage session`.
    pub thread_tokens: Keyed,
    /// Thread to its tool calls, threads with calls only: `inspect`.
    pub calls: Keyed,
    /// Thread to its turns as `thread` shows them and its own (not copied) ones, threads with
    /// turns only.
    pub turns: Keyed,
    /// Threads whose file starts with a copy of a parent's lines, with the copy's last line:
    /// no token row may come from those lines.
    pub copied: Vec<(String, u64)>,
    /// Model to (own tool calls, failed ones), from the JSONL.
    pub calls_by_model: BTreeMap<String, (u64, u64)>,
    /// Cwd to the durations (ms) of the turns its threads keep, from the JSONL.
    pub durations: BTreeMap<String, Vec<i64>>,
}

impl Expected {
    /// Tool calls compared and turns compared: what a test requires to be more than nothing.
    pub(crate) fn sizes(&self) -> (usize, usize) {
        let sum = |map: &Keyed| -> usize {
            map.values()
                .filter_map(|row| row.first().and_then(Value::as_u64))
                .sum::<u64>() as usize
        };
        (sum(&self.calls), sum(&self.turns))
    }
}

/// Places each real session file (not the shape catalogues) where Codex keeps it under
/// `home`; at least twelve have a session meta.
pub(crate) fn place_real_sessions(files: &[PathBuf], home: &Path) -> Result<(), Failure> {
    let mut placed = 0;
    for file in files.iter().filter(|file| !super::is_catalogue(file)) {
        if let Some((path, _)) = home_path_of(file, home)? {
            std::fs::copy(file, path)?;
            placed += 1;
        }
    }
    assert!(placed >= 12, "only {placed} real files have a session meta");
    Ok(())
}

/// A home the real Codex wrote, and the model that answered it.
pub(crate) struct HomeCodexWrote {
    /// The home.
    pub home: CodexHome,
    /// The first thread.
    pub first: String,
    /// The fork of the first thread.
    pub fork: String,
    _model: ScriptedModel,
}

/// Has the real Codex write a home: two turns of one thread, with a command that succeeds
/// and one that fails (exit 3), another thread, and a fork of the first whose copied prefix
/// must not count again. Response `n` uses `1000 n` input tokens, so a count names its
/// responses.
pub(crate) fn home_codex_wrote(codex: &RealCodex) -> Result<HomeCodexWrote, Failure> {
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
    let home = CodexHome::new(codex, &model)?;
    let first = home.exec("first")?;
    first.assert_success();
    let first = first.expect_thread_id().to_owned();
    home.resume(&first, "again")?.assert_success();
    home.exec("second")?.assert_success();
    let fork = home.fork(&first, "from here")?;
    fork.assert_success();
    let fork = fork.expect_thread_id().to_owned();
    Ok(HomeCodexWrote {
        home,
        first,
        fork,
        _model: model,
    })
}

/// The answers `home`'s tables must give.
pub(crate) fn expected_of(home: &Path) -> Result<Expected, Failure> {
    let mut expected = Expected::default();
    // Tokens per day and model: `usage daily` (UTC days).
    let usage: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "usage",
        "daily",
        "--home",
        text(home)?,
        "--timezone",
        "UTC",
    ])?)?;
    for day in usage["daily"].as_array().ok_or("no daily rows")? {
        let date = day["date"].as_str().ok_or("no date")?;
        for (model, sums) in day["models"].as_object().ok_or("no models")? {
            let pick = |key: &str| sums[key].clone();
            expected.tokens.insert(
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

    // Per thread: `usage session` (a fork child never counts its parent's prefix).
    let sessions: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "usage",
        "session",
        "--home",
        text(home)?,
        "--timezone",
        "UTC",
    ])?)?;
    for row in sessions["session"].as_array().ok_or("no session rows")? {
        let id = as_text(&row["thread_id"]);
        let entry = expected
            .thread_tokens
            .entry(vec![id])
            .or_insert_with(|| vec![Value::from(0u64); 2]);
        for (index, key) in ["input_tokens", "output_tokens"].iter().enumerate() {
            let sum = entry[index].as_u64().unwrap_or(0) + row[*key].as_u64().unwrap_or(0);
            entry[index] = Value::from(sum);
        }
    }
    expected
        .thread_tokens
        .retain(|_, sums| sums.iter().any(|sum| sum.as_u64() != Some(0)));

    // Per file: `inspect` (tool calls, the copied prefix) and `thread` (turns).
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
        add(&mut expected.calls, id, count);
        if let Some(last) = inspection["copied_from_parent"]["lines"][1].as_u64() {
            expected.copied.push((id.to_string(), last));
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
        let entry = expected
            .turns
            .entry(vec![id.clone()])
            .or_insert_with(|| vec![Value::from(0u64), Value::from(0u64)]);
        entry[0] = Value::from(entry[0].as_u64().unwrap_or(0) + all);
        entry[1] = Value::from(entry[1].as_u64().unwrap_or(0) + own);
    }
    expected.calls.retain(|_, count| count[0] != 0);
    expected.turns.retain(|_, count| count[0] != 0);
    expected.calls_by_model = facts.calls;
    expected.durations = facts
        .durations
        .into_iter()
        .filter(|(_, durations)| !durations.is_empty())
        .collect();
    Ok(expected)
}

/// An engine's value as a key: strings as they are, null as `null`, the rest as JSON.
pub(crate) fn as_text(value: &Value) -> String {
    match value {
        Value::String(text) => text.clone(),
        Value::Null => "null".to_string(),
        other => other.to_string(),
    }
}

/// Every session file under `home` (live and archived).
pub(crate) fn session_files(home: &Path) -> Result<Vec<PathBuf>, Failure> {
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

pub(crate) fn median(values: &[i64]) -> f64 {
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
