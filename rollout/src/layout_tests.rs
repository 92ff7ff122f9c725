use std::ffi::OsString;
use std::path::PathBuf;

use chrono::{TimeZone, Utc};
use pretty_assertions::assert_eq;
use uuid::Uuid;

use super::*;

fn env_of(pairs: &'static [(&'static str, &'static str)]) -> impl Fn(&str) -> Option<OsString> {
    move |name| {
        pairs
            .iter()
            .find(|(k, _)| *k == name)
            .map(|(_, v)| OsString::from(v))
    }
}

#[test]
fn home_prefers_explicit_then_codex_home_then_dot_codex() -> Result<(), RolloutError> {
    let env = env_of(&[("CODEX_HOME", "/ch"), ("HOME", "/h")]);
    let explicit = CodexHome::resolve_with(Some(PathBuf::from("/x")), &env)?;
    assert_eq!(explicit.root, Path::new("/x"));
    assert_eq!(CodexHome::resolve_with(None, &env)?.root, Path::new("/ch"));
    let no_codex_home = env_of(&[("CODEX_HOME", ""), ("HOME", "/h")]);
    assert_eq!(
        CodexHome::resolve_with(None, no_codex_home)?.root,
        Path::new("/h/.codex")
    );
    assert!(matches!(
        CodexHome::resolve_with(None, env_of(&[])),
        Err(RolloutError::NoHome)
    ));
    Ok(())
}

#[test]
fn rollout_path_is_dated_and_named_by_time_and_thread() -> Result<(), Box<dyn std::error::Error>> {
    let home = CodexHome::new("/home/u/.codex");
    let created = Utc
        .with_ymd_and_hms(2025, 3, 7, 9, 5, 1)
        .single()
        .ok_or("bad date")?;
    let id = Uuid::parse_str("0199a213-81c0-7800-8aa1-bbab2a035a53")?;
    let path = home.rollout_path(created, id);
    assert_eq!(
        path,
        PathBuf::from(
            "/home/u/.codex/sessions/2025/03/07/\
             rollout-2025-03-07T09-05-01-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"
        )
    );
    let name = path.file_name().and_then(|n| n.to_str()).ok_or("name")?;
    assert_eq!(
        parse_rollout_file_name(name),
        Some(RolloutFileName {
            created,
            thread_id: id,
            rollout_id: None,
            compression: Compression::Plain,
        })
    );
    Ok(())
}

#[test]
fn file_name_parser_reads_revert_copies_and_compressed_names() -> Result<(), uuid::Error> {
    let thread = Uuid::parse_str("0199a213-81c0-7800-8aa1-bbab2a035a53")?;
    let rollout = Uuid::parse_str("019f4efd-0137-7790-9622-c175e1415048")?;
    let base = "rollout-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53";
    let revert = format!("{base}_019f4efd-0137-7790-9622-c175e1415048");
    for (name, rollout_id, compression) in [
        (format!("{base}.jsonl"), None, Compression::Plain),
        (format!("{base}.jsonl.zst"), None, Compression::Zstd),
        (format!("{revert}.jsonl"), Some(rollout), Compression::Plain),
        (
            format!("{revert}.jsonl.zst"),
            Some(rollout),
            Compression::Zstd,
        ),
    ] {
        let parsed = parse_rollout_file_name(&name);
        assert_eq!(
            parsed.map(|p| (p.thread_id, p.rollout_id, p.compression)),
            Some((thread, rollout_id, compression)),
            "{name}"
        );
        assert_eq!(
            parsed.map(|p| p.created.to_rfc3339()),
            Some("2025-09-24T19:22:20+00:00".to_string())
        );
    }
    Ok(())
}

#[test]
fn file_name_parser_rejects_other_names() {
    let base = "rollout-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53";
    for bad in [
        "rollout-2025-09-24T19-22-20.jsonl",
        "rollout-2025-09-24T19-22-20-nope.jsonl",
        "rollout-2025-13-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl",
        "session-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl",
        "rollout-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.json",
        // The rollout id of a revert copy is an id too.
        &format!("{base}_abc.jsonl"),
        &format!("{base}_.jsonl"),
        // Other compressions, a doubled suffix, a compressed suffix alone.
        &format!("{base}.jsonl.gz"),
        &format!("{base}.jsonl.zst.zst"),
        &format!("{base}.zst"),
        "rollout-é",
        "",
    ] {
        assert_eq!(parse_rollout_file_name(bad), None, "{bad}");
    }
}

#[test]
fn the_home_of_a_path_comes_from_the_layout() {
    let home = |path: &str| home_of_rollout_path(Path::new(path)).map(|h| h.root);
    assert_eq!(
        home("/h/sessions/2026/07/11/rollout-x.jsonl"),
        Some(PathBuf::from("/h"))
    );
    assert_eq!(
        home("/h/archived_sessions/rollout-x.jsonl.zst"),
        Some(PathBuf::from("/h"))
    );
    assert_eq!(home("/h/sessions/2026/7/11/rollout-x.jsonl"), None);
    assert_eq!(home("/h/other/2026/07/11/rollout-x.jsonl"), None);
    assert_eq!(home("rollout-x.jsonl"), None);
}
