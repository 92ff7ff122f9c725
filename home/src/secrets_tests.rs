//! Secrets found in session files: each sample of the rule set in a real-shaped line, plain
//! and compressed, named by line and kind, and never shown whole.

use pretty_assertions::assert_eq;

use super::*;
use crate::redact::tests::{SECRET_SAMPLES, secret_part};

type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

/// A user message line holding `text` (JSON-escaped, as Codex writes it).
fn user_line(text: &str) -> Result<String, serde_json::Error> {
    let item = serde_json::json!({
        "timestamp": "2026-01-02T00:00:00.000Z",
        "type": "response_item",
        "payload": {
            "type": "message",
            "role": "user",
            "content": [{"type": "input_text", "text": text}]
        }
    });
    Ok(format!("{}\n", serde_json::to_string(&item)?))
}

#[test]
fn every_kind_is_found_by_line_and_masked() -> TestResult {
    let dir = tempfile::tempdir()?;
    let day = dir.path().join("sessions/2026/01/02");
    std::fs::create_dir_all(&day)?;
    let mut text = user_line("nothing here, sk- and AKIA alone")?;
    for (_, sample) in SECRET_SAMPLES {
        text.push_str(&user_line(&format!("use {sample} now"))?);
    }
    let plain = day.join("rollout-2026-01-02T00-00-00-01900000-0000-7000-8000-000000000001.jsonl");
    std::fs::write(&plain, &text)?;
    let archived = dir.path().join("archived_sessions");
    std::fs::create_dir_all(&archived)?;
    let packed =
        archived.join("rollout-2026-01-02T00-00-00-01900000-0000-7000-8000-000000000002.jsonl.zst");
    std::fs::write(&packed, zstd::encode_all(text.as_bytes(), 3)?)?;

    let scanner = SecretScanner::new()?;
    let findings = scanner.scan_home(&CodexHome::new(dir.path()))?;
    let expected: Vec<(u64, &str)> = SECRET_SAMPLES
        .iter()
        .enumerate()
        .map(|(n, (kind, _))| (n as u64 + 2, *kind))
        .collect();
    for path in [&plain, &packed] {
        let found: Vec<(u64, &str)> = findings
            .iter()
            .filter(|finding| &finding.path == path)
            .map(|finding| (finding.line, finding.kind))
            .collect();
        assert_eq!(found, expected, "{}", path.display());
    }
    for finding in &findings {
        assert!(finding.masked.ends_with('…'), "{finding:?}");
        for (_, sample) in SECRET_SAMPLES {
            assert!(!finding.masked.contains(secret_part(sample)), "{finding:?}");
        }
    }
    Ok(())
}

#[test]
fn a_finding_serializes_with_its_path_as_it_displays() -> Result<(), serde_json::Error> {
    let finding = SecretFinding {
        path: PathBuf::from("/h/sessions/rollout.jsonl"),
        line: 3,
        kind: "OpenAI API key",
        masked: "sk-pro…".to_string(),
    };
    assert_eq!(
        serde_json::to_string(&finding)?,
        r#"{"path":"/h/sessions/rollout.jsonl","line":3,"kind":"OpenAI API key","masked":"sk-pro…"}"#
    );
    Ok(())
}
