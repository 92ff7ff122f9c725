//! Unit tests of `SessionMeta`: classic and newest shapes, open enums, required keys.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const ID: &str = "0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b";
const ROOT: &str = "0199a1b2-0000-7000-8000-000000000001";

#[test]
fn classic_meta_reads_with_session_id_copied_from_id() -> TestResult {
    let line: SessionMetaLine = serde_json::from_value(json!({
        "id": ID,
        "timestamp": "2025-09-25T01:22:20.068Z",
        "cwd": "/w",
        "originator": "codex_vscode",
        "cli_version": "0.40.0",
        "instructions": null,
        "git": {"commit_hash": "abc", "branch": "main"}
    }))?;
    assert_eq!(line.meta.session_id.to_string(), ID);
    assert_eq!(line.meta.id.to_string(), ID);
    assert_eq!(line.meta.source, SessionSource::VSCode, "upstream default");
    assert_eq!(line.meta.model_provider, None);
    assert_eq!(line.meta.effective_history_mode(), HistoryMode::Legacy);
    assert_eq!(line.git.and_then(|git| git.branch).as_deref(), Some("main"));
    Ok(())
}

#[test]
fn newest_meta_round_trips() -> TestResult {
    let wire = json!({
        "session_id": ROOT,
        "id": ID,
        "forked_from_id": ROOT,
        "timestamp": "2026-08-03T10:48:56.000Z",
        "cwd": "/tmp/repo",
        "originator": "codex_cli_rs",
        "cli_version": "0.146.0",
        "source": {"subagent": {"thread_spawn": {"parent_thread_id": ROOT, "depth": 1}}},
        "thread_source": "subagent",
        "agent_role": "worker",
        "model_provider": "openai",
        "base_instructions": {"text": "You are Codex."},
        "memory_mode": "disabled",
        "history_mode": "paginated",
        "multi_agent_version": "v2",
        "context_window": {"window_id": "w-1"},
        "git": {"repository_url": "https://example.invalid/r.git"}
    });
    let line: SessionMetaLine = serde_json::from_value(wire.clone())?;
    assert_eq!(line.meta.session_id.to_string(), ROOT);
    assert_eq!(line.meta.history_mode, Some(HistoryMode::Paginated));
    assert!(matches!(line.meta.source, SessionSource::SubAgent(_)));
    assert_eq!(serde_json::to_value(&line)?, wire);
    Ok(())
}

#[test]
fn agent_type_is_read_as_agent_role() -> TestResult {
    let line: SessionMetaLine = serde_json::from_value(json!({
        "id": ID, "timestamp": "t", "cwd": "/", "originator": "o", "cli_version": "1",
        "agent_type": "explorer"
    }))?;
    assert_eq!(line.meta.agent_role.as_deref(), Some("explorer"));
    Ok(())
}

#[test]
fn unknown_history_mode_and_source_are_kept_verbatim() -> TestResult {
    let wire = json!({
        "session_id": ID, "id": ID, "timestamp": "t", "cwd": "/", "originator": "o",
        "cli_version": "1", "source": {"robot": 3}, "model_provider": null,
        "base_instructions": null, "history_mode": "default"
    });
    let line: SessionMetaLine = serde_json::from_value(wire.clone())?;
    assert_eq!(
        line.meta.history_mode,
        Some(HistoryMode::Other("default".to_string()))
    );
    assert_eq!(
        line.meta.source,
        SessionSource::Unknown(json!({"robot": 3}))
    );
    assert_eq!(serde_json::to_value(&line)?, wire);
    Ok(())
}

#[test]
fn session_sources_use_upstream_spellings() -> TestResult {
    let cases = [
        (json!("cli"), SessionSource::Cli),
        (json!("vscode"), SessionSource::VSCode),
        (json!("exec"), SessionSource::Exec),
        (json!("mcp"), SessionSource::Mcp),
        (
            json!({"custom": "atlas"}),
            SessionSource::Custom("atlas".to_string()),
        ),
        (
            json!({"subagent": "review"}),
            SessionSource::SubAgent(json!("review")),
        ),
        (
            json!({"internal": "memory_consolidation"}),
            SessionSource::Internal(json!("memory_consolidation")),
        ),
        (json!("unknown"), SessionSource::Unknown(json!("unknown"))),
    ];
    for (wire, source) in cases {
        assert_eq!(
            serde_json::from_value::<SessionSource>(wire.clone())?,
            source
        );
        assert_eq!(serde_json::to_value(&source)?, wire);
    }
    assert!(SessionSource::Cli.is_interactive());
    assert!(!SessionSource::Exec.is_interactive());
    Ok(())
}

#[test]
fn new_meta_writes_required_keys_and_nulls() -> TestResult {
    let id = ThreadId::from_string(ID)?;
    let meta = SessionMeta::new(id, "t", "/w", "codex_cli_rs", "0.1.0");
    assert_eq!(
        serde_json::to_value(SessionMetaLine { meta, git: None })?,
        json!({
            "session_id": ID, "id": ID, "timestamp": "t", "cwd": "/w",
            "originator": "codex_cli_rs", "cli_version": "0.1.0", "source": "vscode",
            "model_provider": null, "base_instructions": null
        })
    );
    Ok(())
}

#[test]
fn meta_without_id_is_an_error() {
    let result = serde_json::from_value::<SessionMetaLine>(json!({"timestamp": "t"}));
    assert!(result.is_err_and(|err| err.to_string().contains("id")));
}

#[test]
fn history_base_reads_and_writes_back_every_key() -> TestResult {
    let wire = json!({
        "session_id": ID, "id": ID, "timestamp": "t", "cwd": "/", "originator": "o",
        "cli_version": "0.152.0", "source": "cli", "model_provider": null,
        "base_instructions": null, "history_mode": "paginated",
        "history_base": {"thread_id": ROOT, "end_ordinal_exclusive": 42, "end_byte_offset": 9000}
    });
    let line: SessionMetaLine = serde_json::from_value(wire.clone())?;
    let base = line.meta.history_base.clone().ok_or("no history_base")?;
    assert_eq!(base.thread_id.to_string(), ROOT);
    assert_eq!(base.end_ordinal_exclusive, Some(42));
    assert_eq!(base.end_byte_offset, Some(9000));
    assert_eq!(serde_json::to_value(&line)?, wire);
    Ok(())
}

#[test]
fn history_base_omits_missing_ends() -> TestResult {
    let mut base = HistoryBase::new(ThreadId::from_string(ROOT)?);
    assert_eq!(serde_json::to_value(&base)?, json!({"thread_id": ROOT}));
    base.end_byte_offset = Some(7);
    assert_eq!(
        serde_json::to_string(&base)?,
        format!(r#"{{"thread_id":"{ROOT}","end_byte_offset":7}}"#)
    );
    let read: HistoryBase =
        serde_json::from_value(json!({"thread_id": ROOT, "end_byte_offset": 7}))?;
    assert_eq!(read, base);
    Ok(())
}

#[test]
fn history_base_line_writes_back_byte_for_byte() -> TestResult {
    let line = format!(
        r#"{{"timestamp":"2026-09-02T21:58:23.736Z","ordinal":0,"type":"session_meta","payload":{{"session_id":"{ID}","id":"{ID}","forked_from_id":"{ROOT}","timestamp":"2026-09-02T21:58:23.736Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.152.1","source":"cli","model_provider":"openai","base_instructions":null,"history_mode":"paginated","history_base":{{"thread_id":"{ROOT}","end_ordinal_exclusive":12,"end_byte_offset":3456}}}}}}"#
    );
    let parsed = crate::rollout::parse_rollout_line(line.as_bytes())?;
    assert!(
        !parsed.is_original_kept(),
        "the typed line writes back these bytes"
    );
    assert_eq!(parsed.to_json_line()?, line.as_str());
    let Some(crate::rollout::RolloutItem::SessionMeta(meta)) = parsed.item() else {
        return Err("not a session meta".into());
    };
    assert_eq!(
        meta.meta
            .history_base
            .as_ref()
            .map(|base| base.end_byte_offset),
        Some(Some(3456))
    );
    Ok(())
}

#[test]
fn history_base_with_a_bad_thread_id_is_an_error() {
    let result = serde_json::from_value::<HistoryBase>(json!({"thread_id": "not-a-uuid"}));
    assert!(result.is_err_and(|err| err.to_string().contains("not-a-uuid")));
}
