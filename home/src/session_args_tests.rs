//! The expansion of path arguments on folders, files, `-` and a home.

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
    let sessions = expand_session_args(
        &[loose.clone(), PathBuf::from("-"), archived.clone()],
        Some(&tmp.path().join("home")),
        false,
    )?;
    assert_eq!(
        sessions,
        [
            NamedSession::File(loose),
            NamedSession::Stdin,
            NamedSession::File(archived.join(B)),
            NamedSession::File(day.join(A)),
        ]
    );
    Ok(())
}

#[test]
fn nothing_given_means_nothing_or_the_home() -> TestResult {
    assert_eq!(expand_session_args(&[], None, false)?, []);
    let tmp = tempfile::tempdir()?;
    // A folder that is not a Codex home is refused; one with no session is empty.
    let refused = expand_session_args(&[], Some(tmp.path()), true).err();
    assert!(
        matches!(&refused, Some(error @ SessionArgsError::Home(_))
            if error.to_string().contains("is not a Codex home") && !error.is_usage()),
        "{refused:?}"
    );
    fs::create_dir(tmp.path().join("sessions"))?;
    assert_eq!(expand_session_args(&[], Some(tmp.path()), true)?, []);
    Ok(())
}

#[test]
fn a_missing_path_is_named_or_kept_in_place() -> TestResult {
    let missing = PathBuf::from("/definitely/not/here.jsonl");
    let error = expand_session_args(std::slice::from_ref(&missing), None, false).err();
    let message = error.map(|error| error.to_string()).unwrap_or_default();
    assert_eq!(
        message,
        "cannot read /definitely/not/here.jsonl: no such file or folder"
    );
    // Kept in place, with an empty folder, for a command that reports each.
    let tmp = tempfile::tempdir()?;
    let empty = tmp.path().join("empty");
    fs::create_dir(&empty)?;
    let kept = expand_session_args_keeping_each(&[missing.clone(), empty.clone()], None)?;
    assert_eq!(
        kept,
        [NamedSession::File(missing), NamedSession::File(empty)]
    );
    Ok(())
}

#[test]
fn an_os_message_loses_its_code_and_capitals() {
    let denied = io::Error::from(io::ErrorKind::PermissionDenied);
    assert_eq!(io_message(&denied, "gone"), "permission denied");
    let missing = io::Error::from(io::ErrorKind::NotFound);
    assert_eq!(io_message(&missing, "gone"), "gone");
    let raw = io::Error::from_raw_os_error(21);
    assert_eq!(io_message(&raw, "gone"), "is a directory");
}
