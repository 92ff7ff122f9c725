use std::io::Write;

use pretty_assertions::assert_eq;

use super::*;

const META: &str = r#"{"timestamp":"2026-09-01T00:00:00.000Z","ordinal":0,"type":"session_meta","payload":{"id":"01a06421-3bf7-7ed2-a618-e42b6c961905","timestamp":"2026-09-01T00:00:00.000Z","cwd":"/w","originator":"o","cli_version":"0.152.1","history_mode":"paginated"}}"#;

fn file_with(text: &str) -> Result<tempfile::NamedTempFile> {
    let mut file = tempfile::NamedTempFile::new().map_err(|err| RolloutError::io("t", "t", err))?;
    file.write_all(text.as_bytes())
        .map_err(|err| RolloutError::io("t", "t", err))?;
    Ok(file)
}

fn event(ordinal: u64) -> String {
    format!(
        r#"{{"timestamp":"2026-09-01T00:00:01.000Z","ordinal":{ordinal},"type":"event_msg","payload":{{"type":"task_started","turn_id":"t"}}}}"#
    )
}

#[test]
fn paginated_file_continues_after_its_last_ordinal() -> Result<()> {
    let file = file_with(&format!("{META}\n{}\n{}\n", event(1), event(2)))?;
    let point = read_resume_point(file.path())?;
    assert_eq!(point.mode, HistoryMode::Paginated);
    assert_eq!(point.next_ordinal, Some(3));
    Ok(())
}

#[test]
fn a_torn_last_line_and_lines_longer_than_a_chunk_are_handled() -> Result<()> {
    let long = format!(
        r#"{{"timestamp":"t","ordinal":7,"type":"event_msg","payload":{{"type":"agent_message","message":"{}"}}}}"#,
        "x".repeat(3 * 1024 * 1024) // longer than a block of the backward reader
    );
    let file = file_with(&format!("{META}\n{long}\n{{\"timestamp\":\"t\",\"ordi\n"))?;
    assert_eq!(read_resume_point(file.path())?.next_ordinal, Some(8));
    Ok(())
}

#[test]
fn a_meta_only_file_starts_at_one_and_legacy_has_no_ordinals() -> Result<()> {
    let file = file_with(&format!("{META}\n"))?;
    assert_eq!(read_resume_point(file.path())?.next_ordinal, Some(1));
    let legacy = META
        .replace(r#","ordinal":0"#, "")
        .replace("paginated", "legacy");
    let file = file_with(&format!("{legacy}\n{}\n", event(4)))?;
    let point = read_resume_point(file.path())?;
    assert_eq!(point.mode, HistoryMode::Legacy);
    assert_eq!(point.next_ordinal, None);
    Ok(())
}
