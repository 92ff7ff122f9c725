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
