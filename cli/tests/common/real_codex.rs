//! What the differential tests against the real Codex share: running `codex-thread` on a
//! file of a Codex home, finding a thread's rollout, and putting a session file where Codex
//! keeps one.

use std::path::{Path, PathBuf};

use codex_test_support::CodexHome;
use serde_json::Value;

use super::bin;

type Failure = Box<dyn std::error::Error>;

/// Runs `codex-thread` with `args`; its standard output, or an error with its standard error.
pub(crate) fn run_ours(args: &[&str]) -> Result<String, Failure> {
    let output = bin()?.args(args).output()?;
    if !output.status.success() {
        // Some commands (prune) say what failed on standard output.
        return Err(format!(
            "codex-thread {args:?} failed: {}\nits standard output:\n{}",
            String::from_utf8_lossy(&output.stderr),
            String::from_utf8_lossy(&output.stdout)
        )
        .into());
    }
    Ok(String::from_utf8(output.stdout)?)
}

/// `path` as text, for an argument list.
pub(crate) fn text(path: &Path) -> Result<&str, Failure> {
    path.to_str().ok_or_else(|| "path is not UTF-8".into())
}

/// `codex-thread --json <command> FILE --home HOME`: its standard output.
pub(crate) fn ours_on(command: &str, file: &Path, home: &Path) -> Result<String, Failure> {
    run_ours(&["--json", command, text(file)?, "--home", text(home)?])
}

/// Our thread of `file`, read with `home` as its Codex home.
pub(crate) fn our_thread(file: &Path, home: &Path) -> Result<Value, Failure> {
    Ok(serde_json::from_str(&ours_on("thread", file, home)?)?)
}

/// The rollout file of `thread_id` in `home` (the first Codex wrote for it).
pub(crate) fn rollout_of(home: &CodexHome, thread_id: &str) -> Result<PathBuf, Failure> {
    home.session_files()?
        .into_iter()
        .find(|path| path.to_string_lossy().contains(thread_id))
        .ok_or_else(|| format!("no rollout for {thread_id}").into())
}

/// Where Codex keeps the session at `file` in `home`: the dated path of its id and creation
/// time, as `thread --json` of the file reports them; `None` for a file without session meta.
/// The thread id comes with it.
pub(crate) fn home_path_of(file: &Path, home: &Path) -> Result<Option<(PathBuf, String)>, Failure> {
    // A home before its first file is placed is still a Codex home (the one home rule).
    std::fs::create_dir_all(home.join("sessions"))?;
    let thread = our_thread(file, home)?;
    let (Some(id), Some(created)) = (
        thread.get("id").and_then(Value::as_str),
        thread.get("createdAt").and_then(Value::as_i64),
    ) else {
        return Ok(None);
    };
    let uuid = uuid::Uuid::parse_str(id)?;
    let created = chrono::DateTime::from_timestamp(created, 0).ok_or("creation time")?;
    let placed = codex_rollout::CodexHome::new(home).rollout_path(created, uuid);
    std::fs::create_dir_all(placed.parent().ok_or("no parent")?)?;
    Ok(Some((placed, id.to_owned())))
}
