//! `fork --by-reference` and reading its output: the fork is one session meta line naming a
//! prefix of its source; `history` and `prompt` of it, with the source under the Codex home
//! (`--home` or `$CODEX_HOME`, plain or compressed), print exactly what they print for a
//! copied fork of the same turns; a parent missing from the home stops them with exit 2,
//! naming its thread.

use crate::common;

use std::path::{Path, PathBuf};

use codex_rollout::CodexHome;
use codex_rollout::load_rollout_items;
use codex_thread::sample::SAMPLE_JSONL;
use common::{SAMPLE_THREAD_ID, TestResult, bin, name, real_files, stdout_of};
use predicates::prelude::*;

fn arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// Writes `bytes` into a new home as the rollout of the thread they record; returns the home
/// folder and the file.
fn place(
    dir: &Path,
    bytes: &[u8],
) -> Result<Option<(PathBuf, PathBuf)>, Box<dyn std::error::Error>> {
    let scratch = dir.join("scratch.jsonl");
    std::fs::write(&scratch, bytes)?;
    let Ok(loaded) = load_rollout_items(&scratch) else {
        return Ok(None);
    };
    let root = dir.join("home");
    let created = chrono::DateTime::from_timestamp(1_767_225_600, 0).unwrap_or_default();
    let path = CodexHome::new(&root).rollout_path(created, *loaded.thread_id.as_uuid());
    if let Some(folder) = path.parent() {
        std::fs::create_dir_all(folder)?;
    }
    std::fs::rename(&scratch, &path)?;
    Ok(Some((root, path)))
}

/// Forks `parent` without its last `drop` turns both ways; returns (by reference, copied).
fn fork_both(
    dir: &Path,
    home: &Path,
    parent: &Path,
    drop: usize,
) -> Result<(PathBuf, PathBuf), Box<dyn std::error::Error>> {
    let by_reference = dir.join("by-reference.jsonl");
    let copied = dir.join("copied.jsonl");
    let drop = drop.to_string();
    let report: serde_json::Value = serde_json::from_str(&stdout_of(&[
        "fork",
        &arg(parent),
        "--drop-turns",
        &drop,
        "-o",
        &arg(&by_reference),
        "--by-reference",
        "--home",
        &arg(home),
        "--json",
    ])?)?;
    assert_eq!(report["lines_written"], 1, "{report}");
    let base = &report["history_base"];
    assert_eq!(base["thread_id"], report["forked_from_id"], "{report}");
    assert!(base["end_byte_offset"].is_u64(), "{report}");
    stdout_of(&[
        "fork",
        &arg(parent),
        "--drop-turns",
        &drop,
        "-o",
        &arg(&copied),
        "--json",
    ])?;
    assert!(
        !serde_json::from_str::<serde_json::Value>(&stdout_of(&[
            "fork",
            &arg(parent),
            "--drop-turns",
            "0",
            "-o",
            &arg(&dir.join("copied-all.jsonl")),
            "--json",
        ])?)?
        .as_object()
        .is_some_and(|report| report.contains_key("history_base")),
        "a copied fork reports no history_base"
    );
    Ok((by_reference, copied))
}

/// `prompt --json` without the prompt cache key, which is the (different) thread id.
fn prompt_without_key(args: &[&str]) -> Result<serde_json::Value, Box<dyn std::error::Error>> {
    let mut prompt: serde_json::Value = serde_json::from_str(&stdout_of(args)?)?;
    if let Some(body) = prompt.as_object_mut() {
        body.remove("prompt_cache_key");
    }
    Ok(prompt)
}

#[test]
fn history_and_prompt_of_a_fork_by_reference_equal_the_copied_fork() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (home, parent) = place(dir.path(), SAMPLE_JSONL.as_bytes())?.ok_or("sample")?;
    let (by_reference, copied) = fork_both(dir.path(), &home, &parent, 2)?;
    assert_eq!(std::fs::read_to_string(&by_reference)?.lines().count(), 1);
    // `inspect` says which thread the fork continues, and where its prefix ends.
    let inspect: serde_json::Value =
        serde_json::from_str(&stdout_of(&["inspect", "--json", &arg(&by_reference)])?)?;
    let sample: serde_json::Value =
        serde_json::from_str(&stdout_of(&["inspect", "--json", &arg(&parent)])?)?;
    assert_eq!(inspect["history_base"]["thread_id"], sample["thread_id"]);
    assert!(
        inspect["history_base"]["end_byte_offset"]
            .as_u64()
            .is_some()
    );
    assert_eq!(sample["history_base"], serde_json::Value::Null);
    let expected = stdout_of(&["history", &arg(&copied)])?;
    assert!(!expected.is_empty());
    assert_eq!(
        stdout_of(&["history", &arg(&by_reference), "--home", &arg(&home)])?,
        expected
    );
    // `$CODEX_HOME` is the default home.
    let output = bin()?
        .env("CODEX_HOME", &home)
        .args(["history", &arg(&by_reference)])
        .output()?;
    assert!(output.status.success());
    assert_eq!(String::from_utf8(output.stdout)?, expected);
    assert_eq!(
        prompt_without_key(&["prompt", &arg(&by_reference), "--home", &arg(&home)])?,
        prompt_without_key(&["prompt", &arg(&copied)])?
    );
    // A compressed parent (the plain file gone) resolves the same.
    let mut zst = parent.clone().into_os_string();
    zst.push(".zst");
    std::fs::write(
        &zst,
        zstd::encode_all(std::fs::read(&parent)?.as_slice(), 3)?,
    )?;
    std::fs::remove_file(&parent)?;
    assert_eq!(
        stdout_of(&["history", &arg(&by_reference), "--home", &arg(&home)])?,
        expected
    );
    Ok(())
}

#[test]
fn a_missing_parent_stops_history_and_prompt_naming_its_thread() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (home, parent) = place(dir.path(), SAMPLE_JSONL.as_bytes())?.ok_or("sample")?;
    let (by_reference, _) = fork_both(dir.path(), &home, &parent, 1)?;
    let empty = dir.path().join("empty-home");
    // A Codex home (the one home rule), but without the thread.
    std::fs::create_dir_all(empty.join("sessions"))?;
    for command in ["history", "prompt"] {
        bin()?
            .args([command, &arg(&by_reference), "--home", &arg(&empty)])
            .assert()
            .code(2)
            .stdout("")
            .stderr(
                predicate::str::contains(SAMPLE_THREAD_ID)
                    .and(predicate::str::contains(name(&by_reference)))
                    .and(predicate::str::contains("--home")),
            );
    }
    // A line boundary that is not one is wrong content (exit 1).
    let text = std::fs::read_to_string(&by_reference)?;
    let broken = dir.path().join("broken.jsonl");
    let offset = regex_free_offset(&text).ok_or("no end_byte_offset")?;
    std::fs::write(
        &broken,
        text.replace(
            &format!("\"end_byte_offset\":{offset}"),
            &format!("\"end_byte_offset\":{}", offset - 3),
        ),
    )?;
    bin()?
        .args(["history", &arg(&broken), "--home", &arg(&home)])
        .assert()
        .code(1)
        .stderr(predicate::str::contains("not at the start of a line"));
    Ok(())
}

/// The `end_byte_offset` number of a fork line.
fn regex_free_offset(text: &str) -> Option<u64> {
    let rest = text.split("\"end_byte_offset\":").nth(1)?;
    let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
    digits.parse().ok()
}

#[test]
fn by_reference_needs_a_file_whose_thread_is_under_the_home() -> TestResult {
    let dir = tempfile::tempdir()?;
    let out = dir.path().join("fork.jsonl");
    // The bundled sample and standard input cannot be found again.
    bin()?
        .args([
            "fork",
            "--drop-turns",
            "1",
            "-o",
            &arg(&out),
            "--by-reference",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--by-reference needs a FILE"));
    // A file outside the home it names.
    let loose = dir.path().join("loose.jsonl");
    std::fs::write(&loose, SAMPLE_JSONL)?;
    let empty = dir.path().join("empty-home");
    // A Codex home (the one home rule), but without the thread.
    std::fs::create_dir_all(empty.join("sessions"))?;
    bin()?
        .args(["fork", &arg(&loose), "--drop-turns", "1", "-o", &arg(&out)])
        .args(["--by-reference", "--home", &arg(&empty)])
        .assert()
        .code(1)
        .stderr(predicate::str::contains(SAMPLE_THREAD_ID).and(predicate::str::contains("--home")));
    assert!(!out.exists(), "nothing is written when the check fails");
    // `--home` belongs to `--by-reference`.
    bin()?
        .args(["fork", &arg(&loose), "--drop-turns", "1", "-o", &arg(&out)])
        .args(["--home", &arg(&empty)])
        .assert()
        .code(2);
    Ok(())
}

#[test]
fn every_real_session_forked_by_reference_has_the_copied_history() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let mut checked = 0;
    for file in &files {
        let dir = tempfile::tempdir()?;
        let Some((home, parent)) = place(dir.path(), &std::fs::read(file)?)? else {
            continue;
        };
        let inspected: serde_json::Value =
            serde_json::from_str(&stdout_of(&["inspect", "--json", &arg(&parent)])?)?;
        if inspected["user_messages"].as_u64().unwrap_or(0) == 0 {
            continue;
        }
        let (by_reference, copied) = fork_both(dir.path(), &home, &parent, 1)
            .map_err(|err| format!("{}: {err}", name(file)))?;
        assert_eq!(
            stdout_of(&["history", &arg(&by_reference), "--home", &arg(&home)])?,
            stdout_of(&["history", &arg(&copied)])?,
            "{}",
            name(file)
        );
        checked += 1;
    }
    assert!(
        checked >= 10,
        "only {checked} real files were forked by reference"
    );
    Ok(())
}
