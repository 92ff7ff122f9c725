use pretty_assertions::assert_eq;

use super::*;
use crate::read::BytesInput as Bytes;

const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp","originator":"test","cli_version":"0.1.0"}}"#;
const USER: &str = r#"{"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"hi","kind":"plain"}}"#;
const NEWER: &str =
    r#"{"timestamp":"2025-06-02T09:00:02.000Z","type":"from_the_future","payload":{}}"#;

fn kinds(reports: &[ProblemReport]) -> Vec<(usize, &'static str)> {
    reports
        .iter()
        .map(|report| (report.line, report.kind))
        .collect()
}

#[test]
fn problems_are_unreadable_lines_and_notes_the_lines_kept_without_being_understood()
-> std::io::Result<()> {
    let good = validate_input(&Bytes(format!("{META}\n{USER}\n").into_bytes()))?;
    assert_eq!((good.lines, good.problems, good.notes), (2, vec![], vec![]));

    let mixed = format!("{META}\nnot json\n{NEWER}\n{USER}\n");
    let report = validate_input(&Bytes(mixed.into_bytes()))?;
    assert_eq!(report.lines, 4);
    assert_eq!(kinds(&report.problems), vec![(2, "malformed")]);
    assert_eq!(kinds(&report.notes), vec![(3, "unknown_line_type")]);
    Ok(())
}

#[test]
fn a_blank_file_is_one_empty_problem_and_one_without_meta_gets_a_note() -> std::io::Result<()> {
    let blank = validate_input(&Bytes(b"\n  \n".to_vec()))?;
    assert_eq!(kinds(&blank.problems), vec![(0, "empty")]);
    assert_eq!(blank.notes, vec![]);
    let nothing = validate_input(&Bytes(Vec::new()))?;
    assert_eq!(
        (nothing.lines, kinds(&nothing.problems)),
        (0, vec![(0, "empty")])
    );

    let no_meta = validate_input(&Bytes(format!("{USER}\n").into_bytes()))?;
    assert_eq!(no_meta.problems, vec![]);
    assert_eq!(kinds(&no_meta.notes), vec![(0, "no_session_meta")]);
    Ok(())
}
