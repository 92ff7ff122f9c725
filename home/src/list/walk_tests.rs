use std::fs;
use std::path::Path;

use pretty_assertions::assert_eq;

use super::*;
use codex_rollout::CodexHome;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const A: &str = "rollout-2025-01-02T03-04-05-0199a213-81c0-7800-8aa1-bbab2a035a53.jsonl";
const B: &str = "rollout-2025-01-01T03-04-05-0199a213-81c0-7800-8aa1-bbab2a035a54.jsonl";
const C: &str = "rollout-2025-02-01T03-04-05-0199a213-81c0-7800-8aa1-bbab2a035a55.jsonl.zst";

fn touch(dir: &Path, name: &str) -> std::io::Result<()> {
    fs::create_dir_all(dir)?;
    fs::write(dir.join(name), b"{}\n")
}

fn names(paths: impl IntoIterator<Item = PathBuf>) -> Vec<String> {
    paths
        .into_iter()
        .filter_map(|path| Some(path.file_name()?.to_str()?.to_string()))
        .collect()
}

#[test]
fn a_home_walk_finds_live_then_archived_each_session_once() -> TestResult {
    let tmp = tempfile::tempdir()?;
    let home = CodexHome::new(tmp.path());
    let day = tmp.path().join("sessions/2025/01/02");
    touch(&day, A)?;
    touch(&day, &format!("{A}.zst"))?;
    touch(&tmp.path().join("sessions/2025/01/01"), B)?;
    touch(&tmp.path().join("sessions/2025/01/01"), "notes.txt")?;
    touch(&home.archived_sessions_dir(), C)?;
    let found = all_rollout_files(&home)?;
    assert_eq!(names(found.iter().map(|file| file.path.clone())), [B, A, C]);
    assert_eq!(
        found.iter().map(|file| file.archived).collect::<Vec<_>>(),
        [false, false, true]
    );
    Ok(())
}

#[test]
fn an_empty_home_has_no_files() -> TestResult {
    let tmp = tempfile::tempdir()?;
    assert_eq!(all_rollout_files(&CodexHome::new(tmp.path()))?, []);
    Ok(())
}

#[test]
fn a_folder_walk_finds_rollouts_at_any_depth() -> TestResult {
    let tmp = tempfile::tempdir()?;
    touch(&tmp.path().join("x/y"), A)?;
    touch(&tmp.path().join("x/y"), &format!("{A}.zst"))?;
    touch(tmp.path(), C)?;
    touch(tmp.path(), "rollout-bad.jsonl")?;
    let found = rollout_files_under(tmp.path())?;
    assert_eq!(names(found.clone()), [C, A]);
    assert!(found.iter().all(|path| is_rollout_file_name(path)));
    assert!(rollout_files_under(&tmp.path().join("missing")).is_err());
    Ok(())
}
