//! `compress` killed with SIGKILL at random moments, 50 times: after each kill every session
//! of the home is listed once and loads (`codex_rollout::load`) to the same items as before,
//! whichever of its files (plain, compressed, both, with a temporary file) the kill left.
//! A final uninterrupted run compresses everything and leaves no temporary file.
//!
//! The moments are drawn uniformly over the length of an uninterrupted run, measured first;
//! the home is laid anew whenever a run got through everything, so kills land in every
//! phase. The seed is printed (set `CRASH_SEED` to replay one).

#![cfg(unix)]
// The seed and what the kills hit are reported on stderr (run with --nocapture).
#![allow(clippy::print_stderr)]

use crate::common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Stdio;
use std::time::Instant;

use common::home::{OLD, home_of_real_files, sessions_of};
use common::moments::Moments;
use common::{TestResult, real_files};

const KILLS: usize = 50;

fn compress_command(home: &Path) -> Result<std::process::Command, Box<dyn std::error::Error>> {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_codex-thread"));
    command
        .args(["compress", "--home"])
        .arg(home)
        .env_remove("CODEX_HOME")
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    Ok(command)
}

fn plain_files_left(home: &Path) -> Result<usize, Box<dyn std::error::Error>> {
    Ok(sessions_of(home)?
        .values()
        .filter(|(path, _)| !path.to_string_lossy().ends_with(".zst"))
        .count())
}

fn files_under(dir: &Path, out: &mut Vec<String>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            files_under(&entry.path(), out)?;
        } else {
            out.push(entry.file_name().to_string_lossy().into_owned());
        }
    }
    Ok(())
}

#[test]
fn fifty_kills_leave_every_session_readable() -> TestResult {
    let Some(real) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let home = dir.path().join("home");
    let lay = |home: &Path| -> TestResult {
        if home.exists() {
            std::fs::remove_dir_all(home)?;
        }
        home_of_real_files(&real, home, OLD)?;
        Ok(())
    };
    lay(&home)?;
    let expected: BTreeMap<_, _> = sessions_of(&home)?
        .into_iter()
        .map(|(key, (_, items))| (key, items))
        .collect();
    // How long an uninterrupted run takes.
    let started = Instant::now();
    assert!(compress_command(&home)?.status()?.success());
    let run_time = started.elapsed();
    lay(&home)?;

    let mut moments = Moments::seeded();
    eprintln!("uninterrupted run {run_time:?}");
    let (mut mid_run, mut with_temporary, mut with_both) = (0, 0, 0);
    for kill in 0..KILLS {
        let mut child = compress_command(&home)?.spawn()?;
        std::thread::sleep(moments.next(run_time + run_time / 5));
        child.kill()?; // SIGKILL
        child.wait()?;

        let sessions = sessions_of(&home)?;
        assert_eq!(sessions.len(), expected.len(), "kill {kill}");
        for (key, (path, items)) in &sessions {
            assert_eq!(
                Some(items),
                expected.get(key),
                "kill {kill}: {}",
                path.display()
            );
        }
        let mut names = Vec::new();
        files_under(&home.join("sessions"), &mut names)?;
        with_temporary += usize::from(names.iter().any(|n| n.ends_with(".tmp")));
        with_both += usize::from(
            names
                .iter()
                .any(|n| n.ends_with(".jsonl") && names.contains(&format!("{n}.zst"))),
        );
        let plain = plain_files_left(&home)?;
        if plain > 0 && plain < expected.len() {
            mid_run += 1;
        }
        if plain == 0 {
            lay(&home)?;
        }
    }
    eprintln!(
        "{KILLS} kills: {mid_run} mid-run, {with_temporary} left a temporary file, \
         {with_both} left both files of a session"
    );
    assert!(mid_run > 0, "no kill landed inside a run");

    // An uninterrupted run finishes the work and cleans up.
    assert!(compress_command(&home)?.status()?.success());
    assert_eq!(plain_files_left(&home)?, 0);
    let mut names = Vec::new();
    files_under(&home.join("sessions"), &mut names)?;
    assert!(names.iter().all(|n| n.ends_with(".jsonl.zst")), "{names:?}");
    let sessions = sessions_of(&home)?;
    for (key, (_, items)) in &sessions {
        assert_eq!(Some(items), expected.get(key));
    }
    Ok(())
}
