//! Bad input: a missing file, a directory, a binary file, an empty file, a file of malformed
//! lines. Every command answers with a clear message naming the input and the right exit code
//! (2 unreadable, 1 content), and never panics.

use crate::common;

use std::path::{Path, PathBuf};

use common::{TestResult, bin};

/// Every command that reads one rollout, as arguments before the FILE.
fn commands(out_dir: &Path) -> Vec<Vec<String>> {
    let fork_out = out_dir
        .join("fork-out.jsonl")
        .to_string_lossy()
        .into_owned();
    [
        vec!["inspect"],
        vec!["inspect", "--json"],
        vec!["history"],
        vec!["prompt"],
        vec!["prompt", "--lite"],
        vec!["thread"],
        vec!["notifications"],
        vec!["export"],
        vec!["fork", "--drop-turns", "1", "-o", &fork_out],
    ]
    .into_iter()
    .map(|args| args.into_iter().map(str::to_string).collect())
    .collect()
}

struct Case {
    file: PathBuf,
    exit: i32,
    message: &'static str,
}

fn cases(dir: &Path) -> Result<Vec<Case>, Box<dyn std::error::Error>> {
    let binary = dir.join("binary.jsonl");
    let mut bytes: Vec<u8> = (0..=255u8).cycle().take(4096).collect();
    bytes.extend_from_slice(b"\x00\xff\xfe\n\x1b[2J\x00\n");
    std::fs::write(&binary, bytes)?;
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, b"")?;
    let malformed = dir.join("malformed.jsonl");
    std::fs::write(
        &malformed,
        "this is not json\n{\"timestamp\":\"2025-01-01T00:00:00Z\"}\n[1,2,3]\n{\"type\":\"event_msg\",\"payload\":{\n",
    )?;
    let folder = dir.join("a-directory.jsonl");
    std::fs::create_dir(&folder)?;
    Ok(vec![
        Case {
            file: dir.join("missing.jsonl"),
            exit: 2,
            message: "no such file",
        },
        Case {
            file: folder,
            exit: 2,
            message: "is a directory",
        },
        Case {
            file: binary,
            exit: 1,
            message: "no line could be read",
        },
        Case {
            file: empty,
            exit: 1,
            message: "is empty",
        },
        Case {
            file: malformed,
            exit: 1,
            message: "no line could be read",
        },
    ])
}

#[test]
fn every_command_names_the_bad_input_and_exits_with_the_right_code() -> TestResult {
    let dir = tempfile::tempdir()?;
    for case in cases(dir.path())? {
        let file = case.file.to_string_lossy().into_owned();
        for args in commands(dir.path()) {
            let output = bin()?.args(&args).arg(&file).output()?;
            let stderr = String::from_utf8_lossy(&output.stderr);
            assert_eq!(
                output.status.code(),
                Some(case.exit),
                "{args:?} {file}: {stderr}"
            );
            assert!(
                stderr.contains(&file),
                "{args:?}: message does not name {file}: {stderr}"
            );
            assert!(stderr.contains(case.message), "{args:?} {file}: {stderr}");
            assert!(!stderr.contains("panicked"), "{args:?} {file}: {stderr}");
            assert!(
                !stderr.contains('\u{1b}'),
                "raw escape on stderr: {stderr:?}"
            );
            assert!(
                output.stdout.is_empty(),
                "{args:?} {file}: output on failure"
            );
        }
    }
    Ok(())
}

#[test]
fn validate_reports_each_bad_file_with_its_exit_code() -> TestResult {
    let dir = tempfile::tempdir()?;
    for case in cases(dir.path())? {
        let file = case.file.to_string_lossy().into_owned();
        let output = bin()?.args(["validate", &file]).output()?;
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert_eq!(output.status.code(), Some(case.exit), "{file}: {stdout}");
        assert!(stdout.contains(&file), "{stdout}");
        assert!(
            !stdout.contains('\u{1b}'),
            "raw escape on stdout: {stdout:?}"
        );
        assert!(!String::from_utf8_lossy(&output.stderr).contains("panicked"));
    }
    // Malformed lines are listed one by one, with line numbers and causes.
    let malformed = dir
        .path()
        .join("malformed.jsonl")
        .to_string_lossy()
        .into_owned();
    let output = bin()?.args(["validate", "--json", &malformed]).output()?;
    assert_eq!(output.status.code(), Some(1));
    let report: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    let problems = report["problems"].as_array().ok_or("no problems")?;
    let lines: Vec<u64> = problems
        .iter()
        .filter_map(|problem| problem["line"].as_u64())
        .collect();
    assert_eq!(lines, [1, 2, 3, 4]);
    assert_eq!(problems[3]["kind"], "truncated");
    for problem in problems {
        assert!(
            problem["message"]
                .as_str()
                .is_some_and(|message| !message.is_empty())
        );
    }
    // Several files: the worst code wins, every file is reported.
    let missing = dir
        .path()
        .join("missing.jsonl")
        .to_string_lossy()
        .into_owned();
    let output = bin()?
        .args(["validate", "--json", &malformed, &missing])
        .output()?;
    assert_eq!(output.status.code(), Some(2));
    let reports = common::json_lines(&String::from_utf8(output.stdout)?)?;
    assert_eq!(reports.len(), 2);
    assert!(reports[1]["lines"].is_null());
    assert!(
        reports[1]["error"]
            .as_str()
            .is_some_and(|error| error.contains("no such file"))
    );
    Ok(())
}

#[test]
fn a_file_with_some_bad_lines_still_works_and_warns() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("partly-bad.jsonl");
    let mut text = String::from("garbage line\n");
    text.push_str(codex_thread::sample::SAMPLE_JSONL);
    text.push_str("{\"timestamp\":\"2025-06-02T09:09:09.000Z\",\"type\":\"event_msg\",\"payl");
    std::fs::write(&file, text)?;
    let path = file.to_string_lossy().into_owned();
    let output = bin()?.args(["inspect", "--json", &path]).output()?;
    assert!(output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("2 unreadable line(s)"), "{stderr}");
    let value: serde_json::Value = serde_json::from_slice(&output.stdout)?;
    assert_eq!(value["user_messages"], 4);
    let problem_lines: Vec<u64> = value["problems"]
        .as_array()
        .ok_or("no problems")?
        .iter()
        .filter_map(|problem| problem["line"].as_u64())
        .collect();
    // The garbage first line, and the torn line after the sample's own lines.
    let sample_lines = codex_thread::sample::SAMPLE_JSONL.lines().count() as u64;
    assert_eq!(problem_lines, [1, sample_lines + 2]);
    bin()?.args(["validate", &path]).assert().code(1);
    Ok(())
}

#[test]
fn usage_errors_exit_with_2() -> TestResult {
    bin()?.arg("no-such-command").assert().code(2);
    bin()?.args(["fork", "-o", "x.jsonl"]).assert().code(2);
    bin()?
        .args(["list", "--cursor", "nonsense", "--home", "."])
        .assert()
        .code(2);
    bin()?
        .args(["prompt", "--modalities", "smell"])
        .assert()
        .code(2);
    Ok(())
}

/// `validate` lists each problem as `FILE:LINE: kind: message`, the form `grep -n`, compilers
/// and editors use, one line per problem however long, then the verdict.
#[test]
fn validate_prints_file_colon_line_problems() -> TestResult {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("two-bad.jsonl");
    let meta = codex_thread::sample::SAMPLE_JSONL
        .lines()
        .next()
        .ok_or("empty sample")?;
    std::fs::write(&path, format!("{meta}\nnot json\n\n"))?;
    let file = path.to_string_lossy().into_owned();
    let output = bin()?.args(["validate", &file]).output()?;
    assert_eq!(output.status.code(), Some(1));
    let stdout = String::from_utf8(output.stdout)?;
    let lines: Vec<&str> = stdout.lines().collect();
    assert!(
        lines[0].starts_with(&format!("{file}:2: malformed: ")),
        "{stdout}"
    );
    assert!(
        lines[1].starts_with(&format!("{file}:3: blank: ")),
        "{stdout}"
    );
    assert_eq!(lines[2], format!("{file}: 3 line(s), 2 problem(s)"));
    Ok(())
}
