//! One prune at a time per home, the Codex commands it started included.
//!
//! A prune that changes a home plans from what the files are and then moves them; a second
//! prune planning while the first moves would act on files that are no longer where it
//! planned them. The lock is an exclusive advisory lock (`flock`) on
//! `<home>/codex-thread-prune.lock`, held from before the plan until the process ends.
//!
//! A prune killed with SIGKILL while `codex archive` or `codex delete` runs leaves that
//! command running: it finishes its change of Codex's state and files on its own (killing it
//! half-way would leave Codex's row naming a path its file has left). The next prune must
//! not plan until it has. So each Codex command gets the lock's open file as its standard
//! input (`PruneLock::child_stdin`): a `flock` belongs to the open file, not the process,
//! and stays held while any process has it open, so the lock outlives a killed prune until
//! the command it started exits. Codex does not read its standard input for these commands.
//!
//! The lock file is never removed (removing a lock file lets two processes lock two files).

use std::fs::{File, TryLockError};
use std::path::Path;
use std::process::Stdio;

use codex_rollout::CodexHome;

use super::PruneError;
use super::io;

/// The lock file's name, at the home's root.
const PRUNE_LOCK_FILE: &str = "codex-thread-prune.lock";

/// The home's prune lock, held while this value lives (and while any Codex command that
/// prune started with it runs). Changing a home ([`super::apply_prune`],
/// [`super::empty_trash`]) takes one.
#[derive(Debug)]
pub struct PruneLock {
    file: File,
}

impl PruneLock {
    /// Takes `home`'s prune lock, waiting for the prune (or the Codex command a killed prune
    /// left running) that holds it; `waiting` is called once, before waiting, when it has
    /// to.
    pub fn acquire(home: &CodexHome, waiting: impl FnOnce(&Path)) -> Result<PruneLock, PruneError> {
        let path = home.root.join(PRUNE_LOCK_FILE);
        let file = File::options()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&path)
            .map_err(io("open the prune lock", &path))?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                waiting(&path);
                file.lock().map_err(io("wait for the prune lock", &path))?;
            }
            Err(TryLockError::Error(source)) => {
                return Err(io("take the prune lock", &path)(source));
            }
        }
        Ok(PruneLock { file })
    }

    /// A standard input for a Codex command that keeps the lock held until the command
    /// exits, even if this process is killed first (the same open file, so the same lock).
    pub(crate) fn child_stdin(&self) -> std::io::Result<Stdio> {
        Ok(Stdio::from(self.file.try_clone()?))
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used, clippy::expect_used)]

    use std::process::Command;

    use super::*;

    fn is_free(home: &CodexHome) -> bool {
        let file = File::options()
            .write(true)
            .open(home.root.join(PRUNE_LOCK_FILE))
            .unwrap();
        file.try_lock().is_ok()
    }

    #[test]
    fn a_second_prune_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let home = CodexHome::new(dir.path());
        let lock = PruneLock::acquire(&home, |_| panic!("nobody held it")).unwrap();
        assert!(!is_free(&home));
        drop(lock);
        assert!(is_free(&home));
        PruneLock::acquire(&home, |_| panic!("nobody holds it now")).unwrap();
    }

    #[test]
    fn a_command_given_the_lock_holds_it_after_the_prune_let_go() {
        let dir = tempfile::tempdir().unwrap();
        let home = CodexHome::new(dir.path());
        let lock = PruneLock::acquire(&home, |_| {}).unwrap();
        let finished = dir.path().join("finished");
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(format!("sleep 0.3; : > '{}'", finished.display()))
            .stdin(lock.child_stdin().unwrap())
            .spawn()
            .unwrap();
        // As if the prune were killed: its own handle is gone.
        drop(lock);
        assert!(
            !is_free(&home),
            "the running command no longer holds the lock"
        );
        let mut waited = false;
        let again = PruneLock::acquire(&home, |_| waited = true).unwrap();
        assert!(waited);
        assert!(finished.exists(), "taken before the command finished");
        drop(again);
        child.wait().unwrap();
    }
}
