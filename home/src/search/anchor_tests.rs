use pretty_assertions::assert_eq;

use super::*;
use crate::search::{Role, TextKind};

fn line(kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"2025-01-02T03:04:05.000Z","type":"{kind}","payload":{payload}}}"#)
}

fn hit(path: &std::path::Path, line: u64, role: Role, kind: TextKind) -> Hit {
    Hit {
        thread_id: "0199a213-81c0-7800-8aa1-bbab2a035a53".to_string(),
        path: path.to_path_buf(),
        role,
        kind,
        turn: 1,
        line,
        timestamp_ms: None,
        cwd: None,
        model: None,
        copied: false,
        snippet: String::new(),
        rank: 0.0,
    }
}

#[test]
fn a_hit_is_anchored_at_its_lines_call_or_text() -> Result<(), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("session.jsonl");
    let lines = [
        line(
            "session_meta",
            r#"{"id":"0199a213-81c0-7800-8aa1-bbab2a035a53","timestamp":"2025-01-02T03:04:05.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}"#,
        ),
        line(
            "response_item",
            r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"find the zebra"}]}"#,
        ),
        line(
            "response_item",
            r#"{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_7"}"#,
        ),
        line(
            "response_item",
            r#"{"type":"function_call_output","call_id":"call_7","output":"zebra.txt"}"#,
        ),
        line("event_msg", r#"{"type":"agent_message","message":"done"}"#),
    ];
    std::fs::write(&path, lines.join("\n") + "\n")?;

    let output = hit(&path, 4, Role::Tool, TextKind::ToolOutput).anchor()?;
    assert_eq!(
        output,
        Some(HitAnchor {
            call_id: Some("call_7".to_string()),
            text: "zebra.txt".to_string(),
        })
    );
    let message = hit(&path, 2, Role::User, TextKind::Message).anchor()?;
    assert_eq!(
        message,
        Some(HitAnchor {
            call_id: None,
            text: "find the zebra".to_string(),
        })
    );
    // Not a response item, or past the end: the file changed since it was indexed.
    assert_eq!(
        hit(&path, 5, Role::Assistant, TextKind::Message).anchor()?,
        None
    );
    assert_eq!(
        hit(&path, 9, Role::Tool, TextKind::ToolOutput).anchor()?,
        None
    );
    // Compressed like plain.
    let zst = dir.path().join("session.jsonl.zst");
    std::fs::write(&zst, zstd::encode_all(std::fs::read(&path)?.as_slice(), 3)?)?;
    assert_eq!(
        hit(&zst, 4, Role::Tool, TextKind::ToolOutput).anchor()?,
        output
    );
    Ok(())
}
