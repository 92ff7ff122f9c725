//! Issue 38's small things: a mistyped report word suggests the one meant, `--json` errors
//! are JSON, piped paths are whole, help names thread ids, `list --json` times are UTC.

use crate::common;

use common::{TestResult, bin};

/// A home with one session whose folder path is long, written at 23:30 UTC on 1 January.
fn long_home(dir: &std::path::Path) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    let home = dir.join("a-home-whose-path-is-long-enough-to-be-cut-in-eighty-columns");
    let day = home.join("sessions/2026/01/02");
    std::fs::create_dir_all(&day)?;
    let id = "01900000-0000-7000-8000-000000000042";
    std::fs::write(
        day.join(format!("rollout-2026-01-02T00-30-00-{id}.jsonl")),
        format!(
            concat!(
                r#"{{"timestamp":"2026-01-01T23:30:00.000Z","type":"session_meta","payload":{{"id":"{id}","timestamp":"2026-01-01T23:30:00.250Z","cwd":"/work","originator":"codex_cli_rs","cli_version":"0.150.0"}}}}"#,
                "\n",
                r#"{{"timestamp":"2026-01-01T23:30:01.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"hello there"}}]}}}}"#,
                "\n"
            ),
            id = id
        ),
    )?;
    Ok(home)
}

#[test]
fn a_mistyped_report_suggests_the_word_meant() -> TestResult {
    let dir = tempfile::tempdir()?;
    let home = long_home(dir.path())?;
    let output = bin()?
        .args(["usage", "dayly", "--home"])
        .arg(&home)
        .assert()
        .code(2);
    let stderr = String::from_utf8(output.get_output().stderr.clone())?;
    assert!(stderr.contains("did you mean `daily`"), "{stderr}");
    // A real report word still works, and a file named like a path is read as a file.
    bin()?
        .args(["usage", "weekly", "--home"])
        .arg(&home)
        .assert()
        .success();
    Ok(())
}

#[test]
fn json_errors_are_a_json_object_on_stderr() -> TestResult {
    let dir = tempfile::tempdir()?;
    for args in [
        vec!["--json", "inspect", "/definitely/not/here.jsonl"],
        vec!["--json", "usage", "--since", "not-a-date"],
        vec!["--json", "list", "--no-such-flag"],
    ] {
        let output = bin()?.args(&args).env("CODEX_HOME", dir.path()).output()?;
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        assert!(output.stdout.is_empty(), "{args:?}");
        let error: serde_json::Value = serde_json::from_slice(&output.stderr).map_err(|err| {
            format!(
                "{args:?}: {err}: {}",
                String::from_utf8_lossy(&output.stderr)
            )
        })?;
        assert_eq!(error["error"]["exit_code"], 2, "{error}");
        assert!(
            error["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty())
        );
    }
    Ok(())
}

#[test]
fn piped_paths_are_whole() -> TestResult {
    let dir = tempfile::tempdir()?;
    let home = long_home(dir.path())?;
    let output = bin()?.args(["du", "--home"]).arg(&home).assert().success();
    let stdout = String::from_utf8(output.get_output().stdout.clone())?;
    let file = std::fs::read_dir(home.join("sessions/2026/01/02"))?
        .next()
        .ok_or("no file")??
        .path();
    assert!(stdout.contains(&file.display().to_string()), "{stdout}");
    Ok(())
}

#[test]
fn list_json_created_at_is_utc() -> TestResult {
    let dir = tempfile::tempdir()?;
    let home = long_home(dir.path())?;
    let output = bin()?
        .args(["--json", "list", "--home"])
        .arg(&home)
        .env("TZ", "Asia/Tokyo")
        .assert()
        .success();
    let listing: serde_json::Value = serde_json::from_slice(&output.get_output().stdout)?;
    assert_eq!(
        listing["sessions"][0]["created_at"], "2026-01-01T23:30:00.250Z",
        "{listing}"
    );
    Ok(())
}

#[test]
fn one_session_help_names_ids_and_prefixes() -> TestResult {
    for command in [
        "history",
        "prompt",
        "thread",
        "notifications",
        "export",
        "fork",
        "inspect",
        "validate",
    ] {
        let output = bin()?.args([command, "--help"]).assert().success();
        let stdout = String::from_utf8(output.get_output().stdout.clone())?;
        assert!(stdout.contains("thread id"), "{command}: {stdout}");
    }
    Ok(())
}
