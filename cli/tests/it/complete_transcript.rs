//! The complete transcript is one picture: on the sample and every real file, `export --json`
//! is `thread --json --complete` byte for byte; the commands `view` shows (plain) and the
//! commands the Markdown export shows are those of that thread, in order; and the 0.145
//! legacy-mode session, whose commands Codex's own `thread/read` does not show, shows its 70
//! `exec_command` calls with their outputs in all of them.

use crate::common;

use std::path::{Path, PathBuf};

use common::{TestResult, bin, name, real_files};

/// The 0.145 session in legacy history mode (README of the fixtures).
const LEGACY_0145: &str = "seokhyeonhong__motion-jepa__rollout-2026-07-26T06-37-23-019f9b36-1e6d-7651-9801-5450483871e2.jsonl";

fn stdout(args: &[&str], file: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let output = bin()?.args(args).arg(file).output()?;
    assert!(
        output.status.success(),
        "{args:?} {}: {}",
        file.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Ok(String::from_utf8(output.stdout)?)
}

/// The commands of a thread's JSON, in order: the first line of each command and whether it
/// has an output.
fn commands(thread: &serde_json::Value) -> Vec<(String, bool)> {
    thread["turns"]
        .as_array()
        .into_iter()
        .flatten()
        .flat_map(|turn| turn["items"].as_array().into_iter().flatten())
        .filter(|item| item["type"] == "commandExecution")
        .map(|item| {
            let command = item["command"].as_str().unwrap_or_default();
            let first = command.lines().next().unwrap_or_default().to_string();
            (first, !item["aggregatedOutput"].is_null())
        })
        .collect()
}

fn check(file: &Path) -> Result<usize, Box<dyn std::error::Error>> {
    let export = stdout(&["--json", "export"], file)?;
    let thread = stdout(&["--json", "thread", "--complete"], file)?;
    assert_eq!(export, thread, "{}: export --json", name(file));
    let thread: serde_json::Value = serde_json::from_str(&thread)?;
    let expected: Vec<String> = commands(&thread)
        .into_iter()
        .map(|(line, _)| line)
        .collect();
    let view = stdout(&["view", "--plain", "--expand"], file)?;
    let shown: Vec<String> = view
        .lines()
        .filter_map(|line| line.strip_prefix("$ "))
        .map(str::to_string)
        .collect();
    // A command of several lines is one line in the view, its line breaks shown escaped.
    let same = shown.len() == expected.len()
        && shown
            .iter()
            .zip(&expected)
            .all(|(shown, expected)| shown.starts_with(expected.as_str()));
    assert!(
        same,
        "{}: view's commands\n{shown:#?}\n{expected:#?}",
        name(file)
    );
    let markdown = stdout(&["export"], file)?;
    assert_eq!(
        markdown.matches("\n**Command** ").count(),
        expected.len(),
        "{}: the Markdown export's commands",
        name(file)
    );
    Ok(expected.len())
}

#[test]
fn every_view_shows_the_threads_complete_transcript() -> TestResult {
    let sample = PathBuf::from(common::view::SAMPLE);
    assert!(check(&sample)? > 0, "the sample runs commands");
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let mut legacy_seen = false;
    for file in &files {
        let count = check(file)?;
        if name(file) == LEGACY_0145 {
            legacy_seen = true;
            assert_eq!(count, 70, "the 0.145 session's exec_command calls");
            let thread: serde_json::Value =
                serde_json::from_str(&stdout(&["--json", "export"], file)?)?;
            assert!(
                commands(&thread).iter().all(|(_, output)| *output),
                "every command of the 0.145 session has its output"
            );
        }
    }
    assert!(legacy_seen, "{LEGACY_0145} is among the real files");
    Ok(())
}
