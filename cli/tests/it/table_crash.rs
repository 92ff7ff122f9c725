//! `table` killed with SIGKILL at random moments, as docs/tables.md ("Killed at any moment")
//! says it may be, over a home of the real session files in a team's layout:
//!
//! - a **first run** killed leaves only whole partitions, each exactly what an uninterrupted
//!   run writes there, and no manifest unless every partition is in place;
//! - a **rerun** (the home grown by some sessions and short of one) killed leaves every
//!   partition either as it was before the run or as an uninterrupted rerun writes it;
//! - after either, the next run writes exactly what an uninterrupted run does and leaves no
//!   temporary file.
//!
//! The moments are drawn uniformly over the length of an uninterrupted run, measured first, so
//! most land before the commit's quick renames; `home/src/table/commit_tests.rs` stops a run
//! at each step of the commit in turn.
//! The seed is printed (set `CRASH_SEED` to replay one).

#![cfg(unix)]
// The seed and what the kills hit are reported on stderr (run with --nocapture).
#![allow(clippy::print_stderr)]

use crate::common;

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use codex_test_support::{TableFolder, copy_dir};
use common::moments::Moments;
use common::tables::{place_real_sessions, session_files};
use common::{TestResult, real_files};

type Failure = Box<dyn std::error::Error>;

const KILLS_PER_PHASE: usize = 12;

fn table(home: &Path, out: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_codex-thread"));
    command
        .args(["table", "--person", "alice", "--home"])
        .arg(home)
        .arg("--out")
        .arg(out)
        .env_remove("CODEX_HOME")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    command
}

fn run_whole(home: &Path, out: &Path) -> Result<Duration, Failure> {
    let started = Instant::now();
    assert!(table(home, out).status()?.success(), "table failed");
    Ok(started.elapsed())
}

/// Starts `table`, kills it after `delay` (unless it finished first), then runs it whole and
/// checks that this writes `reference`; what the kill left.
fn killed_then_finished(
    home: &Path,
    out: &Path,
    delay: Duration,
    reference: &TableFolder,
) -> Result<TableFolder, Failure> {
    let mut child = table(home, out).spawn()?;
    std::thread::sleep(delay);
    let finished = child.try_wait()?.is_some();
    if !finished {
        child.kill()?;
    }
    child.wait()?;
    let left = TableFolder::read(out)?;
    if !finished {
        run_whole(home, out)?;
    }
    assert_eq!(
        &TableFolder::read(out)?,
        reference,
        "the run after a killed one"
    );
    Ok(left)
}

#[test]
fn a_killed_table_run_leaves_whole_partitions_old_or_new_and_the_next_run_finishes() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let mut moments = Moments::seeded();
    let scratch = tempfile::tempdir()?;
    let home = scratch.path().join("home");
    place_real_sessions(&files, &home)?;
    // The rerun's change: two sessions arrive, one goes.
    let placed = session_files(&home)?;
    let held = scratch.path().join("held");
    std::fs::create_dir_all(&held)?;
    let mut arriving = Vec::new();
    for file in &placed[..2] {
        let aside = held.join(file.file_name().ok_or("no name")?);
        std::fs::rename(file, &aside)?;
        arriving.push((aside, file.clone()));
    }
    let leaving = placed[placed.len() - 1].clone();

    // First runs.
    let before_dir = scratch.path().join("before");
    let first_length = run_whole(&home, &before_dir)?;
    let before = TableFolder::read(&before_dir)?;
    assert!(before.manifest && before.temps.is_empty() && before.parts.len() > 20);
    let mut hit = [0usize; 3]; // nothing in place, some, all
    for kill in 0..KILLS_PER_PHASE {
        let out = scratch.path().join(format!("first-{kill}"));
        let left = killed_then_finished(&home, &out, moments.next(first_length), &before)?;
        for (path, bytes) in &left.parts {
            assert!(
                before.parts.get(path) == Some(bytes),
                "first run killed: {} is not the whole partition",
                path.display()
            );
        }
        if left.manifest {
            assert_eq!(
                left.parts.len(),
                before.parts.len(),
                "a manifest before the end"
            );
        }
        hit[match left.parts.len() {
            0 => 0,
            n if n == before.parts.len() => 2,
            _ => 1,
        }] += 1;
    }
    eprintln!("first runs killed with nothing / some / every partition in place: {hit:?}");

    // Reruns over the changed home.
    for (aside, place) in &arriving {
        std::fs::rename(aside, place)?;
    }
    std::fs::remove_file(&leaving)?;
    let after_dir = scratch.path().join("after");
    copy_dir(&before_dir, &after_dir)?;
    let rerun_length = run_whole(&home, &after_dir)?;
    let after = TableFolder::read(&after_dir)?;
    assert!(after.temps.is_empty());
    assert_ne!(after.parts, before.parts, "the change rewrote nothing");
    let mut mixed = 0;
    for kill in 0..KILLS_PER_PHASE {
        let out = scratch.path().join(format!("rerun-{kill}"));
        copy_dir(&before_dir, &out)?;
        let left = killed_then_finished(&home, &out, moments.next(rerun_length), &after)?;
        if let Err(path) = left.each_part_old_or_new(&before, &after) {
            panic!("rerun killed: {} is neither old nor new", path.display());
        }
        let new = left
            .parts
            .iter()
            .filter(|(path, bytes)| before.parts.get(*path) != Some(*bytes))
            .count();
        if new > 0 && left.parts != after.parts {
            mixed += 1;
        }
    }
    eprintln!("reruns killed between old and new partitions: {mixed}");
    Ok(())
}
