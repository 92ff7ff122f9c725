//! Terminal control characters from file contents are never printed raw, in any command or
//! mode: a session whose messages and tool outputs carry ANSI escapes, an OSC 52 clipboard
//! write, a carriage return, C1 controls and a bidi override must come out escaped.

use crate::common;

use common::{TestResult, bin};

/// The sample with hostile text spliced into a user message and a tool output.
fn hostile_session() -> String {
    let evil = r"\u001b]52;c;aGVsbG8=\u0007\u001b[2J\r\u009b31m\u202eevil\u007f";
    codex_thread::sample::SAMPLE_JSONL
        .replace(
            "Add a --verbose flag to the CLI.",
            &format!("Add a flag {evil}"),
        )
        .replace(
            "Success. Updated the following files:",
            &format!("Success {evil}"),
        )
}

fn is_raw_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

#[test]
fn no_command_prints_raw_terminal_controls() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("hostile.jsonl");
    std::fs::write(&file, hostile_session())?;
    let path = file.to_string_lossy().into_owned();
    let fork_out = dir.path().join("fork.jsonl").to_string_lossy().into_owned();
    let runs: Vec<Vec<&str>> = vec![
        vec!["inspect"],
        vec!["validate"],
        vec!["history"],
        vec!["prompt"],
        vec!["thread"],
        vec!["notifications"],
        vec!["export"],
        vec!["fork", "--drop-turns", "1", "-o", &fork_out],
        vec!["usage", "session", "--timezone", "UTC"],
    ];
    let mut saw_escaped = false;
    for args in runs {
        for json in [false, true] {
            if args[0] == "fork" && json {
                continue;
            }
            let mut command = bin()?;
            command.args(&args);
            if json {
                command.arg("--json");
            }
            let output = command.arg(&path).output()?;
            assert!(
                output.status.success(),
                "{args:?}: {}",
                String::from_utf8_lossy(&output.stderr)
            );
            let stdout = String::from_utf8(output.stdout)?;
            let stderr = String::from_utf8(output.stderr)?;
            for (stream, text) in [("stdout", &stdout), ("stderr", &stderr)] {
                let raw: Vec<char> = text
                    .chars()
                    .filter(|c| *c != '\n' && *c != '\t' && is_raw_control(*c))
                    .collect();
                assert!(
                    raw.is_empty(),
                    "{args:?} json={json} {stream}: raw controls {raw:?}"
                );
            }
            saw_escaped |= stdout.contains("\\x1b]52") || stdout.contains("\\u001b]52");
        }
    }
    assert!(saw_escaped, "the hostile text was never shown at all");
    // The JSON stays exact: decoding the escaped output gives the original text back.
    let output = bin()?.args(["history", &path]).output()?;
    let text = String::from_utf8(output.stdout)?;
    let decoded: Vec<serde_json::Value> = common::json_lines(&text)?;
    assert!(
        decoded
            .iter()
            .any(|item| item.to_string().contains("\\u001b]52"))
    );
    assert!(decoded.iter().any(|item| {
        item["content"][0]["text"]
            .as_str()
            .is_some_and(|text| text.contains('\u{202e}'))
    }));
    // The fork copies the file's bytes exactly: files are not terminals.
    let fork = std::fs::read_to_string(&fork_out)?;
    assert!(fork.contains(r"\u001b]52;c;aGVsbG8=\u0007"));
    Ok(())
}
