use pretty_assertions::assert_eq;

use super::*;
use crate::read::BytesInput as Bytes;

const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"5973b6c0-94b8-487b-a530-2aeb6098ae0e","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp","originator":"test","cli_version":"0.1.0"}}"#;
const USER: &str = r#"{"timestamp":"2025-06-02T09:00:01.000Z","type":"event_msg","payload":{"type":"user_message","message":"hi","kind":"plain"}}"#;

#[test]
fn an_input_is_inspected_in_one_pass_and_an_empty_one_is_an_error() -> Result<(), ReadError> {
    let session = Bytes(format!("{META}\nnot json\n{USER}\n").into_bytes());
    let inspection = inspect_input(&session, &session)?;
    assert_eq!(
        (
            inspection.lines,
            inspection.problems.len(),
            inspection.user_messages
        ),
        (3, 1, 1)
    );
    assert_eq!(
        inspection.thread_id.as_deref(),
        Some("5973b6c0-94b8-487b-a530-2aeb6098ae0e")
    );
    let empty = Bytes(Vec::new());
    assert!(matches!(
        inspect_input(&empty, &empty),
        Err(ReadError::Empty { .. })
    ));
    Ok(())
}
