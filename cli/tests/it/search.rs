//! `codex-thread search` and thread ids in place of files, over a home built from the real
//! session files in a temporary folder (the cache directory pointed there too).

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Stdio;

use common::{TestResult, bin, real_files};

const A: &str = "01a0aaaa-0000-7000-8000-000000000001";
const B: &str = "01a0aaab-0000-7000-8000-000000000002";

/// A home with every real file (under its own rollout name when it has one) and two
/// sessions of ours whose ids share a prefix.
fn real_home(dir: &Path) -> Result<Option<PathBuf>, Box<dyn std::error::Error>> {
    let Some(files) = real_files()? else {
        return Ok(None);
    };
    let home = dir.join("home");
    let day = home.join("sessions/2026/01/02");
    std::fs::create_dir_all(&day)?;
    for (n, file) in files.iter().enumerate() {
        let name = file
            .file_name()
            .and_then(|name| name.to_str())
            .unwrap_or_default();
        let name = match name.find("rollout-20") {
            Some(at) => name[at..].to_string(),
            None => {
                format!("rollout-2026-01-02T00-00-{n:02}-01900000-0000-7000-8000-{n:012}.jsonl")
            }
        };
        std::fs::copy(file, day.join(name))?;
    }
    for (id, word) in [(A, "zanzibar"), (B, "zanzibar quokka")] {
        std::fs::write(
            day.join(format!("rollout-2026-01-02T01-00-00-{id}.jsonl")),
            format!(
                concat!(
                    r#"{{"timestamp":"2026-01-02T01:00:00.000Z","type":"session_meta","payload":{{"session_id":"{id}","id":"{id}","timestamp":"2026-01-02T01:00:00.000Z","cwd":"/work/zoo","originator":"codex_cli_rs","cli_version":"0.150.0"}}}}"#,
                    "\n",
                    r#"{{"timestamp":"2026-01-02T01:00:01.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"tell me about {word}"}}]}}}}"#,
                    "\n",
                    r#"{{"timestamp":"2026-01-02T01:00:01.000Z","type":"event_msg","payload":{{"type":"user_message","message":"tell me about {word}","kind":"plain"}}}}"#,
                    "\n"
                ),
                id = id,
                word = word
            ),
        )?;
    }
    Ok(Some(home))
}

fn search(
    dir: &Path,
    home: &Path,
    args: &[&str],
) -> Result<assert_cmd::assert::Assert, Box<dyn std::error::Error>> {
    Ok(bin()?
        .env("XDG_CACHE_HOME", dir.join("cache"))
        .env("HOME", dir)
        .arg("search")
        .arg("--home")
        .arg(home)
        .args(args)
        .assert())
}

#[test]
fn search_finds_hits_with_how_to_resume_them() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(home) = real_home(dir.path())? else {
        return Ok(());
    };
    let output = search(dir.path(), &home, &["--json", "quokka"])?
        .success()
        .get_output()
        .stdout
        .clone();
    let results: serde_json::Value = serde_json::from_slice(&output)?;
    let hits = results["hits"].as_array().ok_or("no hits array")?;
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0]["thread_id"], B);
    assert_eq!(hits[0]["resume"], format!("codex resume {B}"));
    assert_eq!(hits[0]["snippet"], "tell me about zanzibar [quokka]");
    assert_eq!(
        (hits[0]["turn"].as_u64(), hits[0]["line"].as_u64()),
        (Some(1), Some(2))
    );
    // The default index went to the cache directory.
    assert!(dir.path().join("cache/codex-thread/index.sqlite").is_file());

    // Text output: the hit, then the resume line.
    let text = search(
        dir.path(),
        &home,
        &["zanzibar", "--cwd", "/work/zoo", "--role", "user"],
    )?
    .success();
    let stdout = String::from_utf8(text.get_output().stdout.clone())?;
    assert_eq!(stdout.matches("codex resume ").count(), 2, "{stdout}");
    // Real content is found too, and filters narrow it.
    let all = search(dir.path(), &home, &["--json", "--limit", "1000", "the"])?.success();
    let all: serde_json::Value = serde_json::from_slice(&all.get_output().stdout)?;
    let users = search(
        dir.path(),
        &home,
        &["--json", "--limit", "1000", "--role", "user", "the"],
    )?
    .success();
    let users: serde_json::Value = serde_json::from_slice(&users.get_output().stdout)?;
    let count = |value: &serde_json::Value| value["hits"].as_array().map_or(0, Vec::len);
    assert!(count(&all) > count(&users) && count(&users) > 0);
    // A bad query in FTS5 syntax is a usage error that says so.
    let bad = search(dir.path(), &home, &["--fts", "\"unclosed"])?.code(2);
    let stderr = String::from_utf8(bad.get_output().stderr.clone())?;
    assert!(stderr.contains("bad search query"), "{stderr}");
    Ok(())
}

/// Typed text is searched as text: FTS5's operators and column filters are plain characters,
/// CJK words are found inside a run of characters, and a search that finds nothing exits 1
/// (grep's convention), with and without --json.
#[test]
fn typed_text_is_text_and_no_hit_exits_1() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(home) = real_home(dir.path())? else {
        return Ok(());
    };
    let hits = |args: &[&str]| -> Result<usize, Box<dyn std::error::Error>> {
        let output = search(dir.path(), &home, args)?.success();
        let results: serde_json::Value = serde_json::from_slice(&output.get_output().stdout)?;
        Ok(results["hits"].as_array().map_or(0, Vec::len))
    };
    // Inside runs of Chinese characters in the real files: four characters, and two (no
    // trigram holds them).
    assert!(hits(&["--json", "当前项目"])? > 0);
    assert!(hits(&["--json", "项目"])? >= hits(&["--json", "当前项目"])?);
    for query in ["senior-level code review", "\"unclosed", "col:umn NEAR(x"] {
        let none = search(dir.path(), &home, &[query])?.code(1);
        let stderr = String::from_utf8(none.get_output().stderr.clone())?;
        assert!(stderr.contains("no match"), "{query}: {stderr}");
        search(dir.path(), &home, &["--json", query])?.code(1);
    }
    Ok(())
}

#[test]
fn two_searches_at_once_both_answer() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(home) = real_home(dir.path())? else {
        return Ok(());
    };
    let binary = assert_cmd::cargo::cargo_bin("codex-thread");
    let spawn = || {
        std::process::Command::new(&binary)
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .args(["search", "--json", "--limit", "5000", "--home"])
            .arg(&home)
            .args(["--fts", "error OR zanzibar"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
    };
    let (first, second) = (spawn()?, spawn()?);
    let mut counts = Vec::new();
    for child in [first, second] {
        let output = child.wait_with_output()?;
        assert!(
            output.status.success(),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let results: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        counts.push(results["hits"].as_array().map_or(0, Vec::len));
    }
    // Whichever finished first may have seen part of the index; the full answer is the same.
    let after = search(
        dir.path(),
        &home,
        &["--json", "--limit", "5000", "--fts", "error OR zanzibar"],
    )?
    .success();
    let after: serde_json::Value = serde_json::from_slice(&after.get_output().stdout)?;
    let full = after["hits"].as_array().map_or(0, Vec::len);
    assert!(
        counts.iter().all(|count| *count <= full) && counts.contains(&full),
        "{counts:?} {full}"
    );
    Ok(())
}

#[test]
fn a_corrupt_index_is_rebuilt_with_a_message() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(home) = real_home(dir.path())? else {
        return Ok(());
    };
    let index = dir.path().join("index.sqlite");
    let index_arg = index.display().to_string();
    search(dir.path(), &home, &["--index", &index_arg, "quokka"])?.success();
    std::fs::write(&index, b"not an index at all".repeat(500))?;
    let _ = std::fs::remove_file(dir.path().join("index.sqlite-wal"));
    search(dir.path(), &home, &["--index", &index_arg, "quokka"])?
        .success()
        .stdout(predicates::str::contains("[quokka]"))
        .stderr(predicates::str::contains("rebuilt it"));
    Ok(())
}

#[test]
fn thread_ids_and_prefixes_name_sessions() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(home) = real_home(dir.path())? else {
        return Ok(());
    };
    let run = |args: &[&str]| -> Result<assert_cmd::assert::Assert, Box<dyn std::error::Error>> {
        Ok(bin()?
            .env("CODEX_HOME", &home)
            .env("XDG_CACHE_HOME", dir.path().join("cache"))
            .args(args)
            .assert())
    };
    // By file names (no index yet), then through the index.
    for _ in 0..2 {
        run(&["inspect", A])?
            .success()
            .stdout(predicates::str::contains(A));
        run(&["inspect", "01a0aaab"])?
            .success()
            .stdout(predicates::str::contains(B));
        run(&["export", "01A0AAAB-0000"])?
            .success()
            .stdout(predicates::str::contains("quokka"));
        run(&["validate", "01a0aaaa"])?.success();
        // Ambiguous: both candidates listed, exit 2.
        run(&["inspect", "01a0aaa"])?
            .code(2)
            .stderr(predicates::str::contains(A).and(predicates::str::contains(B)));
        run(&["inspect", "0badf00d"])?
            .code(2)
            .stderr(predicates::str::contains("no session"));
        search(dir.path(), &home, &["quokka"])?.success();
    }
    Ok(())
}

use predicates::prelude::PredicateBooleanExt;

/// `--since`/`--until` days are days in `--timezone`, as `usage` counts them: the two
/// messages written at 01:00 UTC on 2 January fall on 2 January in Tokyo but on 1 January in
/// Los Angeles.
#[test]
fn a_day_of_since_and_until_is_a_day_in_the_given_zone() -> TestResult {
    let dir = tempfile::tempdir()?;
    let Some(home) = real_home(dir.path())? else {
        return Ok(());
    };
    let hits = |args: &[&str]| -> Result<usize, Box<dyn std::error::Error>> {
        let mut all = vec!["--json", "zanzibar"];
        all.extend_from_slice(args);
        let output = search(dir.path(), &home, &all)?;
        let output = output.get_output();
        let results: serde_json::Value = serde_json::from_slice(&output.stdout)?;
        let hits = results["hits"].as_array().map_or(0, Vec::len);
        // No hit exits 1.
        assert_eq!(output.status.code(), Some(i32::from(hits == 0)), "{args:?}");
        Ok(hits)
    };
    let since = ["--since", "2026-01-02", "--timezone"];
    assert_eq!(hits(&[since.as_slice(), &["Asia/Tokyo"]].concat())?, 2);
    assert_eq!(hits(&[since.as_slice(), &["UTC"]].concat())?, 2);
    assert_eq!(
        hits(&[since.as_slice(), &["America/Los_Angeles"]].concat())?,
        0
    );
    let until = ["--until", "2026-01-01", "--timezone"];
    assert_eq!(
        hits(&[until.as_slice(), &["America/Los_Angeles"]].concat())?,
        2
    );
    assert_eq!(hits(&[until.as_slice(), &["UTC"]].concat())?, 0);
    search(
        dir.path(),
        &home,
        &[
            "zanzibar",
            "--since",
            "2026-01-02",
            "--timezone",
            "Mars/Olympus",
        ],
    )?
    .code(2);
    Ok(())
}
