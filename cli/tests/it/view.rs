//! `codex-thread view` without a terminal (piped): the plain rendering of the transcript's
//! cells, on the real fixtures, the sample and a hostile session.

use crate::common;

use std::path::Path;

use serde_json::Value;

use common::home::home_of_real_files;
use common::view::{HUGE_LINE_CHARS, SAMPLE, write_hostile};
use common::{TestResult, bin, real_files};

/// `view` of `file` piped: its standard output.
fn view(file: &Path) -> Result<String, Box<dyn std::error::Error>> {
    let output = bin()?.arg("view").arg(file).output()?;
    if !output.status.success() {
        return Err(format!(
            "view {} failed: {}",
            file.display(),
            String::from_utf8_lossy(&output.stderr)
        )
        .into());
    }
    Ok(String::from_utf8(output.stdout)?)
}

/// What `thread --json` says of `file`: user messages, and turns.
fn thread_counts(file: &Path) -> Result<(usize, usize), Box<dyn std::error::Error>> {
    let output = bin()?.args(["--json", "thread"]).arg(file).output()?;
    let thread: Value = serde_json::from_slice(&output.stdout)?;
    let turns = thread["turns"].as_array().ok_or("no turns")?;
    let users = turns
        .iter()
        .flat_map(|turn| turn["items"].as_array().into_iter().flatten())
        .filter(|item| item["type"] == "userMessage")
        .count();
    Ok((users, turns.len()))
}

#[test]
fn every_real_file_renders_one_cell_per_user_message_and_one_separator_per_closed_turn()
-> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let mut checked = 0;
    for file in &files {
        let text = view(file)?;
        assert!(!text.contains('\u{1b}'), "{}: raw escape", file.display());
        let (users, turns) = thread_counts(file)?;
        let user_cells = text.lines().filter(|line| line.starts_with("› ")).count();
        let separators = text
            .lines()
            .filter(|line| line.starts_with("─── turn "))
            .count();
        let status = text.lines().last().unwrap_or_default();
        assert!(
            status.starts_with("status: "),
            "{}: {status}",
            file.display()
        );
        let open = usize::from(status.ends_with("left open"));
        assert_eq!(user_cells, users, "{}: user cells", file.display());
        assert_eq!(separators + open, turns, "{}: separators", file.display());
        if text.starts_with("thread ") {
            let id = text
                .lines()
                .next()
                .and_then(|line| line.strip_prefix("thread "))
                .unwrap_or_default();
            assert!(text.contains(&format!("resume: codex resume {id}\n")));
        }
        checked += 1;
    }
    assert!(checked >= 15, "only {checked} real files rendered");
    Ok(())
}

#[test]
fn the_sample_renders_commands_diffs_markers_and_the_status_line() -> TestResult {
    let text = view(Path::new(SAMPLE))?;
    for expected in [
        "thread 0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55\n",
        "resume: codex resume 0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55\n",
        "› What does this project build with? List the files first.\n",
        "▸ reasoning: Listing the repository before answering\n",
        "$ bash -lc 'ls -a'\n  cwd /home/dev/todo-cli · exit 0 · 250 ms · completed\n  │ .\n",
        "  │ … 2 more lines (Enter unfolds)\n",
        "✎ patch completed\n  update src/main.rs\n",
        "    +    verbose: bool,\n",
        "─── turn 1 completed · 17.0 s · tokens 5141 in (4224 cached) / 154 out ───\n",
        "─── turn 3 interrupted · tokens 3330 in (3200 cached) / 31 out ───\n",
        "── rolled back 1 turn(s) ──\n",
        "status: model gpt-5-codex · 4 turn(s) · tokens 29003 in (26880 cached) / 450 out · idle\n",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in:\n{text}");
    }
    Ok(())
}

#[test]
fn expand_unfolds_every_cell() -> TestResult {
    let output = bin()?.args(["view", "--expand", SAMPLE]).output()?;
    let text = String::from_utf8(output.stdout)?;
    assert!(!text.contains("more lines (Enter unfolds)"));
    assert!(text.contains("▾ reasoning\n  Listing the repository before answering\n"));
    assert!(text.contains("  │ README.md\n  │ src\n"));
    Ok(())
}

#[test]
fn a_compressed_file_renders_as_the_plain_one() -> TestResult {
    let dir = tempfile::tempdir()?;
    let zst = dir.path().join("session.jsonl.zst");
    std::fs::write(
        &zst,
        zstd::encode_all(std::fs::read(SAMPLE)?.as_slice(), 3)?,
    )?;
    assert_eq!(view(&zst)?, view(Path::new(SAMPLE))?);
    Ok(())
}

#[test]
fn a_hostile_session_renders_inert() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = write_hostile(dir.path())?;
    let text = view(&file)?;
    for raw in ['\u{1b}', '\u{7}', '\r', '\u{202e}'] {
        assert!(!text.contains(raw), "raw {raw:?} printed");
    }
    for shown in [
        "clear \\x1b[2J\\x1b[H title \\x1b]0;pwned\\x07 bidi \\u{202e}txt.exe",
        "\\x1b[31mred\\x1b[0m",
        "\\x1b]52;c;cHduZWQ=\\x07clip",
        "over\\rwrite",
        "echo \\x1b[5mblink",
    ] {
        assert!(text.contains(shown), "{shown:?} not shown inert");
    }
    // The expanded huge line is cut and counted; nesting indents no deeper than the cap.
    let expanded = bin()?.args(["view", "--expand"]).arg(&file).output()?;
    let expanded = String::from_utf8(expanded.stdout)?;
    assert!(expanded.contains(&format!("({} more characters)", HUGE_LINE_CHARS - 2000 + 4)));
    let longest = expanded
        .lines()
        .map(|line| line.chars().count())
        .max()
        .unwrap_or(0);
    assert!(longest < 2100, "a line of {longest} characters");
    assert!(expanded.contains("deep"));
    Ok(())
}

#[test]
fn the_session_list_is_newest_first_with_resume_commands() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let home = tempfile::tempdir()?;
    let placed = home_of_real_files(&files, home.path(), std::time::Duration::ZERO)?;
    let output = bin()?.arg("view").arg("--home").arg(home.path()).output()?;
    let text = String::from_utf8(output.stdout)?;
    // Rows of threads (a sub-agent's marked `↳ `, under its parent) and their resume lines.
    let rows: Vec<&str> = text
        .lines()
        .skip(1)
        .filter(|line| !line.contains("codex resume "))
        .collect();
    let dates: Vec<&str> = rows
        .iter()
        .filter(|line| !line.starts_with("↳ "))
        .map(|line| line.get(..16).unwrap_or_default())
        .collect();
    let mut sorted = dates.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(dates, sorted, "threads newest first");
    assert_eq!(rows.len(), placed.len(), "{text}");
    assert_eq!(
        text.lines()
            .filter(|line| line
                .trim_start_matches("  ↳ ")
                .starts_with("    codex resume "))
            .count(),
        placed.len()
    );
    Ok(())
}
