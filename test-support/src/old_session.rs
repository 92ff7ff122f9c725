//! One old session file for the compression tests of codex-rollout and codex-home: a session
//! meta and 200 `user_message` events, last written weeks ago, in a home's `sessions/`.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The session's thread.
pub const THREAD: &str = "019f4efd-0137-7790-9622-c175e1415048";
/// Its file name.
const NAME: &str = "rollout-2026-07-11T10-23-56-019f4efd-0137-7790-9622-c175e1415048.jsonl";
/// How long ago it was last written.
pub const WEEKS_AGO: Duration = Duration::from_secs(30 * 24 * 3600);

/// The session's lines.
pub fn session_text() -> String {
    let mut text = format!(
        r#"{{"timestamp":"2026-07-11T10:23:56.000Z","type":"session_meta","payload":{{"id":"{THREAD}","timestamp":"2026-07-11T10:23:56.000Z","cwd":"/w","originator":"codex_cli_rs","cli_version":"0.144.0"}}}}"#
    );
    text.push('\n');
    for i in 0..200 {
        text.push_str(&format!(
            r#"{{"timestamp":"2026-07-11T10:24:{:02}.000Z","type":"event_msg","payload":{{"type":"user_message","message":"message number {i}","kind":"plain"}}}}"#,
            i % 60
        ));
        text.push('\n');
    }
    text
}

/// Writes the session into the home at `root` (under `sessions/`, in its day's folder), last
/// written [`WEEKS_AGO`]; the file and its modification time as the file system keeps it.
pub fn write_old_session(root: &Path) -> io::Result<(PathBuf, SystemTime)> {
    let folder = root.join("sessions/2026/07/11");
    std::fs::create_dir_all(&folder)?;
    let path = folder.join(NAME);
    std::fs::write(&path, session_text())?;
    File::options()
        .write(true)
        .open(&path)?
        .set_modified(SystemTime::now() - WEEKS_AGO)?;
    let modified = std::fs::metadata(&path)?.modified()?;
    Ok((path, modified))
}
