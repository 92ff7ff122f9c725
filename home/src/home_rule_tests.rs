//! The home rule on each kind of folder.

use super::*;

type TestResult = std::result::Result<(), Box<dyn std::error::Error>>;

#[test]
fn a_folder_holding_anything_codex_writes_is_a_home() -> TestResult {
    let markers = HOME_MARKERS
        .iter()
        .copied()
        .chain(["state_5.sqlite", "state.sqlite"]);
    for marker in markers {
        let dir = tempfile::tempdir()?;
        if marker.contains('.') {
            std::fs::write(dir.path().join(marker), "")?;
        } else {
            std::fs::create_dir(dir.path().join(marker))?;
        }
        check_home(&CodexHome::new(dir.path())).map_err(|err| format!("{marker}: {err}"))?;
    }
    Ok(())
}

#[test]
fn a_missing_empty_unrelated_or_file_home_is_refused() -> TestResult {
    let dir = tempfile::tempdir()?;
    let missing = dir.path().join("nope");
    assert!(matches!(
        check_home(&CodexHome::new(&missing)),
        Err(NotAHome::Missing { .. })
    ));
    let empty = dir.path().join("empty");
    std::fs::create_dir(&empty)?;
    std::fs::write(empty.join("notes.txt"), "mine")?;
    let error = check_home(&CodexHome::new(&empty)).err();
    assert!(
        matches!(error, Some(NotAHome::Unmarked { .. })),
        "{error:?}"
    );
    let file = dir.path().join("file");
    std::fs::write(&file, "")?;
    assert!(matches!(
        check_home(&CodexHome::new(&file)),
        Err(NotAHome::NotAFolder { .. })
    ));
    // Nothing was written by the checks.
    assert!(!missing.exists());
    assert_eq!(std::fs::read_dir(&empty)?.count(), 1);
    Ok(())
}
