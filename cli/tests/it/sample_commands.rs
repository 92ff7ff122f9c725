//! Every command on the bundled sample (no FILE argument), in both output modes.

use crate::common;

use std::collections::BTreeSet;

use codex_protocol::models::ResponseItem;
use common::{
    MessageSchemas, SAMPLE_THREAD_ID, TestResult, bin, json_lines, schema, stdout_of, violations,
};
use predicates::prelude::*;

const SAMPLE_NOTE: &str = "using the bundled sample session";

#[test]
fn no_arguments_inspects_the_bundled_sample_and_says_so() -> TestResult {
    bin()?
        .assert()
        .success()
        .stdout(predicate::str::contains(SAMPLE_THREAD_ID))
        .stdout(predicate::str::contains("turns         4"))
        .stderr(predicate::str::contains(SAMPLE_NOTE));
    Ok(())
}

#[test]
fn inspect_json_has_exactly_the_documented_keys() -> TestResult {
    let value: serde_json::Value = serde_json::from_str(&stdout_of(&["inspect", "--json"])?)?;
    let keys: BTreeSet<&str> = value
        .as_object()
        .ok_or("not an object")?
        .keys()
        .map(String::as_str)
        .collect();
    let expected: BTreeSet<&str> = [
        "file",
        "thread_id",
        "cli_version",
        "lines",
        "problems",
        "line_types",
        "item_types",
        "turns",
        "user_messages",
        "tool_calls",
        "unanswered_calls",
        "tokens",
        "compactions",
        "rollbacks",
        "history_mode",
        "copied_from_parent",
        "history_base",
    ]
    .into_iter()
    .collect();
    assert_eq!(keys, expected);
    assert_eq!(value["thread_id"], SAMPLE_THREAD_ID);
    let lines = codex_thread::sample::SAMPLE_JSONL.lines().count();
    assert_eq!(value["lines"], lines);
    assert_eq!(value["problems"], serde_json::json!([]));
    assert_eq!(value["user_messages"], 4, "five messages, one rolled back");
    assert_eq!(value["turns"], 4, "the thread's turns");
    assert_eq!(
        value["tool_calls"],
        serde_json::json!({"apply_patch": 1, "shell": 5})
    );
    assert_eq!(value["unanswered_calls"][0]["call_id"], "call_tests");
    assert_eq!(value["tokens"]["total"], 29_453);
    assert_eq!(value["rollbacks"], 1);
    assert_eq!(value["compactions"], 0);
    Ok(())
}

#[test]
fn human_output_fits_80_columns() -> TestResult {
    for args in [
        vec!["inspect"],
        vec!["thread"],
        vec!["validate"],
        vec!["export"],
    ] {
        let text = stdout_of(&args)?;
        for line in text.lines() {
            // Code blocks of the transcript carry tool output verbatim; the rest must fit.
            if args[0] == "export" {
                continue;
            }
            assert!(
                line.chars().count() <= 80,
                "{args:?}: line too wide: {line}"
            );
        }
    }
    Ok(())
}

#[test]
fn validate_sample_reads_every_line() -> TestResult {
    bin()?
        .arg("validate")
        .assert()
        .success()
        .stdout(predicate::str::contains(format!(
            "{} line(s), every line read",
            codex_thread::sample::SAMPLE_JSONL.lines().count()
        )));
    let reports = json_lines(&stdout_of(&["validate", "--json"])?)?;
    assert_eq!(reports.len(), 1);
    assert_eq!(
        reports[0]["lines"],
        codex_thread::sample::SAMPLE_JSONL.lines().count()
    );
    assert_eq!(reports[0]["problems"], serde_json::json!([]));
    Ok(())
}

#[test]
fn history_is_the_rolled_back_model_history() -> TestResult {
    let lines = json_lines(&stdout_of(&["history"])?)?;
    let items: Vec<ResponseItem> = lines
        .into_iter()
        .map(serde_json::from_value)
        .collect::<Result<_, _>>()?;
    let texts: Vec<String> = items
        .iter()
        .filter(|item| item.role() == Some("user"))
        .filter_map(|item| item.message_content()?.first()?.text().map(str::to_string))
        .collect();
    assert!(
        texts
            .iter()
            .any(|text| text.contains("Only run the parser"))
    );
    assert!(
        !texts
            .iter()
            .any(|text| text.contains("delete the tests folder")),
        "the rolled-back turn must not be in history: {texts:#?}"
    );
    // The interrupted call stays in history without an output.
    assert!(
        items
            .iter()
            .any(|item| item.call_id() == Some("call_tests"))
    );
    assert!(!items.iter().any(|item| item.call_id() == Some("call_rm")));
    Ok(())
}

#[test]
fn prompt_answers_the_interrupted_call_and_lite_moves_instructions_into_input() -> TestResult {
    let normal: serde_json::Value = serde_json::from_str(&stdout_of(&["prompt", "--json"])?)?;
    assert_eq!(normal["model"], "gpt-5-codex");
    // As Codex 0.169 sends it: no `instructions` field, the base instructions first in input.
    assert!(normal.get("instructions").is_none());
    let input = normal["input"].as_array().ok_or("no input")?;
    assert_eq!(input[0]["role"], "developer");
    assert!(
        input[0]["content"][0]["text"]
            .as_str()
            .is_some_and(|text| text.starts_with("You are Codex"))
    );
    assert_eq!(normal["prompt_cache_key"], SAMPLE_THREAD_ID);
    let aborted = input
        .iter()
        .find(|item| item["type"] == "function_call_output" && item["call_id"] == "call_tests")
        .ok_or("no synthesized output for the interrupted call")?;
    assert_eq!(aborted["output"], "aborted");

    let lite: serde_json::Value =
        serde_json::from_str(&stdout_of(&["prompt", "--lite", "--json"])?)?;
    assert!(
        lite.get("instructions")
            .is_none_or(|value| value.is_null() || value == "")
    );
    let first = &lite["input"][0];
    assert_eq!(first["type"], "additional_tools");
    assert_eq!(lite["input"][1]["role"], "developer");
    Ok(())
}

#[test]
fn thread_json_is_a_schema_valid_thread_with_four_turns() -> TestResult {
    let thread: serde_json::Value = serde_json::from_str(&stdout_of(&["thread", "--json"])?)?;
    let errors = violations(&schema("v2/Thread.json")?, &thread);
    assert!(errors.is_empty(), "{errors:#?}");
    let turns = thread["turns"].as_array().ok_or("no turns")?;
    let statuses: Vec<&str> = turns
        .iter()
        .filter_map(|turn| turn["status"].as_str())
        .collect();
    assert_eq!(
        statuses,
        ["completed", "completed", "interrupted", "completed"]
    );
    Ok(())
}

#[test]
fn notifications_validate_against_the_generated_schema() -> TestResult {
    let schemas = MessageSchemas::load()?;
    let lines = json_lines(&stdout_of(&["notifications"])?)?;
    assert_eq!(lines[0]["method"], "thread/started");
    let mut methods = BTreeSet::new();
    for line in &lines {
        let errors = schemas.violations(line);
        assert!(errors.is_empty(), "{line}: {errors:#?}");
        methods.insert(line["method"].as_str().unwrap_or_default().to_string());
    }
    for method in [
        "turn/started",
        "turn/completed",
        "item/started",
        "item/completed",
        "thread/tokenUsage/updated",
    ] {
        assert!(methods.contains(method), "no {method} in {methods:?}");
    }
    // Same output twice: the replay is reproducible.
    assert_eq!(
        stdout_of(&["notifications"])?,
        stdout_of(&["notifications"])?
    );
    Ok(())
}

#[test]
fn export_markdown_shows_the_threads_turns_with_their_calls_and_markers() -> TestResult {
    let markdown = stdout_of(&["export", "--format", "markdown"])?;
    assert!(markdown.starts_with(&format!("# Codex session `{SAMPLE_THREAD_ID}`")));
    assert_eq!(markdown.matches("\n## Turn ").count(), 4);
    assert!(markdown.contains("**Patch** (completed)"));
    assert!(markdown.contains("`src/main.rs` (update)"));
    assert!(markdown.contains("**Command** `bash -lc 'cargo test parser::'`"));
    assert!(markdown.contains("test result: ok. 6 passed"));
    assert!(markdown.contains("_Turn interrupted"));
    assert!(markdown.contains("_Reasoning:_ Listing the repository before answering"));
    // The rolled-back turn is gone, as from the thread; a marker says where it was.
    assert!(!markdown.contains("delete the tests folder"));
    assert!(markdown.contains("_Rolled back 1 turn\\(s\\)._"));
    let thread: serde_json::Value = serde_json::from_str(&stdout_of(&["export", "--json"])?)?;
    assert_eq!(thread["id"], SAMPLE_THREAD_ID);
    assert_eq!(thread["turns"].as_array().map(Vec::len), Some(4));
    Ok(())
}

#[test]
fn fork_drops_turns_and_the_fork_loads_with_fewer_turns() -> TestResult {
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("fork.jsonl");
    let out_text = out.to_string_lossy().into_owned();
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "fork",
        "--drop-turns",
        "2",
        "-o",
        &out_text,
        "--json",
    ])?)?;
    assert_eq!(report["user_messages_before"], 4);
    assert_eq!(report["user_messages_after"], 2);
    assert_eq!(report["forked_from_id"], SAMPLE_THREAD_ID);
    let inspected: serde_json::Value =
        serde_json::from_str(&stdout_of(&["inspect", "--json", &out_text])?)?;
    assert_eq!(inspected["user_messages"], 2);
    assert_eq!(inspected["problems"], serde_json::json!([]));
    assert_eq!(inspected["thread_id"], report["thread_id"]);
    // Kept lines are byte for byte the sample's, except the session meta line.
    let fork = std::fs::read_to_string(&out)?;
    let sample = codex_thread::sample::SAMPLE_JSONL;
    let mut fork_lines = fork.lines();
    let mut sample_lines = sample.lines();
    assert_ne!(fork_lines.next(), sample_lines.next());
    for (kept, original) in fork_lines.zip(sample_lines) {
        assert_eq!(kept, original);
    }
    // A fork never overwrites.
    bin()?
        .args(["fork", "--drop-turns", "1", "-o", &out_text])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("already exists"));
    // A destination that cannot be created (its folder is a file) is exit 2, naming it.
    let blocked = format!("{out_text}/inside.jsonl");
    bin()?
        .args(["fork", "--drop-turns", "1", "-o", &blocked])
        .assert()
        .code(2)
        .stderr(
            predicate::str::contains("inside.jsonl")
                .or(predicate::str::contains(out_text.as_str())),
        );
    Ok(())
}

#[test]
fn stdin_dash_reads_the_same_session() -> TestResult {
    let from_stdin = bin()?
        .args(["inspect", "--json", "-"])
        .write_stdin(codex_thread::sample::SAMPLE_JSONL)
        .output()?;
    assert!(from_stdin.status.success());
    let value: serde_json::Value = serde_json::from_slice(&from_stdin.stdout)?;
    assert_eq!(value["thread_id"], SAMPLE_THREAD_ID);
    assert!(!String::from_utf8_lossy(&from_stdin.stderr).contains(SAMPLE_NOTE));
    Ok(())
}

#[test]
fn list_pages_through_a_home_newest_first() -> TestResult {
    let home = tempfile::tempdir()?;
    let day = home.path().join("sessions/2025/06/02");
    std::fs::create_dir_all(&day)?;
    std::fs::write(
        day.join(format!(
            "rollout-2025-06-02T09-00-00-{SAMPLE_THREAD_ID}.jsonl"
        )),
        codex_thread::sample::SAMPLE_JSONL,
    )?;
    // A fork of it, a few seconds newer in the layout.
    let home_text = home.path().to_string_lossy().into_owned();
    let fork_path =
        day.join("rollout-2025-06-02T09-30-00-0197a2c4-5e00-7000-8000-0000000000ff.jsonl");
    stdout_of(&[
        "fork",
        "--drop-turns",
        "1",
        "-o",
        &fork_path.to_string_lossy(),
    ])?;
    let first: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "list", "--home", &home_text, "--limit", "1", "--json",
    ])?)?;
    assert_eq!(first["sessions"].as_array().map(Vec::len), Some(1));
    assert!(
        first["sessions"][0]["path"]
            .as_str()
            .is_some_and(|path| path.contains("T09-30-00"))
    );
    assert_eq!(
        first["sessions"][0]["preview"],
        "What does this project build with? List the files first."
    );
    let cursor = first["next_cursor"]
        .as_str()
        .ok_or("no next page")?
        .to_string();
    let second: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "list", "--home", &home_text, "--limit", "1", "--cursor", &cursor, "--json",
    ])?)?;
    assert_eq!(second["sessions"][0]["thread_id"], SAMPLE_THREAD_ID);
    assert!(second["next_cursor"].is_null());
    let human = stdout_of(&["list", "--home", &home_text])?;
    assert!(human.contains(SAMPLE_THREAD_ID));
    Ok(())
}

#[test]
fn list_archived_shows_the_archived_sessions_and_compressed_ones() -> TestResult {
    let home = tempfile::tempdir()?;
    let archived = home.path().join("archived_sessions");
    std::fs::create_dir_all(&archived)?;
    let name = format!("rollout-2025-06-02T09-00-00-{SAMPLE_THREAD_ID}.jsonl.zst");
    std::fs::write(
        archived.join(name),
        zstd::encode_all(codex_thread::sample::SAMPLE_JSONL.as_bytes(), 3)?,
    )?;
    let home_text = home.path().to_string_lossy().into_owned();
    let live: serde_json::Value =
        serde_json::from_str(&stdout_of(&["list", "--home", &home_text, "--json"])?)?;
    assert_eq!(live["sessions"], serde_json::json!([]));
    let listed: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "list",
        "--archived",
        "--home",
        &home_text,
        "--json",
    ])?)?;
    assert_eq!(listed["sessions"][0]["thread_id"], SAMPLE_THREAD_ID);
    assert_eq!(
        listed["sessions"][0]["preview"],
        "What does this project build with? List the files first."
    );
    Ok(())
}

#[test]
fn list_refuses_a_zero_limit_and_its_hint_continues_the_same_listing() -> TestResult {
    let home = tempfile::tempdir()?;
    let day = home.path().join("sessions/2025/06/02");
    std::fs::create_dir_all(&day)?;
    for (time, thread) in [
        ("09-00-00", SAMPLE_THREAD_ID),
        ("09-30-00", "0197a2c4-5e00-7000-8000-0000000000ff"),
    ] {
        std::fs::write(
            day.join(format!("rollout-2025-06-02T{time}-{thread}.jsonl")),
            codex_thread::sample::SAMPLE_JSONL,
        )?;
    }
    let home_text = home.path().to_string_lossy().into_owned();
    bin()?
        .args(["list", "--home", &home_text, "--limit", "0"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--limit must be at least 1"));
    let human = stdout_of(&["list", "--home", &home_text, "--limit", "1"])?;
    let hint = human
        .lines()
        .find_map(|line| line.strip_prefix("more: "))
        .ok_or("no hint")?;
    assert!(hint.contains(&format!("--home '{home_text}'")), "{hint}");
    assert!(hint.contains("--limit 1"), "{hint}");
    let json: serde_json::Value =
        serde_json::from_str(&stdout_of(&["list", "--home", &home_text, "--json"])?)?;
    let created = json["sessions"][0]["created_at"]
        .as_str()
        .ok_or("no time")?;
    // The newest file by name (09:30) holds the sample, whose session meta says when it was
    // created, in UTC: that time, not the name's local one.
    assert_eq!(created, "2025-06-02T09:00:00.000Z");
    assert!(chrono::DateTime::parse_from_rfc3339(created).is_ok());
    Ok(())
}
