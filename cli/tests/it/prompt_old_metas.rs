//! `prompt` of files whose meta is older than the fields Codex resumes with
//! (`reference/old-codex-versions.md`): a meta without `model_provider` is resumed with the
//! home's configured provider, so a provider other than OpenAI is sent no harness metadata;
//! a meta's `instructions` (0.77: the user's own) are never sent as the base instructions.

use std::path::Path;

use serde_json::Value;

use crate::common::{TestResult, bin};

/// A home configured with a provider of its own, holding one session whose meta names no
/// provider and carries `instructions`; the session file.
fn old_session(home: &Path) -> Result<std::path::PathBuf, Box<dyn std::error::Error>> {
    std::fs::write(home.join("config.toml"), "model_provider = \"mock\"\n")?;
    let day = home.join("sessions/2025/11/01");
    std::fs::create_dir_all(&day)?;
    let file = day.join("rollout-2025-11-01T10-00-00-0199a2c4-5e00-7c3a-9d41-2f6b8e1c0a77.jsonl");
    let lines = [
        r#"{"timestamp":"2025-11-01T10:00:00.000Z","type":"session_meta","payload":{"id":"0199a2c4-5e00-7c3a-9d41-2f6b8e1c0a77","timestamp":"2025-11-01T10:00:00.000Z","cwd":"/tmp","originator":"codex_exec","cli_version":"0.77.0","instructions":"the user's skills text"}}"#,
        r#"{"timestamp":"2025-11-01T10:00:01.000Z","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}"#,
        r#"{"timestamp":"2025-11-01T10:00:02.000Z","type":"response_item","payload":{"type":"message","role":"assistant","id":"msg_1","content":[{"type":"output_text","text":"Hello."}],"internal_chat_message_metadata_passthrough":{"turn_id":"t1"}}}"#,
    ];
    std::fs::write(&file, lines.join("\n") + "\n")?;
    Ok(file)
}

#[test]
fn an_old_meta_is_resumed_with_the_homes_provider_and_without_its_instructions() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = old_session(dir.path())?;
    let output = bin()?.args(["--json", "prompt"]).arg(&file).output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let request: Value = serde_json::from_slice(&output.stdout)?;
    let text = request.to_string();
    assert!(
        !text.contains("internal_chat_message_metadata_passthrough"),
        "a provider other than OpenAI is sent no harness metadata: {text}"
    );
    assert!(!text.contains("skills text"), "{text}");
    // With OpenAI as the home's provider, the metadata is sent.
    std::fs::write(
        dir.path().join("config.toml"),
        "model_provider = \"openai\"\n",
    )?;
    let output = bin()?.args(["--json", "prompt"]).arg(&file).output()?;
    let text = String::from_utf8(output.stdout)?;
    assert!(
        text.contains("internal_chat_message_metadata_passthrough"),
        "{text}"
    );
    Ok(())
}
