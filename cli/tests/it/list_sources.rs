//! `list` over named files, folders and `--home` at once, on a home made of the real session
//! files: each named session is shown exactly as the home's own listing shows it (one
//! summary function for both), in the order given, and a missing path is reported in its
//! place with exit status 2.

use crate::common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::home::{OLD, home_of_real_files};
use common::{TestResult, bin, real_files};
use serde_json::Value;

fn json_lines(bytes: &[u8]) -> Result<Vec<Value>, serde_json::Error> {
    bytes
        .split(|b| *b == b'\n')
        .filter(|line| !line.is_empty())
        .map(serde_json::from_slice)
        .collect()
}

/// Every session the home's listing shows (live, or archived), by path.
fn home_listing(
    home: &Path,
    archived: bool,
) -> Result<BTreeMap<String, Value>, Box<dyn std::error::Error>> {
    let mut command = bin()?;
    command
        .args(["list", "--json", "--limit", "100000", "--home"])
        .arg(home);
    if archived {
        command.arg("--archived");
    }
    let output = command.output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let listing: Value = serde_json::from_slice(&output.stdout)?;
    assert!(listing["next_cursor"].is_null());
    let mut sessions = BTreeMap::new();
    for session in listing["sessions"].as_array().ok_or("no sessions")? {
        let path = session["path"].as_str().ok_or("no path")?.to_string();
        sessions.insert(path, session.clone());
    }
    Ok(sessions)
}

/// A home of the real files, one of them moved to `archived_sessions/`. Returns the home and
/// the files in it.
fn real_home(real: &[PathBuf], root: &Path) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let mut copies = home_of_real_files(real, root, OLD)?;
    let moved = copies.pop().ok_or("no real file has a rollout name")?;
    let archived = root.join("archived_sessions");
    std::fs::create_dir_all(&archived)?;
    let target = archived.join(moved.file_name().ok_or("no name")?);
    std::fs::rename(&moved, &target)?;
    copies.push(target);
    Ok(copies)
}

#[test]
fn files_folders_and_a_home_list_as_the_home_listing_does_in_the_order_given() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    let tmp = tempfile::tempdir()?;
    let home = tmp.path().join("home");
    let copies = real_home(&real, &home)?;
    assert!(copies.len() >= 3, "too few real files with rollout names");
    let mut listed = home_listing(&home, false)?;
    listed.extend(home_listing(&home, true)?);
    assert!(!listed.is_empty());

    // A file, a missing path, a day folder, then the whole home (which repeats both).
    let file = copies.last().ok_or("no copy")?.clone();
    let folder = copies[0].parent().ok_or("no folder")?.to_path_buf();
    let missing = tmp.path().join("gone.jsonl");
    let output = bin()?
        .args(["list", "--json"])
        .arg(&file)
        .arg(&missing)
        .arg(&folder)
        .arg("--home")
        .arg(&home)
        .output()?;
    assert_eq!(
        output.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines = json_lines(&output.stdout)?;

    // In its place: the file first, then the missing path's error, then the folder's files.
    let paths: Vec<&str> = lines
        .iter()
        .map(|line| line["path"].as_str().unwrap_or_default())
        .collect();
    let file_text = file.to_string_lossy().into_owned();
    let missing_text = missing.to_string_lossy().into_owned();
    if listed.contains_key(&file_text) {
        assert_eq!(paths[0], file_text);
        assert_eq!(paths[1], missing_text);
    } else {
        assert_eq!(paths[0], missing_text);
    }
    let error = lines
        .iter()
        .find(|line| line["path"] == missing_text.as_str())
        .ok_or("the missing path is not reported")?;
    assert!(
        error["error"]
            .as_str()
            .is_some_and(|text| text.contains("gone.jsonl")),
        "{error}"
    );
    let folder_text = folder.to_string_lossy().into_owned();
    let first_of_folder = paths
        .iter()
        .position(|path| path.starts_with(&folder_text) && *path != file_text)
        .ok_or("nothing of the folder listed")?;
    let last_of_folder = paths
        .iter()
        .rposition(|path| path.starts_with(&folder_text) && *path != file_text)
        .ok_or("nothing of the folder listed")?;
    assert!(
        paths[first_of_folder..=last_of_folder]
            .iter()
            .all(|path| path.starts_with(&folder_text)),
        "the folder's files are not together: {paths:?}"
    );

    // Every listable session once, each exactly as the home listing shows it.
    let mut seen = BTreeMap::new();
    for line in lines.iter().filter(|line| line.get("error").is_none()) {
        let path = line["path"].as_str().ok_or("no path")?;
        let expected = listed
            .get(path)
            .ok_or_else(|| format!("{path} listed here but not by the home"))?;
        assert_eq!(line, expected, "{path}");
        assert!(seen.insert(path.to_string(), ()).is_none(), "{path} twice");
    }
    assert_eq!(
        seen.len(),
        listed.len(),
        "not every session of the home was listed"
    );
    Ok(())
}

#[test]
fn a_real_file_under_its_own_name_lists_what_its_copy_in_a_home_lists() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    let tmp = tempfile::tempdir()?;
    let copies = home_of_real_files(&real, tmp.path(), OLD)?;
    let listed = home_listing(tmp.path(), false)?;
    // The original files, whose names carry their author's prefix, by path.
    let output = bin()?.args(["list", "--json"]).args(&real).output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let lines = json_lines(&output.stdout)?;
    let mut compared = 0;
    for copy in &copies {
        let Some(expected) = listed.get(copy.to_string_lossy().as_ref()) else {
            continue;
        };
        let name = common::name(copy);
        let original = lines
            .iter()
            .find(|line| {
                line["path"]
                    .as_str()
                    .is_some_and(|path| path.ends_with(&name))
            })
            .ok_or_else(|| format!("{name} listed in the home, not by its own path"))?;
        for key in ["thread_id", "cli_version", "cwd", "preview"] {
            assert_eq!(original[key], expected[key], "{name}: {key}");
        }
        compared += 1;
    }
    assert!(compared > 0);
    // Without FILE/DIR arguments the paging flags still page; with them they are refused.
    bin()?
        .args(["list", "--limit", "3"])
        .arg(&real[0])
        .assert()
        .code(2);
    Ok(())
}

/// The parent and the sub-agent child among the real files (README of the fixtures).
const PARENT: &str = "019f4efb-ae76-7e30-b44e-3fa464c16193";
const CHILD: &str = "019f4efd-0137-7790-9622-c175e1415048";

#[test]
fn threads_show_their_name_source_and_parent_and_sources_filter() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let home = dir.path();
    home_of_real_files(&real, home, OLD)?;
    std::fs::write(
        home.join("session_index.jsonl"),
        format!(
            "{{\"id\":\"{PARENT}\",\"thread_name\":\"old name\",\"updated_at\":\"2026-07-11T00:00:00Z\"}}\n\
             {{\"id\":\"{PARENT}\",\"thread_name\":\"lua leak hunt\",\"updated_at\":\"2026-07-12T00:00:00Z\"}}\n"
        ),
    )?;
    let listed = home_listing(home, false)?;
    let by_id: BTreeMap<&str, &Value> = listed
        .values()
        .map(|session| (session["thread_id"].as_str().unwrap_or_default(), session))
        .collect();
    let known = codex_app_server_protocol::v2::SOURCE_KINDS;
    for session in listed.values() {
        let source = session["source"].as_str().ok_or("no source")?;
        assert!(known.contains(&source), "{source}");
    }
    let parent = by_id.get(PARENT).ok_or("the parent is not listed")?;
    let child = by_id.get(CHILD).ok_or("the child is not listed")?;
    assert_eq!(parent["name"], "lua leak hunt", "the newest name");
    assert_eq!(parent["parent_thread_id"], Value::Null);
    assert_eq!(child["source"], "subAgentThreadSpawn");
    assert_eq!(child["parent_thread_id"], PARENT);
    assert_eq!(child["name"], Value::Null);

    // --source keeps exactly the sessions of that kind; an unknown kind is refused.
    let output = bin()?
        .args([
            "list",
            "--json",
            "--limit",
            "100000",
            "--source",
            "subAgentThreadSpawn",
        ])
        .arg("--home")
        .arg(home)
        .output()?;
    assert!(output.status.success());
    let page: Value = serde_json::from_slice(&output.stdout)?;
    let kept: Vec<&str> = page["sessions"]
        .as_array()
        .ok_or("no sessions")?
        .iter()
        .filter_map(|session| session["thread_id"].as_str())
        .collect();
    let expected: Vec<&str> = listed
        .values()
        .filter(|session| session["source"] == "subAgentThreadSpawn")
        .filter_map(|session| session["thread_id"].as_str())
        .collect();
    assert_eq!(kept.len(), expected.len());
    assert!(kept.contains(&CHILD));
    let refused = bin()?
        .args(["list", "--source", "bogus", "--home"])
        .arg(home)
        .output()?;
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("unknown source kind `bogus`"));

    // The text of `list` and `thread` name them; `view`'s list puts the child under its parent.
    let text = bin()?
        .args(["list", "--limit", "100000", "--home"])
        .arg(home)
        .output()?;
    let text = String::from_utf8(text.stdout)?;
    assert!(text.contains("\"lua leak hunt\""), "{text}");
    assert!(
        text.contains(&format!("[subAgentThreadSpawn of {}…]", &PARENT[..8])),
        "{text}"
    );
    let thread = bin()?
        .args(["thread", PARENT, "--home"])
        .arg(home)
        .output()?;
    let thread = String::from_utf8(thread.stdout)?;
    assert!(
        thread.starts_with(&format!("thread {PARENT}: ")),
        "{thread}"
    );
    assert_eq!(thread.lines().nth(1), Some("\"lua leak hunt\""), "{thread}");
    let view = bin()?
        .args(["view", "--plain", "--home"])
        .arg(home)
        .output()?;
    let view = String::from_utf8(view.stdout)?;
    let lines: Vec<&str> = view.lines().collect();
    let parent_line = lines
        .iter()
        .position(|line| line.contains(PARENT) && !line.contains("resume"))
        .ok_or("no parent row")?;
    assert!(lines[parent_line].contains("\"lua leak hunt\""), "{view}");
    assert!(
        lines[parent_line + 2].starts_with("↳ ") && lines[parent_line + 2].contains(CHILD),
        "the child under its parent:\n{view}"
    );
    Ok(())
}
