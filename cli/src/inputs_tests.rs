use std::fs;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const A: &str = "rollout-2025-01-02T03-04-05-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl";
const B: &str = "rollout-2025-01-01T03-04-05-0199a213-81c0-7800-8aa1-bbab2a035a54.jsonl.zst";

#[test]
fn files_folders_stdin_and_a_home_expand_in_order() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let day = tmp.path().join("home/sessions/2025/01/02");
    fs::create_dir_all(&day)?;
    fs::write(day.join(A), b"{}\n")?;
    let archived = tmp.path().join("home/archived_sessions");
    fs::create_dir_all(&archived)?;
    fs::write(archived.join(B), b"{}\n")?;
    let loose = tmp.path().join("loose.jsonl");
    fs::write(&loose, b"{}\n")?;
    let sources = expand_sources(
        &[loose.clone(), PathBuf::from("-"), archived.clone()],
        Some(&tmp.path().join("home")),
        WhenEmpty::Sample,
    )?;
    assert_eq!(
        sources,
        [
            Source::File(loose),
            Source::Stdin,
            Source::File(archived.join(B)),
            Source::File(day.join(A)),
        ]
    );
    Ok(())
}

#[test]
fn nothing_given_means_the_sample_or_the_home() -> TestResult {
    assert_eq!(
        expand_sources(&[], None, WhenEmpty::Sample)?,
        [Source::Sample]
    );
    let tmp = tempfile::tempdir()?;
    // A folder that is not a Codex home is refused; one with no session is empty.
    let refused = expand_sources(&[], Some(tmp.path()), WhenEmpty::DefaultHome).err();
    assert!(
        matches!(&refused, Some(Failure::Unreadable(message)) if message.contains("is not a Codex home")),
        "{refused:?}"
    );
    std::fs::create_dir(tmp.path().join("sessions"))?;
    let sources = expand_sources(&[], Some(tmp.path()), WhenEmpty::DefaultHome)?;
    assert_eq!(sources, []);
    Ok(())
}

#[test]
fn a_missing_path_is_named() {
    let missing = PathBuf::from("/definitely/not/here.jsonl");
    let err = expand_sources(&[missing], None, WhenEmpty::Sample).err();
    let message = err.map(|err| err.to_string()).unwrap_or_default();
    assert!(message.contains("/definitely/not/here.jsonl"), "{message}");
}
