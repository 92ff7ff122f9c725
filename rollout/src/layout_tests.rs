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
    assert_eq!(explicit.root(), Path::new("/x"));
    assert_eq!(
        CodexHome::resolve_with(None, &env)?.root(),
        Path::new("/ch")
    );
    let no_codex_home = env_of(&[("CODEX_HOME", ""), ("HOME", "/h")]);
    assert_eq!(
        CodexHome::resolve_with(None, no_codex_home)?.root(),
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
            thread_id: id
        })
    );
    Ok(())
}

#[test]
fn file_name_parser_accepts_revert_copies_and_rejects_others() {
    let good = "rollout-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53_abc.jsonl";
    assert!(parse_rollout_file_name(good).is_some());
    for bad in [
        "rollout-2025-09-24T19-22-20.jsonl",
        "rollout-2025-09-24T19-22-20-nope.jsonl",
        "rollout-2025-13-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl",
        "session-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl",
        "rollout-2025-09-24T19-22-20-0199a213-81c0-7800-8aa1-bbab2a035a53.json",
        "rollout-é",
        "",
    ] {
        assert_eq!(parse_rollout_file_name(bad), None, "{bad}");
    }
}
