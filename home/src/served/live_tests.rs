use codex_rollout::CodexHome;
use pretty_assertions::assert_eq;
use serde_json::{Value, json};

use super::*;

type TestResult<T = ()> = Result<T, Box<dyn std::error::Error>>;

#[test]
fn only_a_request_is_owed_an_answer_its_result_or_its_error_with_the_code() -> TestResult {
    let dir = tempfile::tempdir()?;
    std::fs::create_dir_all(dir.path().join("sessions"))?;
    let served = Arc::new(ServedHome::new(CodexHome::new(dir.path())));
    let mut connection = ServedConnection::new(served, |_| true);

    let notification = r#"{"jsonrpc":"2.0","method":"initialized"}"#;
    assert_eq!(connection.answer_text(notification)?, None);
    assert_eq!(connection.answer_text(r#"{"id":1,"result":{}}"#)?, None);
    assert!(connection.answer_text("not json").is_err());

    let answer = |connection: &mut ServedConnection, request: Value| -> TestResult<Value> {
        let text = connection
            .answer_text(&request.to_string())?
            .ok_or("no answer")?;
        Ok(serde_json::from_str(&text)?)
    };
    let loaded = answer(
        &mut connection,
        json!({"id": 7, "method": "thread/loaded/list", "params": {}}),
    )?;
    assert_eq!(
        (&loaded["id"], loaded.get("result").is_some()),
        (&json!(7), true)
    );
    let refused = answer(
        &mut connection,
        json!({"id": "w", "method": "thread/start", "params": {}}),
    )?;
    assert_eq!(
        (&refused["id"], &refused["error"]["code"]),
        (&json!("w"), &json!(-32600))
    );
    Ok(())
}
