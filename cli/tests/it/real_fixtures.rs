//! Every command on every real Codex session file in `../shared/fixtures/real/`.
//!
//! - `validate` reads every line of every capture (no problem line; the shape catalogue,
//!   whose values were trimmed, is the only file allowed problems);
//! - `inspect --json` gives `user_turns` equal to the number of `user_message` events for the
//!   files that record them (counted here independently, line by line);
//! - `fork --drop-turns 1` output loads and has one user turn fewer;
//! - `notifications` output validates against the generated JSON Schema;
//! - `history`, `prompt`, `thread` and `export` succeed, and their JSON is well formed.
//!
//! The folder is absent outside the project's machines: the tests then say loudly that they
//! skipped, unless `CODEX_REQUIRE_REAL_FIXTURES=1`, where a missing folder fails.

use crate::common;

use std::path::Path;

use common::{
    MessageSchemas, TestResult, bin, is_catalogue, json_lines, name, real_files, schema, stdout_of,
    user_message_events, violations,
};

fn path_arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

#[test]
fn validate_reads_every_line_of_every_real_file() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    for file in &files {
        let output = bin()?
            .args(["validate", "--json", &path_arg(file)])
            .output()?;
        let report: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        let problems = report["problems"].as_array().ok_or("no problems array")?;
        if is_catalogue(file) {
            assert_eq!(
                output.status.code(),
                Some(if problems.is_empty() { 0 } else { 1 })
            );
            continue;
        }
        assert!(problems.is_empty(), "{}: {problems:#?}", name(file));
        assert_eq!(output.status.code(), Some(0), "{}", name(file));
        let lines = std::fs::read_to_string(file)?.lines().count();
        assert_eq!(report["lines"], lines, "{}", name(file));
    }
    // All at once: one JSON object per file, worst exit code.
    let args: Vec<String> = files.iter().map(|file| path_arg(file)).collect();
    let output = bin()?.arg("validate").arg("--json").args(&args).output()?;
    assert_eq!(
        json_lines(&String::from_utf8(output.stdout)?)?.len(),
        files.len()
    );
    Ok(())
}

#[test]
fn inspect_user_turns_equal_user_message_events() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    for file in &files {
        let value: serde_json::Value =
            serde_json::from_str(&stdout_of(&["inspect", "--json", &path_arg(file)])?)?;
        let events = user_message_events(file)?;
        if let Some(events) = events.filter(|events| *events > 0) {
            assert_eq!(value["user_messages"], events, "{}", name(file));
        }
        assert!(value["lines"].as_u64().is_some_and(|lines| lines > 0));
        if !is_catalogue(file) {
            assert_eq!(value["problems"], serde_json::json!([]), "{}", name(file));
        }
    }
    Ok(())
}

#[test]
fn fork_output_loads_and_has_one_turn_fewer() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let mut forked = 0;
    for file in files.iter().filter(|file| !is_catalogue(file)) {
        let before: serde_json::Value =
            serde_json::from_str(&stdout_of(&["inspect", "--json", &path_arg(file)])?)?;
        let turns = before["user_messages"].as_u64().ok_or("no user_messages")?;
        let out = dir.path().join(name(file));
        let output = bin()?
            .args([
                "fork",
                "--drop-turns",
                "1",
                "-o",
                &path_arg(&out),
                &path_arg(file),
            ])
            .output()?;
        let stderr = String::from_utf8_lossy(&output.stderr);
        if before["thread_id"].is_null() || turns == 0 {
            assert_eq!(output.status.code(), Some(1), "{}: {stderr}", name(file));
            continue;
        }
        assert!(output.status.success(), "{}: {stderr}", name(file));
        let after: serde_json::Value =
            serde_json::from_str(&stdout_of(&["inspect", "--json", &path_arg(&out)])?)?;
        assert_eq!(after["user_messages"], turns - 1, "{}", name(file));
        assert_eq!(after["problems"], serde_json::json!([]), "{}", name(file));
        assert_ne!(after["thread_id"], before["thread_id"]);
        forked += 1;
    }
    assert!(forked >= 5, "only {forked} real files could be forked");
    Ok(())
}

/// The codemie capture's author removed the user messages' response items: only their
/// `user_message` events are left, so the fork cuts before the event of the dropped turn.
#[test]
fn fork_cuts_before_the_event_when_the_user_message_item_was_removed() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let file = files
        .iter()
        .find(|file| name(file).starts_with("codemie-ai__"))
        .ok_or("the codemie capture is missing")?;
    let source = std::fs::read(file)?;
    let dir = tempfile::tempdir()?;
    for (drop, kept_lines) in [(1, 32), (2, 30), (3, 1)] {
        let out = dir.path().join(format!("fork-{drop}.jsonl"));
        let report: serde_json::Value = serde_json::from_str(&stdout_of(&[
            "--json",
            "fork",
            "--drop-turns",
            &drop.to_string(),
            "-o",
            &path_arg(&out),
            &path_arg(file),
        ])?)?;
        assert_eq!(report["user_messages_before"], 3);
        assert_eq!(report["user_messages_after"], 3 - drop);
        assert_eq!(report["lines_written"], kept_lines, "drop {drop}");
        let forked = std::fs::read(&out)?;
        // Every kept line but the meta line is the source's, byte for byte.
        let source_lines: Vec<&[u8]> = source.split(|&b| b == b'\n').collect();
        let forked_lines: Vec<&[u8]> = forked.split(|&b| b == b'\n').collect();
        assert_eq!(forked_lines[1..kept_lines], source_lines[1..kept_lines]);
        let after: serde_json::Value =
            serde_json::from_str(&stdout_of(&["inspect", "--json", &path_arg(&out)])?)?;
        assert_eq!(after["user_messages"], 3 - drop);
        assert_eq!(after["problems"], serde_json::json!([]));
    }
    Ok(())
}

/// Human output is readable at 80 columns on real files: every line fits, except a line
/// that names the input file (the path is the caller's, shown as given). The Markdown
/// transcript is exempt: it keeps messages and tool output verbatim.
#[test]
fn human_output_of_real_files_fits_80_columns() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    for file in &files {
        let path = path_arg(file);
        for command in ["inspect", "thread", "validate"] {
            let output = bin()?.args([command, &path]).output()?;
            for line in String::from_utf8(output.stdout)?.lines() {
                if line.contains(&path) {
                    continue;
                }
                assert!(
                    line.chars().count() <= 80,
                    "{command} {}: line too wide: {line}",
                    name(file)
                );
            }
        }
    }
    Ok(())
}

#[test]
fn notifications_of_real_files_validate_against_the_schema() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let schemas = MessageSchemas::load()?;
    for file in &files {
        let lines = json_lines(&stdout_of(&["notifications", &path_arg(file)])?)?;
        for line in &lines {
            let errors = schemas.violations(line);
            assert!(errors.is_empty(), "{}: {line}: {errors:#?}", name(file));
        }
        if !is_catalogue(file) && user_message_events(file)?.is_some_and(|events| events > 0) {
            assert!(
                lines.iter().any(|line| line["method"] == "item/completed"),
                "{}: no item notifications",
                name(file)
            );
        }
    }
    Ok(())
}

#[test]
fn history_prompt_thread_and_export_work_on_every_real_file() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let thread_schema = schema("v2/Thread.json")?;
    for file in &files {
        let arg = path_arg(file);
        let history = json_lines(&stdout_of(&["history", &arg])?)?;
        for item in &history {
            assert!(item.get("type").is_some(), "{}: {item}", name(file));
        }
        for args in [
            vec!["prompt", "--json", &arg],
            vec!["prompt", "--lite", "--json", &arg],
        ] {
            let body: serde_json::Value = serde_json::from_str(&stdout_of(&args)?)?;
            assert!(body["input"].is_array(), "{}: {args:?}", name(file));
        }
        let text_only: serde_json::Value = serde_json::from_str(&stdout_of(&[
            "prompt",
            "--json",
            "--modalities",
            "text",
            &arg,
        ])?)?;
        assert!(
            !text_only.to_string().contains("\"input_image\""),
            "{}: images must be replaced for a text-only model",
            name(file)
        );
        let thread: serde_json::Value =
            serde_json::from_str(&stdout_of(&["thread", "--json", &arg])?)?;
        if thread.get("id").is_some() {
            let errors = violations(&thread_schema, &thread);
            assert!(errors.is_empty(), "{}: {errors:#?}", name(file));
        }
        stdout_of(&["thread", &arg])?;
        let markdown = stdout_of(&["export", &arg])?;
        assert!(markdown.starts_with("# Codex session"), "{}", name(file));
        let transcript: serde_json::Value =
            serde_json::from_str(&stdout_of(&["export", "--json", &arg])?)?;
        assert!(transcript["turns"].is_array());
        stdout_of(&["inspect", &arg])?;
    }
    Ok(())
}

/// The 0.144 sub-agent child names the parent whose meta and items it replayed, and the
/// lines it copied (its own meta is line 1; the parent's meta and first turn follow up to the
/// child's own first `task_started` on line 14); the parent copied nothing.
#[test]
fn inspect_names_the_parent_a_child_copied_from() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let find = |prefix: &str| files.iter().find(|file| name(file).starts_with(prefix));
    let (Some(child), Some(parent)) = (
        find("doudouqie66__CommonTools__rollout-2026-07-11T10-23-56"),
        find("doudouqie66__CommonTools__rollout-2026-07-11T10-22-29"),
    ) else {
        return Err("the 0.144 parent/child pair is missing from the fixtures".into());
    };
    let inspect = |file: &Path| -> Result<serde_json::Value, Box<dyn std::error::Error>> {
        Ok(serde_json::from_str(&stdout_of(&[
            "inspect",
            "--json",
            &path_arg(file),
        ])?)?)
    };
    let child = inspect(child)?;
    assert_eq!(
        child["copied_from_parent"],
        serde_json::json!({"thread_id": "019f4efb-ae76-7e30-b44e-3fa464c16193", "lines": [2, 13]})
    );
    assert_eq!(child["history_mode"], "legacy");
    // The parent repeats its own meta on resume (line 250): that is no copy.
    assert_eq!(
        inspect(parent)?["copied_from_parent"],
        serde_json::Value::Null
    );
    Ok(())
}
