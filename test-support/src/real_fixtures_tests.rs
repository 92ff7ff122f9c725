use std::path::Path;

use super::*;
use crate::required_from;

const MISSING: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/no-such-fixtures-folder");

#[test]
fn missing_folder_is_skipped_when_not_required() {
    assert_eq!(fixtures_dir_at(Path::new(MISSING), false), None);
}

#[test]
#[should_panic(expected = "CODEX_REQUIRE_REAL_FIXTURES=1 but the real fixtures folder")]
fn missing_folder_fails_when_required() {
    let _ = fixtures_dir_at(Path::new(MISSING), true);
}

#[test]
fn present_folder_is_returned_whatever_the_requirement() {
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    assert_eq!(fixtures_dir_at(here, true), Some(here.to_path_buf()));
    assert_eq!(fixtures_dir_at(here, false), Some(here.to_path_buf()));
}

#[test]
fn only_exactly_one_requires_the_fixtures() {
    assert!(required_from(Some("1")));
    for value in [None, Some(""), Some("0"), Some("true"), Some(" 1")] {
        assert!(!required_from(value), "{value:?}");
    }
}

#[test]
fn jsonl_files_are_sorted_and_filtered() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::temp_dir().join(format!("codex-test-support-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("nested.jsonl"))?;
    for name in ["b.jsonl", "a.jsonl", "notes.md", "c.json"] {
        std::fs::write(dir.join(name), "{}\n\n{\"x\":1}\n")?;
    }
    let files = jsonl_files_in(&dir)?;
    let lines = non_empty_lines(&dir.join("a.jsonl"))?;
    std::fs::remove_dir_all(&dir)?;
    assert_eq!(files, vec![dir.join("a.jsonl"), dir.join("b.jsonl")]);
    assert_eq!(lines, vec![b"{}".to_vec(), b"{\"x\":1}".to_vec()]);
    Ok(())
}
