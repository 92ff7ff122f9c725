use pretty_assertions::assert_eq;

use super::*;

#[test]
fn cursor_round_trips_and_rejects_other_text() -> Result<(), Box<dyn std::error::Error>> {
    let text = "2025-09-24T19:22:20Z|0199a213-81c0-7800-8aa1-bbab2a035a53";
    let cursor: Cursor = text.parse()?;
    assert_eq!(cursor.to_string(), text);
    for bad in [
        "",
        "2025-09-24T19:22:20Z",
        "x|0199a213-81c0-7800-8aa1-bbab2a035a53",
        "2025-09-24T19:22:20Z|x",
    ] {
        assert!(
            matches!(bad.parse::<Cursor>(), Err(RolloutError::InvalidCursor(_))),
            "{bad}"
        );
    }
    Ok(())
}

#[test]
fn a_missing_sessions_folder_is_an_empty_listing() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let page = list_sessions(&CodexHome::new(tmp.path().join("none")), 10, None)?;
    assert!(page.items.is_empty());
    assert_eq!(page.next_cursor, None);
    Ok(())
}

#[test]
fn stray_files_and_folders_are_ignored() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let day = home.sessions_dir().join("2025").join("01").join("02");
    std::fs::create_dir_all(&day)?;
    std::fs::create_dir_all(home.sessions_dir().join("notes"))?;
    std::fs::create_dir_all(home.sessions_dir().join("2025").join("13").join("40"))?;
    std::fs::write(day.join("README.md"), "not a session")?;
    std::fs::write(
        day.join("rollout-2025-01-02T03-04-05-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl"),
        "{not json\n",
    )?;
    let page = list_sessions(&home, 10, None)?;
    assert!(page.items.is_empty());
    assert_eq!(page.num_scanned_files, 1);
    Ok(())
}

/// One JSONL line of a session written at 2025-01-02T03:04:05.
fn head_line(kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"2025-01-02T03:04:05.000Z","type":"{kind}","payload":{payload}}}"#)
}

fn write_session(home: &CodexHome, id: &str, lines: &[String]) -> std::io::Result<PathBuf> {
    let day = home.sessions_dir().join("2025").join("01").join("02");
    std::fs::create_dir_all(&day)?;
    let path = day.join(format!("rollout-2025-01-02T03-04-05-{id}.jsonl"));
    std::fs::write(&path, lines.join("\n") + "\n")?;
    Ok(path)
}

#[test]
fn the_listing_carries_the_first_model_named_near_the_top() -> Result<(), Box<dyn std::error::Error>>
{
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let meta = |id: &str| {
        head_line(
            "session_meta",
            &format!(
                r#"{{"id":"{id}","timestamp":"2025-01-02T03:04:05.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}}"#
            ),
        )
    };
    let user = head_line("event_msg", r#"{"type":"user_message","message":"hello"}"#);
    let context = |model: &str| {
        head_line(
            "turn_context",
            &format!(
                r#"{{"cwd":"/w","approval_policy":"never","sandbox_policy":{{"mode":"read-only"}},"model":"{model}","summary":"auto"}}"#
            ),
        )
    };
    let settings = |model: &str| {
        head_line(
            "event_msg",
            &format!(
                r#"{{"type":"thread_settings_applied","thread_settings":{{"model":"{model}"}}}}"#
            ),
        )
    };
    // The turn context after the user message (the usual order): the reading goes on past
    // the preview to find it; the second turn's context does not count.
    let after = "0199a213-81c0-7800-8aa1-bbab2a035a51";
    write_session(
        &home,
        after,
        &[
            meta(after),
            user.clone(),
            context("gpt-5-codex"),
            context("o3"),
        ],
    )?;
    // A settings change before the first turn context: the first one naming a model wins.
    let settings_first = "0199a213-81c0-7800-8aa1-bbab2a035a52";
    write_session(
        &home,
        settings_first,
        &[
            meta(settings_first),
            settings("gpt-5.5"),
            context("gpt-5-codex"),
            user.clone(),
        ],
    )?;
    // No model within the lines the head reads: none, and the session is still listed.
    let none = "0199a213-81c0-7800-8aa1-bbab2a035a53";
    let mut lines = vec![meta(none), user];
    lines.extend(std::iter::repeat_n(
        head_line("event_msg", r#"{"type":"agent_message","message":"x"}"#),
        HEAD_RECORD_LIMIT + USER_EVENT_SCAN_LIMIT,
    ));
    lines.push(context("too-late"));
    write_session(&home, none, &lines)?;

    let page = list_sessions(&home, 10, None)?;
    let models: Vec<(String, Option<String>)> = page
        .items
        .iter()
        .map(|item| (item.thread_id().to_string(), item.model.clone()))
        .collect();
    assert_eq!(
        models,
        [
            (none.to_string(), None),
            (settings_first.to_string(), Some("gpt-5.5".to_string())),
            (after.to_string(), Some("gpt-5-codex".to_string())),
        ]
    );
    Ok(())
}

#[test]
fn a_thread_in_two_files_is_one_thread_of_the_listing() -> Result<(), Box<dyn std::error::Error>> {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let id = "0199a213-81c0-7800-8aa1-bbab2a035a51";
    let meta = head_line(
        "session_meta",
        &format!(
            r#"{{"id":"{id}","timestamp":"2025-01-02T03:04:05.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}}"#
        ),
    );
    let user = head_line("event_msg", r#"{"type":"user_message","message":"hello"}"#);
    let older = write_session(&home, id, &[meta, user])?;
    let day = home.sessions_dir().join("2025").join("01").join("03");
    std::fs::create_dir_all(&day)?;
    let newer = day.join(format!("rollout-2025-01-03T03-04-05-{id}.jsonl"));
    std::fs::copy(&older, &newer)?;
    let filter = SourceFilter::default();
    let page = list_sessions_of(&home, false, 10, None, &filter)?;
    assert_eq!(page.items.len(), 2);
    let threads = list_threads_of(&home, false, 10, &filter)?;
    let paths: Vec<&PathBuf> = threads.iter().map(|summary| &summary.path).collect();
    assert_eq!(paths, [&newer]);
    Ok(())
}
