//! `--redact` holds: a session with every secret kind, home paths of every spelling, an
//! e-mail and a user name in the owner columns of `ls -l`, seeded in every field a session
//! has (user and assistant messages, reasoning, function call arguments and output, freeform
//! patch and its output, the cwd of the session meta and turn context, exec command events
//! and their output), leaves none of them in the Markdown, HTML and JSON exports, nor in
//! the rows `table --redact --with-text` writes; `secrets` finds them.

use crate::common;

use std::path::Path;

use common::{TestResult, bin};
use serde_json::{Value, json};

/// A sample of each secret kind (written to the documented shapes; none is real), with the
/// part that must not survive.
const SECRETS: &[(&str, &str)] = &[
    (
        "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----",
        "b3BlbnNzaC1rZXktdjEAAAAA",
    ),
    (
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf",
        "AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf",
    ),
    (
        "sk-proj-QbCdEfGhIjKlMnOpQrStUvWx0123456789",
        "QbCdEfGhIjKlMnOpQrStUvWx",
    ),
    (
        "sk-RbCdEfGhIjKlMnOpQrStUvWx0123",
        "RbCdEfGhIjKlMnOpQrStUvWx",
    ),
    ("sk_live_SbCdEfGhIjKlMnOp0123", "SbCdEfGhIjKlMnOp0123"),
    (
        "AIzaSyTbCdEfGhIjKlMnOpQrStUvWxYz0123456",
        "TbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    (
        "ghp_UbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "UbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    (
        "gho_VbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "VbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    (
        "ghs_WbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "WbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    (
        "ghu_XbCdEfGhIjKlMnOpQrStUvWxYz0123456789",
        "XbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    (
        "github_pat_11YbCdEfGh0123456789AB_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvW",
        "11YbCdEfGh0123456789AB",
    ),
    ("glpat-ZbCdEfGhIjKlMnOpQrSt", "ZbCdEfGhIjKlMnOpQrSt"),
    (
        "xoxb-1234567890-0987654321-AbCdEfGhIjKl",
        "0987654321-AbCdEfGhIjKl",
    ),
    ("AKIAIOSFODNN7EXAMPLE", "IOSFODNN7EXAMPLE"),
    ("ASIAJOSFODNN7EXAMPLE", "JOSFODNN7EXAMPLE"),
    (
        "aws_secret_access_key=wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY01",
        "wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY01",
    ),
    (
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
        "dBjftJeZ4CVPmB92K27uhbUJU1p1r",
    ),
    (
        "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
        "hf_AbCdEfGhIjKlMnOpQrStUvWxYz",
    ),
    (
        "Bearer abcdefghijklmnop0123456789",
        "abcdefghijklmnop0123456789",
    ),
];

/// Personal details: home paths of every spelling, an e-mail, the user name as the owner
/// column of `ls -l` shows it.
const PERSONAL: &str = concat!(
    r"C:\Users\zelda\src and /home/zelda/src and /Users/zelda/src and /c/Users/zelda/x ",
    r"and /mnt/c/Users/zelda/y and C:/Users/zelda/z, mail zelda.k@example.org, ",
    "-rw-r--r--  1 zelda  staff  4096 Sep  1 notes.txt",
);

/// What must not survive anywhere.
fn leaks() -> Vec<&'static str> {
    let mut leaks: Vec<&str> = SECRETS.iter().map(|(_, part)| *part).collect();
    leaks.extend(["zelda", "Zelda"]);
    leaks
}

/// Every secret and personal detail in one text (for a field).
fn seed(field: &str) -> String {
    let secrets: Vec<&str> = SECRETS.iter().map(|(sample, _)| *sample).collect();
    format!("{field}: {} {PERSONAL}", secrets.join(" "))
}

fn line(at: u32, kind: &str, payload: Value) -> Result<String, serde_json::Error> {
    Ok(format!(
        "{}\n",
        serde_json::to_string(&json!({
            "timestamp": format!("2026-01-02T00:00:{at:02}.000Z"),
            "type": kind,
            "payload": payload,
        }))?
    ))
}

/// The seeded session, every field a session has.
fn seeded_session() -> Result<String, serde_json::Error> {
    let id = "01900000-0000-7000-8000-00000000abcd";
    // Windows cwd, as the file's JSON holds it (backslashes doubled).
    let cwd = r"c:\Users\zelda\work";
    let arguments = serde_json::to_string(&json!({
        "command": seed("command"),
        "workdir": cwd,
    }))?;
    let patch = format!(
        "*** Begin Patch\n*** Add File: /home/zelda/work/secret.txt\n+{}\n*** End Patch",
        seed("patch")
    );
    let mut text = String::new();
    text += &line(
        0,
        "session_meta",
        json!({
            "id": id, "session_id": id, "timestamp": "2026-01-02T00:00:00.000Z", "cwd": cwd,
            "originator": "codex_cli_rs", "cli_version": "0.150.0",
            "git": {"branch": "zelda/feature", "repository_url": "https://github.com/zelda/app.git"},
        }),
    )?;
    text += &line(
        1,
        "turn_context",
        json!({
            "cwd": "/home/zelda/work", "approval_policy": "never",
            "sandbox_policy": {"mode": "danger-full-access"}, "model": "gpt-5", "summary": "auto",
        }),
    )?;
    text += &line(
        2,
        "response_item",
        json!({
            "type": "message", "role": "user",
            "content": [{"type": "input_text", "text": seed("user")}],
        }),
    )?;
    text += &line(
        2,
        "event_msg",
        json!({"type": "user_message", "message": seed("user event"), "kind": "plain"}),
    )?;
    text += &line(
        3,
        "response_item",
        json!({
            "type": "reasoning", "summary": [{"type": "summary_text", "text": seed("reasoning")}],
            "content": null, "encrypted_content": null,
        }),
    )?;
    text += &line(
        4,
        "response_item",
        json!({
            "type": "function_call", "name": "shell", "arguments": arguments, "call_id": "call_1",
        }),
    )?;
    text += &line(
        5,
        "event_msg",
        json!({
            "type": "exec_command_begin", "call_id": "call_1", "command": ["bash", "-lc", seed("exec")],
            "cwd": "/home/zelda/work",
        }),
    )?;
    text += &line(
        6,
        "event_msg",
        json!({
            "type": "exec_command_end", "call_id": "call_1", "stdout": seed("stdout"),
            "stderr": seed("stderr"), "aggregated_output": seed("aggregated"), "exit_code": 0,
            "duration": {"secs": 0, "nanos": 1}, "formatted_output": seed("formatted"),
        }),
    )?;
    text += &line(
        7,
        "response_item",
        json!({
            "type": "function_call_output", "call_id": "call_1",
            "output": serde_json::to_string(&json!({"output": seed("output"), "metadata": {"exit_code": 0}}))?,
        }),
    )?;
    text += &line(
        8,
        "response_item",
        json!({
            "type": "custom_tool_call", "status": "completed", "call_id": "call_2",
            "name": "apply_patch", "input": patch,
        }),
    )?;
    text += &line(
        9,
        "response_item",
        json!({
            "type": "custom_tool_call_output", "call_id": "call_2", "output": seed("patch output"),
        }),
    )?;
    text += &line(
        10,
        "response_item",
        json!({
            "type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": seed("assistant")}],
        }),
    )?;
    text += &line(
        10,
        "event_msg",
        json!({"type": "agent_message", "message": seed("agent event")}),
    )?;
    Ok(text)
}

#[track_caller]
fn assert_nothing_left(what: &str, document: &str) {
    for leak in leaks() {
        assert!(
            !document.contains(leak),
            "{what}: {leak:?} left in:\n{}",
            document
                .lines()
                .filter(|line| line.contains(leak))
                .take(3)
                .collect::<Vec<_>>()
                .join("\n")
        );
    }
}

fn write_home(dir: &Path) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    let day = dir.join("home/sessions/2026/01/02");
    std::fs::create_dir_all(&day)?;
    let file = day.join("rollout-2026-01-02T00-00-00-01900000-0000-7000-8000-00000000abcd.jsonl");
    std::fs::write(&file, seeded_session()?)?;
    Ok(file)
}

#[test]
fn redact_leaves_nothing_in_any_export() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = write_home(dir.path())?;
    for args in [
        vec!["export", "--redact"],
        vec!["export", "--format", "html", "--redact"],
        vec!["--json", "export", "--redact"],
    ] {
        let output = bin()?
            .args(&args)
            .arg(&file)
            .env("HOSTNAME", "buildbox")
            .assert()
            .success();
        let document = String::from_utf8(output.get_output().stdout.clone())?;
        let stderr = String::from_utf8(output.get_output().stderr.clone())?;
        assert_nothing_left(&args.join(" "), &document);
        // Each field was there to mask, and what is counted was replaced.
        assert!(document.matches("[token]").count() >= 10, "{args:?}");
        assert!(stderr.contains("user name(s)"), "{args:?}: {stderr}");
    }
    Ok(())
}

/// `table --with-text --redact` writes the rows codex-home's `thread_rows` gives (its own
/// tests read the Parquet files back): every string of them is checked, and the command runs.
#[test]
fn redact_leaves_nothing_in_table_text() -> TestResult {
    let dir = tempfile::tempdir()?;
    write_home(dir.path())?;
    let home = codex_rollout::CodexHome::new(dir.path().join("home"));
    let options = codex_home::TableOptions {
        with_text: true,
        redact: true,
        person: None,
    };
    let rows = codex_home::thread_rows(&home, "01900000-0000-7000-8000-00000000abcd", &options)?
        .ok_or("no thread")?;
    let text = format!("{rows:?}");
    assert_nothing_left("table rows", &text);
    assert!(
        text.matches("[token]").count() >= SECRETS.len(),
        "the rows hold no text: {text}"
    );
    let out = dir.path().join("tables");
    bin()?
        .args(["table", "--with-text", "--redact", "--home"])
        .arg(home.root)
        .arg("-o")
        .arg(&out)
        .assert()
        .success()
        .stderr(predicates::str::contains("user name(s)"));
    assert!(out.join(codex_home::MANIFEST_FILE).is_file());
    Ok(())
}

#[test]
fn secrets_lists_every_kind_by_line_and_exits_1() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = write_home(dir.path())?;
    let output = bin()?
        .args(["--json", "secrets", "--home"])
        .arg(dir.path().join("home"))
        .assert()
        .code(1);
    let report: Value = serde_json::from_slice(&output.get_output().stdout)?;
    let findings = report["findings"].as_array().ok_or("no findings")?;
    let text = serde_json::to_string(findings)?;
    for (_, part) in SECRETS {
        assert!(!text.contains(part), "{part} shown in {text}");
    }
    // Every secret of the user message line (line 3) is found there.
    let on_user_line = findings.iter().filter(|found| found["line"] == 3).count();
    assert_eq!(on_user_line, SECRETS.len(), "{text}");
    assert_eq!(report["files"], 1);
    // Text output names file and line; a clean file exits 0.
    let output = bin()?.arg("secrets").arg(&file).assert().code(1);
    let stdout = String::from_utf8(output.get_output().stdout.clone())?;
    assert!(
        stdout.contains(&format!("{}:3: OpenAI API key", file.display())),
        "{stdout}"
    );
    let clean = dir.path().join("clean.jsonl");
    std::fs::write(
        &clean,
        line(
            0,
            "response_item",
            json!({"type": "message", "role": "user", "content": [{"type": "input_text", "text": "hello"}]}),
        )?,
    )?;
    bin()?.arg("secrets").arg(&clean).assert().code(0);
    Ok(())
}
