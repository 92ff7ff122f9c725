//! Whether a running Codex is writing a thread: its lock under
//! `$CODEX_HOME/thread-writer-locks/<thread id>.lock`.
//!
//! What is known of upstream's locks (reported, not from upstream's own code: see
//! `current-format.md` §6): a running Codex holds an exclusive advisory lock (`flock`) on
//! that file for every thread it has open for writing; a clean exit deletes the file, and a
//! process killed with SIGKILL leaves the file behind while the kernel drops the lock. So a
//! file that exists is not proof of a writer: only a lock that is **held** is. This module
//! tells the two apart by asking for a shared lock without waiting and letting it go at once.
//! Work that rewrites a session (compression) asks before it starts and again just before
//! it removes anything, and leaves a thread alone when the answer is "held" or "cannot
//! tell".

use std::fs::{File, TryLockError};
use std::io;
use std::path::PathBuf;

use codex_protocol::thread_id::ThreadId;

use codex_rollout::CodexHome;

/// Folder under the home that holds the writer locks.
pub const THREAD_WRITER_LOCKS_SUBDIR: &str = "thread-writer-locks";

/// What a thread's writer lock says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WriterLock {
    /// No lock file: no Codex has the thread open (or none that locks).
    Absent,
    /// A lock file nobody holds (left by a process that was killed).
    Stale,
    /// A running process holds the lock: a Codex is writing the thread.
    Held,
    /// The lock file exists but could not be probed (permissions, a filesystem without
    /// locks): treated as held by callers that write.
    Unknown,
}

impl WriterLock {
    /// Whether work that rewrites the thread's files must leave it alone.
    pub fn forbids_rewrite(self) -> bool {
        matches!(self, WriterLock::Held | WriterLock::Unknown)
    }
}

/// `<home>/thread-writer-locks/<thread id>.lock`.
pub fn thread_writer_lock_path(home: &CodexHome, thread_id: ThreadId) -> PathBuf {
    home.root
        .join(THREAD_WRITER_LOCKS_SUBDIR)
        .join(format!("{thread_id}.lock"))
}

/// The state of `thread_id`'s writer lock under `home` (see the module docs).
pub fn thread_writer_lock(home: &CodexHome, thread_id: ThreadId) -> WriterLock {
    probe(&thread_writer_lock_path(home, thread_id))
}

fn probe(path: &std::path::Path) -> WriterLock {
    let file = match File::open(path) {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return WriterLock::Absent,
        Err(_) => return WriterLock::Unknown,
    };
    match file.try_lock_shared() {
        // Dropping the file releases the shared lock at once.
        Ok(()) => WriterLock::Stale,
        Err(TryLockError::WouldBlock) => WriterLock::Held,
        Err(TryLockError::Error(_)) => WriterLock::Unknown,
    }
}

/// A thread of `home` a running Codex holds for writing, if any (from its writer locks).
#[cfg(feature = "state")]
pub(crate) fn held_thread(home: &CodexHome) -> Option<String> {
    let folder = home.root.join(THREAD_WRITER_LOCKS_SUBDIR);
    let entries = std::fs::read_dir(folder).ok()?;
    entries.flatten().find_map(|entry| {
        let name = entry.file_name().to_string_lossy().into_owned();
        let id = name.strip_suffix(".lock")?.to_owned();
        being_written(home, &id).then_some(id)
    })
}

/// Whether a running Codex holds thread `id` for writing.
#[cfg(feature = "state")]
pub(crate) fn being_written(home: &CodexHome, id: &str) -> bool {
    ThreadId::from_string(id)
        .is_ok_and(|thread_id| thread_writer_lock(home, thread_id).forbids_rewrite())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;

    #[test]
    fn absent_stale_and_held_locks_are_told_apart() {
        let dir = tempfile::tempdir().unwrap();
        let home = CodexHome::new(dir.path());
        let thread = ThreadId::new();
        assert_eq!(thread_writer_lock(&home, thread), WriterLock::Absent);
        let path = thread_writer_lock_path(&home, thread);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let file = File::create(&path).unwrap();
        assert_eq!(thread_writer_lock(&home, thread), WriterLock::Stale);
        file.lock().unwrap();
        assert_eq!(thread_writer_lock(&home, thread), WriterLock::Held);
        assert!(thread_writer_lock(&home, thread).forbids_rewrite());
        file.unlock().unwrap();
        assert_eq!(thread_writer_lock(&home, thread), WriterLock::Stale);
        assert!(!WriterLock::Stale.forbids_rewrite());
    }
}
