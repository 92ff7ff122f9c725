//! One home rule: every command that takes `--home` refuses a home that does not exist, a
//! folder that is not a Codex home and a file, with the same error (exit 2), and writes
//! nothing for it.

use crate::common;

use std::path::Path;

use common::{TestResult, bin};

/// Each command over a home, as run with `--home DIR` appended.
const COMMANDS: &[&[&str]] = &[
    &["list"],
    &["usage"],
    &["du"],
    &["search", "anything"],
    &["prune", "--older-than", "30d"],
    &["compress"],
    &["view"],
    &["secrets"],
    &["table", "-o", "TABLES"],
    &["inspect"],
    &["validate"],
    &["history"],
    &["prompt"],
    &["thread"],
];

fn run(
    args: &[&str],
    home: &Path,
    tables: &Path,
) -> Result<(i32, String), Box<dyn std::error::Error>> {
    let args: Vec<String> = args
        .iter()
        .map(|arg| {
            if *arg == "TABLES" {
                tables.display().to_string()
            } else {
                (*arg).to_string()
            }
        })
        .collect();
    let output = bin()?
        .args(&args)
        .arg("--home")
        .arg(home)
        .env("XDG_CACHE_HOME", tables.with_file_name("cache"))
        .output()?;
    Ok((
        output.status.code().unwrap_or(-1),
        String::from_utf8(output.stderr)?,
    ))
}

#[test]
fn every_command_refuses_a_home_that_is_not_one() -> TestResult {
    let dir = tempfile::tempdir()?;
    let missing = dir.path().join("no-such-home");
    let unrelated = dir.path().join("unrelated");
    std::fs::create_dir(&unrelated)?;
    std::fs::write(unrelated.join("notes.txt"), "mine")?;
    let file = dir.path().join("a-file");
    std::fs::write(&file, "")?;
    let tables = dir.path().join("tables");
    for (home, says) in [
        (&missing, "does not exist"),
        (&unrelated, "is not a Codex home"),
        (&file, "is not a folder"),
    ] {
        for command in COMMANDS {
            let (code, stderr) = run(command, home, &tables)?;
            assert_eq!(code, 2, "{command:?} --home {}: {stderr}", home.display());
            assert!(stderr.contains(says), "{command:?}: {stderr}");
            assert!(!tables.exists(), "{command:?} wrote {}", tables.display());
        }
    }
    assert!(!missing.exists());
    assert_eq!(std::fs::read_dir(&unrelated)?.count(), 1);
    Ok(())
}

#[test]
fn a_home_with_only_a_config_is_a_home_with_no_sessions() -> TestResult {
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");
    std::fs::create_dir(&home)?;
    std::fs::write(home.join("config.toml"), "model = \"gpt-5\"\n")?;
    let tables = dir.path().join("tables");
    for command in [&["list"][..], &["du"], &["secrets"]] {
        let (code, stderr) = run(command, &home, &tables)?;
        assert_eq!(code, 0, "{command:?}: {stderr}");
    }
    Ok(())
}
