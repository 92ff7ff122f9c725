//! `codex-thread serve` beside `codex app-server` (the pinned release) on the same homes, both
//! over standard input and output as a client starts them, each request timed on its own and
//! each server's peak memory read from `/proc` (`VmHWM`) once its requests are answered.
//!
//! 1. A home of `CODEX_SERVE_BENCH_SESSIONS` sessions (default 100,000; small ones, a person's
//!    message and an answer each, 300 a day): `thread/list`'s first page newest created first,
//!    the next three pages, and the first page by last change, as the TUI's picker asks.
//! 2. One paginated session, then one legacy session (as 0.14x wrote them), of
//!    `CODEX_SERVE_BENCH_SESSION_MIB` (default 1024; 10240 for the 10 GiB point) of turns with
//!    100 kB tool outputs: what the TUI asks when it opens it
//!    (`thread/resume` without turns, `thread/turns/list` of the last 5, `thread/items/list`
//!    of the last 100), and `thread/turns/list` of 5 turns a hundred turns back, then a turn
//!    appended to the file after the resume until its `turn/completed` notification arrives
//!    (live follow: the server first replays the file as it was, in the background), beside a
//!    one-thread `serde_json::Value` parse of the file. Codex's server shows a paginated file
//!    it did not write no turns (its history lives in its state database), so only ours is
//!    measured there.
//!
//! 3. The same page requests on paginated files of every hard shape real files have
//!    (`generate::named_shapes` over the real paginated lines: compactions late and at
//!    several depths, rollbacks before, after and past the last compaction, a torn last line,
//!    images the real lines hold), `CODEX_SERVE_BENCH_SHAPES_MIB` each (default the session
//!    size), with `thread/read` of the whole thread.
//!
//! `CODEX_SERVE_BENCH_ONLY=shapes` runs the third part alone. The inputs live under the
//! target directory and are deleted at the end.

#![allow(clippy::expect_used, clippy::print_stderr, clippy::unwrap_used)]

#[path = "../../rollout/benches/support/baseline.rs"]
mod baseline;
#[path = "../../rollout/benches/support/generate.rs"]
mod generate;

use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use codex_test_support::{AppServer, real_codex_or_skip};
use serde_json::{Value, json};

const MIB: u64 = 1 << 20;

fn env_or(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

fn work_dir(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("sessions")).unwrap();
    dir
}

/// A home of `sessions` small sessions, 300 a day, each a person's message and an answer.
fn write_home(home: &Path, sessions: u64) {
    let start = chrono::DateTime::parse_from_rfc3339("2025-01-01T00:00:00Z").unwrap();
    let mut made = PathBuf::new();
    for index in 0..sessions {
        let at = start + chrono::Duration::seconds((index * 288) as i64);
        let day = home.join(format!("sessions/{}", at.format("%Y/%m/%d")));
        if day != made {
            std::fs::create_dir_all(&day).unwrap();
            made = day.clone();
        }
        let id = format!("01990000-0000-7000-8000-{index:012x}");
        let stamp = at.format("%Y-%m-%dT%H:%M:%S.000Z").to_string();
        let name = format!("rollout-{}-{id}.jsonl", at.format("%Y-%m-%dT%H-%M-%S"));
        let lines = [
            json!({"timestamp": stamp, "type": "session_meta", "payload": {
                "id": id, "timestamp": stamp, "cwd": format!("/work/project-{}", index % 40),
                "originator": "codex_cli_rs", "cli_version": "0.150.0", "source": "cli",
                "model_provider": "openai"}}),
            json!({"timestamp": stamp, "type": "turn_context", "payload": {
                "cwd": "/work", "approval_policy": "never",
                "sandbox_policy": {"type": "read-only"}, "model": "gpt-5.5", "summary": "auto"}}),
            json!({"timestamp": stamp, "type": "response_item", "payload": {
                "type": "message", "role": "user",
                "content": [{"type": "input_text", "text": format!("session {index}: fix the build")}]}}),
            json!({"timestamp": stamp, "type": "event_msg", "payload": {
                "type": "user_message", "message": format!("session {index}: fix the build"),
                "images": []}}),
            json!({"timestamp": stamp, "type": "response_item", "payload": {
                "type": "message", "role": "assistant",
                "content": [{"type": "output_text", "text": "Fixed."}]}}),
            json!({"timestamp": stamp, "type": "event_msg", "payload": {
                "type": "agent_message", "message": "Fixed."}}),
        ];
        let mut text = String::new();
        for line in lines {
            text.push_str(&line.to_string());
            text.push('\n');
        }
        std::fs::write(day.join(name), text).unwrap();
    }
}

/// One session of about `target` bytes under `home`: turns of a message, a command with a
/// 100 kB output and an answer. `paginated`: as Codex 0.169 writes a paginated turn (the
/// response items and the completed items beside them, each line with its ordinal); else as
/// a legacy file of 0.14x (the response items and the message events). Its thread id.
/// A session file written: its thread, its file, its turns and its lines.
struct Written {
    id: String,
    path: PathBuf,
    turns: u64,
    lines: u64,
}

/// The lines of turn `turn` of thread `id`: a person's message, a command with a 100 kB
/// output, an answer (recorded as `paginated` or legacy files record them).
fn turn_records(id: &str, turn: u64, paginated: bool, output: &str) -> Vec<(&'static str, Value)> {
    let turn_id = format!("turn-{turn}");
    let event = |payload: Value| ("event_msg", payload);
    vec![
        event(json!({"type": "task_started", "turn_id": turn_id, "started_at": 1_767_340_800})),
        (
            "turn_context",
            json!({"turn_id": turn_id, "cwd": "/work",
            "approval_policy": "never", "sandbox_policy": {"type": "read-only"},
            "model": "gpt-5.5", "summary": "auto"}),
        ),
        (
            "response_item",
            json!({"type": "message", "role": "user",
                   "content": [{"type": "input_text", "text": format!("question {turn}")}]}),
        ),
        match paginated {
            true => event(json!({"type": "item_completed", "thread_id": id,
                "turn_id": turn_id,
                "item": {"type": "UserMessage", "id": format!("user-{turn}"),
                         "content": [{"type": "text", "text": format!("question {turn}"),
                                      "text_elements": []}]},
                "completed_at_ms": 1_767_340_800_000_i64})),
            false => event(json!({"type": "user_message",
                "message": format!("question {turn}"), "images": []})),
        },
        (
            "response_item",
            json!({"type": "function_call", "name": "exec_command",
            "call_id": format!("call-{turn}"), "arguments": "{\"cmd\":\"make\"}"}),
        ),
        (
            "response_item",
            json!({"type": "function_call_output",
            "call_id": format!("call-{turn}"), "output": output}),
        ),
        match paginated {
            true => event(json!({"type": "item_completed", "thread_id": id,
                "turn_id": turn_id,
                "item": {"type": "AgentMessage", "id": format!("agent-{turn}"),
                         "content": [{"type": "Text", "text": format!("answer {turn}")}]},
                "completed_at_ms": 1_767_340_801_000_i64})),
            false => event(json!({"type": "agent_message",
                "message": format!("answer {turn}")})),
        },
        (
            "response_item",
            json!({"type": "message", "role": "assistant",
                   "content": [{"type": "output_text", "text": format!("answer {turn}")}]}),
        ),
        event(json!({"type": "task_complete", "turn_id": turn_id,
            "completed_at": 1_767_340_802})),
    ]
}

/// Writes `records` to `out` as lines, numbered from `ordinal` when `paginated`; the bytes.
fn write_records(
    out: &mut impl Write,
    records: Vec<(&str, Value)>,
    paginated: bool,
    ordinal: &mut u64,
) -> u64 {
    let stamp = "2026-01-02T08:00:00.000Z";
    let mut written = 0;
    for (kind, payload) in records {
        let mut line = json!({"timestamp": stamp, "type": kind, "payload": payload});
        if paginated {
            line["ordinal"] = json!(*ordinal);
        }
        *ordinal += 1;
        let text = line.to_string();
        writeln!(out, "{text}").unwrap();
        written += text.len() as u64 + 1;
    }
    written
}

/// A session of about `target` bytes in `home` (paginated or legacy), turns of
/// [`turn_records`].
fn write_session(home: &Path, target: u64, paginated: bool) -> Written {
    let id = "01990000-0000-7000-8000-0000000000aa";
    let dir = home.join("sessions/2026/01/02");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("rollout-2026-01-02T08-00-00-{id}.jsonl"));
    let mut out = BufWriter::with_capacity(1 << 22, std::fs::File::create(&path).unwrap());
    let stamp = "2026-01-02T08:00:00.000Z";
    let mut ordinal = 0u64;
    let meta = vec![(
        "session_meta",
        json!({"id": id, "timestamp": stamp, "cwd": "/work", "originator": "codex_cli_rs",
               "cli_version": "0.169.0", "source": "cli", "model_provider": "openai",
               "history_mode": if paginated { "paginated" } else { "legacy" }}),
    )];
    let mut written = write_records(&mut out, meta, paginated, &mut ordinal);
    let output = "o".repeat(100_000);
    let mut turn = 0u64;
    while written < target {
        turn += 1;
        let records = turn_records(id, turn, paginated, &output);
        written += write_records(&mut out, records, paginated, &mut ordinal);
    }
    out.flush().unwrap();
    Written {
        id: id.to_owned(),
        path,
        turns: turn,
        lines: ordinal,
    }
}

/// Our server over `home`, on standard input and output.
fn ours(home: &Path) -> AppServer {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codex-thread"));
    command
        .args(["serve", "--listen", "stdio://", "--home"])
        .arg(home);
    AppServer::start_command(command, home).unwrap()
}

/// Calls `method` and how long the answer took.
fn timed(server: &mut AppServer, method: &str, params: Value) -> (Value, Duration) {
    let started = Instant::now();
    let answer = server
        .call_with_timeout(method, params, Duration::from_secs(3600))
        .unwrap_or_else(|error| panic!("{method}: {error}"));
    (answer, started.elapsed())
}

/// The server's peak resident memory so far, in MiB.
fn peak_mib(server: &AppServer) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{}/status", server.pid())).unwrap();
    let kib: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|number| number.parse().ok())
        .unwrap();
    kib / 1024.0
}

fn seconds(took: Duration) -> String {
    format!("{:.3}s", took.as_secs_f64())
}

/// The picker's requests on a home of many sessions, to one server; a row of the table.
fn list_pages(name: &str, server: &mut AppServer) {
    let first = json!({"limit": 25, "sourceKinds": ["cli", "vscode"]});
    let (page, took_first) = timed(server, "thread/list", first.clone());
    let mut cursor = page["nextCursor"].clone();
    let mut took_next = Duration::ZERO;
    for _ in 0..3 {
        let mut params = first.clone();
        params["cursor"] = cursor;
        let (page, took) = timed(server, "thread/list", params);
        took_next += took;
        cursor = page["nextCursor"].clone();
    }
    let by_update = json!({"limit": 25, "sourceKinds": ["cli", "vscode"], "sortKey": "updated_at"});
    let (_, took_update) = timed(server, "thread/list", by_update);
    let (_, took_again) = timed(server, "thread/list", first);
    eprintln!(
        "{name}: first page {}, next 3 pages {}, by update {}, first page again {}, peak {:.0} MiB",
        seconds(took_first),
        seconds(took_next),
        seconds(took_update),
        seconds(took_again),
        peak_mib(server)
    );
}

fn main() {
    if !codex_test_support::under_cargo_bench("serve") {
        return;
    }
    let Some(codex) = real_codex_or_skip("serve bench") else {
        return;
    };
    let mib = env_or("CODEX_SERVE_BENCH_SESSION_MIB", 1024);
    if std::env::var("CODEX_SERVE_BENCH_ONLY").is_ok_and(|only| only == "shapes") {
        open_shapes(env_or("CODEX_SERVE_BENCH_SHAPES_MIB", mib));
        return;
    }
    let sessions = env_or("CODEX_SERVE_BENCH_SESSIONS", 100_000);
    let home = work_dir("serve-bench-home");
    let started = Instant::now();
    write_home(&home, sessions);
    eprintln!(
        "{sessions} sessions written in {}",
        seconds(started.elapsed())
    );
    list_pages("codex-thread serve", &mut ours(&home));
    // Codex's server reads the home into its state database before it answers `initialize`.
    let mut command = codex.command();
    command.arg("app-server");
    let started = Instant::now();
    let mut theirs =
        AppServer::start_command_within(command, &home, Duration::from_secs(3600)).unwrap();
    eprintln!(
        "codex app-server: initialize {}",
        seconds(started.elapsed())
    );
    list_pages("codex app-server", &mut theirs);
    drop(theirs);
    std::fs::remove_dir_all(&home).unwrap();

    open_session(mib, true);
    open_session(mib, false);
    open_shapes(env_or("CODEX_SERVE_BENCH_SHAPES_MIB", mib));
}

/// Paginated files of every named shape, `mib` MiB each, opened as the TUI opens them; a row
/// each.
fn open_shapes(mib: u64) {
    let lines = generate::real_paginated_lines()
        .expect("the real fixtures (../shared/fixtures/real) hold the paginated lines");
    let meta: Value = serde_json::from_slice(&lines.meta).unwrap();
    let id = meta["payload"]["id"].as_str().unwrap().to_owned();
    let without_rollbacks = lines.without_rollbacks();
    for (name, shape, real_rollbacks) in generate::named_shapes(mib * MIB) {
        if shape.real_compactions && lines.compaction.is_none() {
            // Paginated files came after compactions carried their window (0.146).
            eprintln!("{mib} MiB paginated {name}: no such paginated file (none lacks a window)");
            continue;
        }
        let home = work_dir("serve-bench-shape");
        let dir = home.join("sessions/2026/01/01");
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(format!("rollout-2026-01-01T00-00-00-{id}.jsonl"));
        let source = if real_rollbacks {
            &lines
        } else {
            &without_rollbacks
        };
        generate::write_rollout(&path, source, &shape).unwrap();
        let parse = baseline::time_value_parse(&path);
        let mut server = ours(&home);
        let pages = [
            (
                "thread/resume",
                json!({"threadId": id, "excludeTurns": true}),
            ),
            (
                "thread/turns/list",
                json!({"threadId": id, "limit": 5, "sortDirection": "desc",
                       "itemsView": "notLoaded", "cursor": "turns:end:incl"}),
            ),
            (
                "thread/items/list",
                json!({"threadId": id, "limit": 100, "sortDirection": "desc",
                       "cursor": "items:end:incl"}),
            ),
            (
                "thread/turns/list",
                json!({"threadId": id, "limit": 5, "sortDirection": "desc",
                       "cursor": "turns:end-100"}),
            ),
        ];
        let (answers, took): (Vec<Value>, Vec<Duration>) = pages
            .into_iter()
            .map(|(method, params)| timed(&mut server, method, params))
            .unzip();
        let count = |answer: &Value| answer["data"].as_array().map_or(0, Vec::len);
        let paged_peak = peak_mib(&server);
        let (read, whole) = timed(
            &mut server,
            "thread/read",
            json!({"threadId": id, "includeTurns": true}),
        );
        let whole_turns = read["thread"]["turns"].as_array().map_or(0, Vec::len);
        let ratio = |took: Duration| took.as_secs_f64() / parse.as_secs_f64();
        eprintln!(
            "{mib} MiB paginated {name} (Value parse {}): resume {} ({:.4}x), last 5 turns {} \
             ({:.4}x, {} turns), last 100 items {} ({:.4}x, {} items), 5 turns 100 back {} \
             ({:.4}x, {} turns), peak {:.0} MiB; thread/read with turns {} ({:.4}x, {} turns), \
             peak {:.0} MiB",
            seconds(parse),
            seconds(took[0]),
            ratio(took[0]),
            seconds(took[1]),
            ratio(took[1]),
            count(&answers[1]),
            seconds(took[2]),
            ratio(took[2]),
            count(&answers[2]),
            seconds(took[3]),
            ratio(took[3]),
            count(&answers[3]),
            paged_peak,
            seconds(whole),
            ratio(whole),
            whole_turns,
            peak_mib(&server)
        );
        drop(server);
        std::fs::remove_dir_all(&home).unwrap();
    }
}

/// A session of `mib` MiB (paginated or legacy) opened as the TUI opens it; a row.
fn open_session(mib: u64, paginated: bool) {
    let kind = if paginated { "paginated" } else { "legacy" };
    let home = work_dir("serve-bench-session");
    let written = write_session(&home, mib * MIB, paginated);
    let id = written.id.clone();
    let files = codex_home::all_rollout_files(&codex_rollout::CodexHome::new(&home)).unwrap();
    let parse = baseline::time_value_parse(&files[0].path);
    let mut server = ours(&home);
    let (_, resume) = timed(
        &mut server,
        "thread/resume",
        json!({"threadId": id, "excludeTurns": true}),
    );
    let (turns, last_turns) = timed(
        &mut server,
        "thread/turns/list",
        json!({"threadId": id, "limit": 5, "sortDirection": "desc", "itemsView": "notLoaded",
               "cursor": "turns:end:incl"}),
    );
    let (_, last_items) = timed(
        &mut server,
        "thread/items/list",
        json!({"threadId": id, "limit": 100, "sortDirection": "desc", "cursor": "items:end:incl"}),
    );
    let (_, back) = timed(
        &mut server,
        "thread/turns/list",
        json!({"threadId": id, "limit": 5, "sortDirection": "desc", "cursor": "turns:end-100"}),
    );
    assert_eq!(turns["data"].as_array().map(Vec::len), Some(5));
    let paged_peak = peak_mib(&server);
    // Live follow: the resume subscribed; Codex appends a turn; its `turn/completed` comes
    // once the server has replayed the file as it was (in the background) and read the turn.
    let appended = Instant::now();
    let mut file = std::fs::OpenOptions::new()
        .append(true)
        .open(&written.path)
        .unwrap();
    let mut ordinal = written.lines;
    let records = turn_records(&id, written.turns + 1, paginated, "a short output");
    write_records(&mut file, records, paginated, &mut ordinal);
    drop(file);
    let completed = server
        .wait_for_notification("turn/completed", Duration::from_secs(3600))
        .unwrap();
    let follow = appended.elapsed();
    assert_eq!(
        completed["params"]["turn"]["id"],
        format!("turn-{}", written.turns + 1)
    );
    let follow_peak = peak_mib(&server);
    let (_, whole) = timed(
        &mut server,
        "thread/read",
        json!({"threadId": id, "includeTurns": true}),
    );
    let ratio = |took: Duration| took.as_secs_f64() / parse.as_secs_f64();
    eprintln!(
        "{mib} MiB {kind} session (Value parse {}): resume {} ({:.4}x), last 5 turns {} ({:.4}x), \
         last 100 items {} ({:.4}x), 5 turns 100 back {} ({:.4}x), peak {:.0} MiB; \
         a turn appended after the resume notified in {} ({:.4}x), peak {:.0} MiB; \
         the whole thread (thread/read with turns) {} ({:.4}x), peak {:.0} MiB",
        seconds(parse),
        seconds(resume),
        ratio(resume),
        seconds(last_turns),
        ratio(last_turns),
        seconds(last_items),
        ratio(last_items),
        seconds(back),
        ratio(back),
        paged_peak,
        seconds(follow),
        ratio(follow),
        follow_peak,
        seconds(whole),
        ratio(whole),
        peak_mib(&server)
    );
    drop(server);
    std::fs::remove_dir_all(&home).unwrap();
}
