//! A run stopped at every step of its commit, as a kill there would stop it: what
//! docs/tables.md ("Killed at any moment") promises of each moment. (`cli/tests/it/table_crash.rs`
//! kills the real process at random moments; the commit's renames are too quick for random
//! kills to land in often, so here each of its steps is stopped at in turn.)

use std::path::Path;

use codex_test_support::{TableFolder, copy_dir};
use pretty_assertions::assert_eq;

use super::partition::STEPS_BEFORE_KILL;
use super::tests::{IDS, TestResult, home, turn_lines, write_as};
use super::*;

/// Runs `write_as` stopped after `steps` renames and removals of its commit; whether it was
/// stopped (a run with fewer steps ends as usual).
fn stopped_after(home: &Path, out: &Path, steps: usize) -> Result<bool, TableError> {
    STEPS_BEFORE_KILL.set(Some(steps));
    let result = write_as(home, out, "alice");
    STEPS_BEFORE_KILL.set(None);
    match result {
        Err(TableError::Write { path, .. }) if path.as_os_str().is_empty() => Ok(true),
        Err(other) => Err(other),
        Ok(_) => Ok(false),
    }
}

#[test]
fn a_first_run_stopped_at_any_step_leaves_whole_partitions_and_the_next_run_finishes() -> TestResult
{
    let (home, _) = home()?;
    let scratch = tempfile::tempdir()?;
    let whole = scratch.path().join("whole");
    write_as(home.path(), &whole, "alice")?;
    let reference = TableFolder::read(&whole)?;
    assert!(reference.manifest && reference.temps.is_empty());
    assert_eq!(reference.parts.len(), 12, "four tables on three days");
    for steps in 0..reference.parts.len() {
        let out = scratch.path().join(format!("stopped-{steps}"));
        assert!(stopped_after(home.path(), &out, steps)?);
        let left = TableFolder::read(&out)?;
        assert_eq!(
            left.parts.len(),
            steps,
            "partitions in place after {steps} renames"
        );
        assert_eq!(left.temps.len(), reference.parts.len() - steps);
        assert!(!left.manifest, "no manifest before the end");
        for (path, bytes) in &left.parts {
            assert!(
                reference.parts.get(path) == Some(bytes),
                "{} not whole",
                path.display()
            );
        }
        write_as(home.path(), &out, "alice")?;
        assert_eq!(TableFolder::read(&out)?, reference, "after {steps} renames");
    }
    Ok(())
}

#[test]
fn a_rerun_stopped_at_any_step_leaves_each_partition_old_or_new_and_the_next_run_finishes()
-> TestResult {
    let (home, paths) = home()?;
    let scratch = tempfile::tempdir()?;
    let old_dir = scratch.path().join("old");
    write_as(home.path(), &old_dir, "alice")?;
    // June 2's session grows by a turn on June 4, June 3's goes.
    let mut text = std::fs::read_to_string(&paths[1])?;
    text += &(turn_lines(IDS[1], 3, "2025-06-04T10:00:00.000Z").join("\n") + "\n");
    std::fs::write(&paths[1], text)?;
    std::fs::remove_file(&paths[2])?;
    let new_dir = scratch.path().join("new");
    copy_dir(&old_dir, &new_dir)?;
    write_as(home.path(), &new_dir, "alice")?;
    let old = TableFolder::read(&old_dir)?;
    let new = TableFolder::read(&new_dir)?;
    let changed = new
        .parts
        .iter()
        .filter(|(path, bytes)| old.parts.get(*path) != Some(*bytes))
        .count()
        + old
            .parts
            .keys()
            .filter(|path| !new.parts.contains_key(*path))
            .count();
    assert!(changed >= 8, "{changed} partitions changed");
    let mut steps = 0;
    loop {
        let out = scratch.path().join(format!("stopped-{steps}"));
        copy_dir(&old_dir, &out)?;
        if !stopped_after(home.path(), &out, steps)? {
            // Every step has been stopped at, one at least per changed partition.
            assert!(steps >= changed, "{steps} steps for {changed} changes");
            break;
        }
        let left = TableFolder::read(&out)?;
        if let Err(path) = left.each_part_old_or_new(&old, &new) {
            panic!("{} neither old nor new after {steps} steps", path.display());
        }
        write_as(home.path(), &out, "alice")?;
        assert_eq!(
            TableFolder::read(&out)?,
            new,
            "after a stop at step {steps}"
        );
        steps += 1;
    }
    Ok(())
}
