use pretty_assertions::assert_eq;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn line(kind: &str, payload: &str) -> String {
    format!(r#"{{"timestamp":"2025-01-02T03:04:05.000Z","type":"{kind}","payload":{payload}}}"#)
}

/// A session of `turns` turns (three lines each) after its meta; its path and items.
fn session(
    dir: &Path,
    turns: usize,
) -> Result<(std::path::PathBuf, Vec<RolloutItem>), Box<dyn std::error::Error>> {
    let mut lines = vec![line(
        "session_meta",
        r#"{"id":"0199a213-81c0-7800-8aa1-bbab2a035a53","timestamp":"2025-01-02T03:04:05.000Z","cwd":"/w","originator":"t","cli_version":"0.1.0"}"#,
    )];
    for turn in 1..=turns {
        lines.push(line(
            "event_msg",
            &format!(r#"{{"type":"task_started","turn_id":"turn-{turn}"}}"#),
        ));
        lines.push(line(
            "event_msg",
            &format!(r#"{{"type":"user_message","message":"question {turn}"}}"#),
        ));
        lines.push(line(
            "event_msg",
            &format!(r#"{{"type":"task_complete","turn_id":"turn-{turn}"}}"#),
        ));
    }
    let path = dir.join("session.jsonl");
    std::fs::write(&path, lines.join("\n") + "\n")?;
    let items = lines
        .iter()
        .filter_map(|line| item_of(line.as_bytes()))
        .collect();
    Ok((path, items))
}

#[test]
fn pages_backwards_hold_every_line_once_in_whole_turns() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (path, all) = session(dir.path(), 5)?;
    let len = std::fs::metadata(&path)?.len();
    let mut pages = Vec::new();
    let mut end = len;
    while end > 0 {
        let page = turns_before(&path, end, 2, u64::MAX)?;
        assert!(page.start < end);
        assert_eq!(page.end, end);
        end = page.start;
        pages.push(page);
    }
    // [4, 5], [2, 3], then the meta and turn 1.
    assert_eq!(
        pages.iter().map(|page| page.turns).collect::<Vec<_>>(),
        [2, 2, 1]
    );
    assert!(pages.iter().take(2).all(|page| opens_turn(&page.items[0])));
    let joined: Vec<RolloutItem> = pages
        .iter()
        .rev()
        .flat_map(|page| page.items.clone())
        .collect();
    assert_eq!(joined, all);
    // A byte budget stops the page at the first turn start past it.
    let page = turns_before(&path, len, 5, 1)?;
    assert_eq!((page.turns, page.items.len()), (1, 3));
    Ok(())
}

#[test]
fn pages_forwards_hold_every_line_once_in_whole_turns() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (path, all) = session(dir.path(), 5)?;
    let len = std::fs::metadata(&path)?.len();
    let mut joined = Vec::new();
    let mut start = 0;
    let mut counts = Vec::new();
    while start < len {
        let page = turns_from(&path, start, 2)?;
        assert!(page.end > start);
        start = page.end;
        counts.push(page.turns);
        joined.extend(page.items);
    }
    assert_eq!(counts, [2, 2, 1]);
    assert_eq!(joined, all);
    // A page read forwards ends where a page read backwards starts.
    let back = turns_before(&path, len, 3, u64::MAX)?;
    assert_eq!(turns_from(&path, 0, 2)?.end, back.start);
    Ok(())
}
