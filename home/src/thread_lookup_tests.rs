//! What a fork by reference is read back from.

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const THREAD: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55";
const META: &str = r#"{"timestamp":"2025-06-02T09:00:00.000Z","type":"session_meta","payload":{"id":"0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/tmp/demo","originator":"docs","cli_version":"0.1.0"}}"#;

#[test]
fn a_fork_base_is_the_homes_file_of_the_thread() -> TestResult {
    let dir = tempfile::tempdir()?;
    let day = dir.path().join("home/sessions/2025/06/02");
    std::fs::create_dir_all(&day)?;
    let in_home = day.join(format!("rollout-2025-06-02T09-00-00-{THREAD}.jsonl"));
    std::fs::write(&in_home, format!("{META}\n"))?;
    let home = CodexHome::new(dir.path().join("home"));
    let thread = ThreadId::from_string(THREAD)?;

    assert_eq!(
        fork_base_in(&home, thread, &in_home)?,
        (in_home.clone(), true)
    );
    // A copy elsewhere is forked as the home's file of its thread.
    let copy = dir.path().join("copy.jsonl");
    std::fs::copy(&in_home, &copy)?;
    assert_eq!(fork_base_in(&home, thread, &copy)?, (in_home, false));
    // A home without the thread could never read the fork back.
    let empty = CodexHome::new(dir.path().join("empty"));
    std::fs::create_dir_all(empty.sessions_dir())?;
    let refused = fork_base_in(&empty, thread, &copy).err();
    assert!(
        matches!(&refused, Some(ThreadLookupError::NoForkBase { .. })),
        "{refused:?}"
    );
    let message = refused.map(|err| err.to_string()).unwrap_or_default();
    assert!(
        message.contains(THREAD) && message.contains("--home"),
        "{message}"
    );
    Ok(())
}
