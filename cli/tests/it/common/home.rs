//! A Codex home made of copies of the real session files, for the commands that work on
//! whole homes (`du`, `compress`).

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_home::all_rollout_files;
use codex_protocol::rollout::RolloutItem;
use codex_rollout::load_rollout_items;
use codex_rollout::parse_rollout_file_name;

/// Thirty days: older than `compress`'s default age.
pub(crate) const OLD: Duration = Duration::from_secs(30 * 24 * 3600);

/// Copies every real file with a rollout name (`…rollout-<time>-<uuid>.jsonl`, the author's
/// prefix dropped) into `home/sessions/YYYY/MM/DD/`, modified `age` ago. Returns the copies.
pub(crate) fn home_of_real_files(
    real: &[PathBuf],
    home: &Path,
    age: Duration,
) -> Result<Vec<PathBuf>, Box<dyn std::error::Error>> {
    let mut copies = Vec::new();
    for file in real {
        let name = super::name(file);
        let Some(at) = name.find("rollout-") else {
            continue;
        };
        let name = &name[at..];
        let Some(parsed) = parse_rollout_file_name(name) else {
            continue;
        };
        let folder = home
            .join("sessions")
            .join(parsed.created.format("%Y/%m/%d").to_string());
        std::fs::create_dir_all(&folder)?;
        let copy = folder.join(name);
        std::fs::copy(file, &copy)?;
        let mut permissions = std::fs::metadata(&copy)?.permissions();
        #[allow(clippy::permissions_set_readonly_false)]
        permissions.set_readonly(false);
        std::fs::set_permissions(&copy, permissions)?;
        File::options()
            .write(true)
            .open(&copy)?
            .set_modified(SystemTime::now() - age)?;
        copies.push(copy);
    }
    Ok(copies)
}

/// The session key of a rollout file: its name without `.zst`.
pub(crate) fn session_key(path: &Path) -> String {
    let name = super::name(path);
    name.strip_suffix(".zst").unwrap_or(&name).to_string()
}

/// Sessions by key: the file listed and the items it loads to.
pub(crate) type Sessions = BTreeMap<String, (PathBuf, Vec<RolloutItem>)>;

/// Every session the home lists, by key, with the items it loads to.
pub(crate) fn sessions_of(home: &Path) -> Result<Sessions, Box<dyn std::error::Error>> {
    let home = codex_rollout::CodexHome::new(home);
    let mut sessions = BTreeMap::new();
    for found in all_rollout_files(&home)? {
        let loaded = load_rollout_items(&found.path)?;
        let key = session_key(&found.path);
        let items = loaded.contents.items().to_vec();
        if sessions.insert(key.clone(), (found.path, items)).is_some() {
            return Err(format!("{key} listed twice").into());
        }
    }
    Ok(sessions)
}
