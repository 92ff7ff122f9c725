//! The terminal UI of `codex-thread view`, driven in tmux: the real binary in a detached
//! session of a fixed size, keys sent, the screen captured and read. tmux must be installed
//! (`cargo xtask ci` installs it): a missing tmux fails these tests, it never skips them.

use crate::common;

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::time::Duration;

use codex_test_support::Tmux;

use common::home::home_of_real_files;
use common::view::{HUGE_LINE_CHARS, SAMPLE, write_hostile, write_large};
use common::{TestResult, real_files};

type Failure = Box<dyn std::error::Error>;

const LONG_SESSION: &str =
    "LAF-US__IDAHO-VAULT__rollout-2026-03-30T19-22-40-019d417c-54dd-7ee3-b9e7-538a07d03f7a.jsonl";

fn binary() -> PathBuf {
    assert_cmd::cargo::cargo_bin("codex-thread")
}

/// `codex-thread view ARGS` in a 110 x 32 tmux session, with no Codex home of the person's.
fn start(args: &[&OsStr], home: &Path) -> Result<Tmux, Failure> {
    let tmux = Tmux::start(
        110,
        32,
        &[
            ("CODEX_HOME", home.as_os_str()),
            ("RUST_LOG", OsStr::new("")),
        ],
        binary().as_os_str(),
        &[&[OsStr::new("view")], args].concat(),
    )?;
    Ok(tmux)
}

/// The row of the screen that holds `text`.
fn row_of(screen: &str, text: &str) -> Option<String> {
    screen
        .lines()
        .find(|line| line.contains(text))
        .map(str::to_owned)
}

/// The first row of the selected cell (its gutter is `▌`), empty when none is.
fn selected_row(screen: &str) -> &str {
    screen
        .lines()
        .find(|line| line.starts_with('▌'))
        .unwrap_or_default()
}

#[test]
fn open_fold_find_scroll_help_and_quit_on_the_sample() -> TestResult {
    let home = tempfile::tempdir()?;
    let tmux = start(&[OsStr::new(SAMPLE)], home.path())?;
    let screen = tmux.wait_for_text("thread 0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55")?;
    assert!(screen.contains("resume: codex resume 0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55"));
    assert!(screen.contains("▸ reasoning: Listing the repository before answering"));
    assert!(screen.contains("model gpt-5-codex · 4 turn(s)"), "{screen}");
    // The first cell is selected; j selects the reasoning, Enter unfolds it and folds it back.
    tmux.keys(&["j", "Enter"])?;
    let screen = tmux.wait_for_text("▾ reasoning")?;
    let selected = row_of(&screen, "▾ reasoning").unwrap_or_default();
    assert!(selected.starts_with('▌'), "{selected}");
    tmux.keys(&["Enter"])?;
    tmux.wait_for_text("▸ reasoning: Listing")?;
    // The command cell's output is folded past five lines; Enter shows the rest.
    tmux.keys(&["j", "Enter"])?;
    let screen = tmux.wait_for_text("│ README.md")?;
    assert!(!screen.contains("… 2 more lines"), "{screen}");
    // Find in thread: the first match is selected, n goes to the next.
    tmux.keys(&["/"])?;
    tmux.type_text("verbose")?;
    tmux.keys(&["Enter"])?;
    let screen = tmux.wait_for("the cell holding --verbose selected", |screen| {
        row_of(screen, "› Add a --verbose flag").is_some_and(|row| row.starts_with('▌'))
    })?;
    assert!(screen.contains("find") || screen.contains("--verbose"));
    tmux.keys(&["n"])?;
    tmux.wait_for("the patch selected", |screen| {
        row_of(screen, "✎ patch completed").is_some_and(|row| row.starts_with('▌'))
    })?;
    // G shows the end, g the top again.
    tmux.keys(&["G"])?;
    tmux.wait_for_text("turn 4 completed")?;
    tmux.keys(&["g"])?;
    tmux.wait_for("the first cell selected", |screen| {
        row_of(screen, "› What does this project build with?")
            .is_some_and(|row| row.starts_with('▌'))
    })?;
    tmux.keys(&["?"])?;
    tmux.wait_for_text("codex-thread view: keys")?;
    tmux.keys(&["x"])?;
    tmux.wait_for("the help closed", |screen| {
        !screen.contains("codex-thread view: keys")
    })?;
    tmux.keys(&["q"])?;
    tmux.wait_exit()?;
    Ok(())
}

#[test]
fn list_search_open_the_hit_go_back_and_quit() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let home = tempfile::tempdir()?;
    let placed = home_of_real_files(&files, home.path(), Duration::ZERO)?;
    let index = home.path().join("index.sqlite");
    let tmux = start(&[OsStr::new("--index"), index.as_os_str()], home.path())?;
    let screen = tmux.wait_for_text("live session(s)")?;
    assert!(
        screen.contains(&format!("{} live session(s)", placed.len())),
        "{screen}"
    );
    // Newest first: the first row is the newest creation date of the home.
    let first = screen
        .lines()
        .find(|line| line.starts_with("> "))
        .ok_or("no selected row")?;
    assert!(first.starts_with("> 2026-09-23"), "{first}");
    assert!(screen.contains("resume: codex resume 01a0d095-5bd9-7d73-871a-b6756ea97139"));
    // Search the home, open the hit: its thread shows, at the turn of the hit.
    tmux.keys(&["/"])?;
    tmux.type_text("Triune")?;
    tmux.keys(&["Enter"])?;
    let screen = tmux.wait_for_text("hit(s)")?;
    assert!(screen.contains("019d417c"), "{screen}");
    // The newest hit is the agent's message of turn 75 (line 874): that cell is selected,
    // not the turn's first one.
    let first = row_of(&screen, "> 019d417c").ok_or("no selected hit")?;
    assert!(first.contains("turn  75  assistant"), "{first}");
    tmux.keys(&["Enter"])?;
    tmux.wait_for("the hit's message selected", |screen| {
        screen.contains("thread 019d417c-54dd-7ee3-b9e7-538a07d03f7a")
            && selected_row(screen).contains("• Report recorded in `REPORT-TRIUNE.md`")
    })?;
    // The next hit is the output of the patch call (line 872): the patch cell, found by its
    // call id, is selected and unfolded.
    tmux.keys(&["q"])?;
    tmux.wait_for_text("hit(s) (Esc back to the list)")?;
    tmux.keys(&["j", "Enter"])?;
    let screen = tmux.wait_for("the patch of the hit's output selected", |screen| {
        screen.contains("thread 019d417c-54dd-7ee3-b9e7-538a07d03f7a")
            && selected_row(screen).contains("✎ patch completed")
            && !screen.contains("more diff lines")
    })?;
    assert!(screen.contains("REPORT-TRIUNE.md"), "{screen}");
    // q goes back to the hits, Esc to the list, q quits.
    tmux.keys(&["q"])?;
    tmux.wait_for_text("hit(s) (Esc back to the list)")?;
    tmux.keys(&["Escape"])?;
    tmux.wait_for_text("live session(s)")?;
    // Filter by working directory.
    tmux.keys(&["f"])?;
    tmux.type_text("IDAHO")?;
    tmux.keys(&["Enter"])?;
    let screen = tmux.wait_for_text("1 live session(s), filter")?;
    assert!(screen.contains("019d417c"), "{screen}");
    // Filter by model: the model of each session's first turn context, shown in its row.
    tmux.keys(&["f", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace"])?;
    tmux.type_text("model:gpt-5-codex")?;
    tmux.keys(&["Enter"])?;
    let screen = tmux.wait_for_text("2 live session(s), filter \"model:gpt-5-codex\"")?;
    for id in ["01997e76", "01997ea4"] {
        let row = row_of(&screen, id).ok_or_else(|| format!("{id} not listed:\n{screen}"))?;
        assert!(row.contains("gpt-5-codex"), "{row}");
    }
    assert!(!screen.contains("019d417c"), "{screen}");
    tmux.keys(&["q"])?;
    tmux.wait_exit()?;
    Ok(())
}

#[test]
fn a_long_session_scrolls_to_its_end_and_back_to_the_top() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let file = files
        .iter()
        .find(|file| file.ends_with(LONG_SESSION))
        .ok_or("no long session fixture")?;
    let home = tempfile::tempdir()?;
    let tmux = start(&[file.as_os_str()], home.path())?;
    tmux.wait_for_text("› Logan has awakened you")?;
    tmux.keys(&["G"])?;
    let screen = tmux.wait_for_text("turn 77 completed")?;
    assert!(!screen.contains("Logan has awakened you"));
    tmux.keys(&["PageUp", "PageUp"])?;
    tmux.wait_for("two pages up", |screen| {
        !screen.contains("turn 77 completed")
    })?;
    // The mouse wheel (SGR reports, as a terminal sends them) scrolls too.
    tmux.keys(&["g"])?;
    tmux.wait_for_text("› Logan has awakened you")?;
    for _ in 0..5 {
        tmux.type_text("\u{1b}[<65;20;10M")?;
    }
    tmux.wait_for("the wheel scrolled down", |screen| {
        !screen.contains("› Logan has awakened you")
    })?;
    tmux.keys(&["g"])?;
    tmux.wait_for_text("› Logan has awakened you")?;
    tmux.keys(&["q"])?;
    tmux.wait_exit()?;
    Ok(())
}

#[test]
fn a_hostile_session_renders_inert() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = write_hostile(dir.path())?;
    let tmux = start(&[file.as_os_str()], dir.path())?;
    let screen = tmux.wait_for_text("thread 0197a2c4")?;
    // The escapes are shown as text; the screen was not cleared and the title not set.
    assert!(
        screen.contains("clear \\x1b[2J\\x1b[H title \\x1b]0;pwned\\x07"),
        "{screen}"
    );
    assert!(screen.contains("bidi \\u{202e}txt.exe"), "{screen}");
    assert!(screen.contains("resume: codex resume"), "{screen}");
    assert_ne!(tmux.title()?, "pwned");
    // The command's output, unfolded: colours and the clipboard write inert, the huge line
    // cut and counted.
    tmux.keys(&["j", "j", "Enter"])?;
    let screen = tmux.wait_for_text(&format!("({} more", HUGE_LINE_CHARS - 2000 + 4))?;
    assert!(screen.contains("\\x1b[31mred\\x1b[0m"), "{screen}");
    assert!(screen.contains("\\x1b]52;c;cHduZWQ=\\x07clip"), "{screen}");
    // The deeply nested message indents no further than the cap.
    tmux.keys(&["j"])?;
    let screen = tmux.wait_for_text("> > > > > > > >")?;
    assert!(!screen.contains("> > > > > > > > >"), "{screen}");
    assert_ne!(tmux.title()?, "pwned");
    tmux.keys(&["q"])?;
    tmux.wait_exit()?;
    Ok(())
}

#[test]
fn a_large_session_opens_at_its_end_and_reads_the_rest_at_the_top() -> TestResult {
    let dir = tempfile::tempdir()?;
    let (file, turns) = write_large(dir.path(), 40 * 1024 * 1024)?;
    let tmux = start(&[file.as_os_str()], dir.path())?;
    let screen = tmux.wait_for_text("turn 20 completed")?;
    // Opened from the end: the turns before the last twenty are not read (no clock: how long
    // that takes is measured in the benchmarks, not asserted here).
    assert!(
        screen.contains("are not read yet: scrolling up"),
        "{screen}"
    );
    assert!(screen.contains("20 turn(s)"), "{screen}");
    // Scrolling up past the part held reads the page before it (backwards, 20 turns), and
    // the view goes on from where it was.
    let older = turns - 20;
    let questions = |screen: &str| -> Vec<usize> {
        screen
            .split("› Question ")
            .skip(1)
            .filter_map(|rest| rest.split(':').next()?.parse().ok())
            .collect()
    };
    for _ in 0..4 {
        tmux.keys(&["PageUp"; 10])?;
    }
    let screen = tmux.wait_for("a turn of the page before", |screen| {
        questions(screen).iter().any(|question| *question <= older)
    })?;
    assert!(screen.contains("are not read yet"), "{screen}");
    // g reads the file's first page (the rest of the file is not held), G its last again.
    tmux.keys(&["g"])?;
    let screen = tmux.wait_for_text("› Question 1: what does this project build with?")?;
    assert!(!screen.contains("not read yet"), "{screen}");
    assert!(screen.contains("are not held: scrolling down"), "{screen}");
    tmux.keys(&["G"])?;
    let screen = tmux.wait_for("the last turn", |screen| {
        questions(screen).contains(&turns) || screen.contains("turn 20 completed")
    })?;
    assert!(!screen.contains("not held"), "{screen}");
    tmux.keys(&["q"])?;
    tmux.wait_exit()?;
    Ok(())
}
