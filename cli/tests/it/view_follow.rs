//! `view --follow FILE` on a session written line by line: a torn last line waits for the
//! rest, the file may be compressed and then archived and written back plain, and what the
//! follow has printed at the end equals `view` of the finished file without its status line.

use crate::common;

use std::path::Path;
use std::time::Duration;

use common::view::{Follow, SAMPLE};
use common::{TestResult, bin};

const NAME: &str = "rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl";

/// `view FILE` piped, without its status line.
fn view_cells(file: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let output = bin()?.arg("view").arg(file).output()?;
    let text = String::from_utf8(output.stdout)?;
    let (cells, status) = text.trim_end().rsplit_once('\n').ok_or("one line")?;
    assert!(status.starts_with("status: "), "{status}");
    Ok(format!("{cells}\n"))
}

#[test]
fn follow_waits_for_torn_lines_and_survives_compression_and_archiving() -> TestResult {
    let home = tempfile::tempdir()?;
    let day = home.path().join("sessions/2025/06/02");
    let archived = home.path().join("archived_sessions");
    std::fs::create_dir_all(&day)?;
    std::fs::create_dir_all(&archived)?;
    let live = day.join(NAME);
    let sample = std::fs::read_to_string(SAMPLE)?;
    let lines: Vec<&str> = sample.lines().collect();
    // Turn 1 complete (through its task_complete, line 22), then half of turn 2's user message.
    let turn_one: String = lines[..22].iter().map(|line| format!("{line}\n")).collect();
    let user_two = lines
        .iter()
        .position(|line| line.contains("Add a --verbose flag") && line.contains("item_completed"))
        .ok_or("no turn-2 user item")?;
    let before_user: String = lines[22..user_two]
        .iter()
        .map(|line| format!("{line}\n"))
        .collect();
    let torn = lines[user_two];
    let (head, tail) = torn.split_at(torn.len() / 2);
    std::fs::write(&live, format!("{turn_one}{before_user}{head}"))?;

    let follow = Follow::start(&live)?;
    let text = follow.wait_for("turn 1's separator", |text| text.contains("─── turn 1 "))?;
    assert!(
        text.starts_with("thread 0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55\n"),
        "{text}"
    );
    // Twenty polls later the torn line is still not shown.
    std::thread::sleep(Duration::from_millis(1000));
    assert!(
        !follow.text().contains("› Add a --verbose flag"),
        "{}",
        follow.text()
    );
    // The rest of the line arrives: the message shows.
    let mut grown = std::fs::read_to_string(&live)?;
    grown.push_str(tail);
    grown.push('\n');
    std::fs::write(&live, &grown)?;
    follow.wait_for("turn 2's user message", |text| {
        text.contains("› Add a --verbose flag to the CLI.")
    })?;
    // Compressed beside itself: still followed, nothing new to show.
    let compressed = day.join(format!("{NAME}.zst"));
    std::fs::write(&compressed, zstd::encode_all(grown.as_bytes(), 3)?)?;
    std::fs::remove_file(&live)?;
    let shown = follow.text();
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(follow.text(), shown);
    // Archived, written back plain, and the session goes on to its end there.
    std::fs::write(archived.join(NAME), &sample)?;
    std::fs::remove_file(&compressed)?;
    let expected = view_cells(Path::new(SAMPLE))?;
    follow.wait_for("the whole session", |text| text == expected)?;
    Ok(())
}

/// Codex writes a person's message as a `response_item` and its `user_message` record a
/// moment later: a follow that polls in between holds the change back until the record says
/// how the file records its turns, so nothing shown is rewritten.
#[test]
fn a_message_caught_before_its_record_is_not_shown_twice() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join(NAME);
    let ts = r#""timestamp":"2025-06-02T09:00:00.000Z""#;
    let head = [
        format!(
            r#"{{{ts},"type":"session_meta","payload":{{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/work","originator":"codex_exec","cli_version":"0.169.0"}}}}"#
        ),
        format!(
            r#"{{{ts},"type":"event_msg","payload":{{"type":"task_started","turn_id":"t1"}}}}"#
        ),
        format!(
            r#"{{{ts},"type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"caught early"}}]}}}}"#
        ),
    ];
    let rest = [
        format!(
            r#"{{{ts},"type":"event_msg","payload":{{"type":"user_message","message":"caught early"}}}}"#
        ),
        format!(
            r#"{{{ts},"type":"response_item","payload":{{"type":"message","role":"assistant","content":[{{"type":"output_text","text":"Answered."}}]}}}}"#
        ),
        format!(
            r#"{{{ts},"type":"event_msg","payload":{{"type":"task_complete","turn_id":"t1"}}}}"#
        ),
    ];
    std::fs::write(&file, head.join("\n") + "\n")?;
    let follow = Follow::start(&file)?;
    // A few polls (every 50 ms) see the message without its record: fewer than the follow
    // holds an undecided change for.
    std::thread::sleep(Duration::from_millis(250));
    std::fs::write(&file, head.join("\n") + "\n" + &rest.join("\n") + "\n")?;
    let expected = view_cells(&file)?;
    let text = follow.wait_for("the finished turn", |text| text == expected)?;
    assert!(!text.contains("history rewritten"), "{text}");
    Ok(())
}
