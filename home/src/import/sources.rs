//! The session files an import's sources hold, and what is to be done with each.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use codex_protocol::rollout::HistoryMode;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{
    ARCHIVED_SESSIONS_SUBDIR, CodexHome, RolloutFileName, home_of_rollout_path,
    parse_rollout_file_name, session_meta_of_file,
};

use super::settings_appended::grown_by_settings;
use super::{ImportError, ImportOptions, PlannedAction, PlannedFile, plain_sibling};
use crate::{all_rollout_files, find_rollout_by_thread_id, rollout_files_under};

/// A session file of a source.
#[derive(Debug, Clone)]
pub(super) struct FoundFile {
    path: PathBuf,
    file_name: String,
    name: RolloutFileName,
    archived: bool,
    /// The thread (the id its name carries, as Codex finds a thread's file).
    pub(super) thread_id: Option<ThreadId>,
    /// The thread's name in its source home.
    thread_name: Option<String>,
}

/// The session files of an import's sources, and the folders archives were unpacked into
/// (removed when dropped: the files are copied from there).
pub(super) struct Found {
    pub(super) files: Vec<FoundFile>,
    pub(super) unpacked: Vec<tempfile::TempDir>,
}

/// Every session file `sources` hold, each once: a session file itself, every session file of
/// a home (live and archived), of a folder and its subfolders, or of a `.tar` or `.tar.zst`
/// archive of any of these (unpacked into a temporary folder first).
pub(super) fn session_files(sources: &[PathBuf]) -> Result<Found, ImportError> {
    let mut unpacked = Vec::new();
    let mut expanded = Vec::with_capacity(sources.len());
    for source in sources {
        match archive_kind(source) {
            Some(zstd) => {
                let folder = unpack(source, zstd)?;
                expanded.push(folder.path().to_path_buf());
                unpacked.push(folder);
            }
            None => expanded.push(source.clone()),
        }
    }
    let files = files_of(&expanded)?;
    Ok(Found { files, unpacked })
}

/// Whether `path` names a tar archive: `Some(true)` for `.tar.zst`, `Some(false)` for `.tar`.
fn archive_kind(path: &Path) -> Option<bool> {
    let name = path.file_name()?.to_str()?;
    if name.ends_with(".tar.zst") || name.ends_with(".tzst") {
        Some(true)
    } else {
        name.ends_with(".tar").then_some(false)
    }
}

/// The archive at `path` unpacked into a temporary folder (the `tar` crate refuses entries
/// that would land outside it); the folder, or the one home or folder it holds alone.
fn unpack(path: &Path, zstd: bool) -> Result<tempfile::TempDir, ImportError> {
    let failed = |source| ImportError::Source {
        path: path.to_path_buf(),
        source,
    };
    let folder = tempfile::Builder::new()
        .prefix("codex-thread-import-")
        .tempdir()
        .map_err(failed)?;
    let file = File::open(path).map_err(failed)?;
    let reader: Box<dyn Read> = match zstd {
        true => Box::new(zstd::Decoder::new(file).map_err(failed)?),
        false => Box::new(file),
    };
    tar::Archive::new(reader)
        .unpack(folder.path())
        .map_err(failed)?;
    Ok(folder)
}

/// The session files of `sources` (files, homes, folders), each once.
fn files_of(sources: &[PathBuf]) -> Result<Vec<FoundFile>, ImportError> {
    let mut found = Vec::new();
    let mut seen = HashSet::new();
    for source in sources {
        let source = &archive_root(source);
        let source_error = |source_error| ImportError::Source {
            path: source.clone(),
            source: source_error,
        };
        let metadata = std::fs::metadata(source).map_err(source_error)?;
        let (paths, names) = if metadata.is_file() {
            let names = home_of_rollout_path(source)
                .map(|home| home.thread_names())
                .transpose()
                .map_err(source_error)?;
            (vec![source.clone()], names.unwrap_or_default())
        } else if metadata.is_dir() && is_home(source) {
            let home = CodexHome::new(source);
            let files = all_rollout_files(&home).map_err(|error| ImportError::Source {
                path: source.clone(),
                source: io::Error::other(error.to_string()),
            })?;
            let names = home.thread_names().map_err(source_error)?;
            (files.into_iter().map(|found| found.path).collect(), names)
        } else if metadata.is_dir() {
            (
                rollout_files_under(source).map_err(source_error)?,
                HashMap::new(),
            )
        } else {
            return Err(ImportError::NotASession {
                path: source.clone(),
                why: "neither a session file nor a folder",
            });
        };
        let single = metadata.is_file();
        for path in paths {
            let key = path.canonicalize().unwrap_or_else(|_| path.clone());
            if !seen.insert(key) {
                continue;
            }
            match found_file(&path, &names) {
                Some(file) => found.push(file),
                None if single => {
                    return Err(ImportError::NotASession {
                        path,
                        why: "not a session file name (rollout-<time>-<thread id>.jsonl[.zst])",
                    });
                }
                None => {}
            }
        }
    }
    Ok(found)
}

/// `source`, or for a folder holding nothing but one folder (an unpacked `.codex/`), that
/// folder.
fn archive_root(source: &Path) -> PathBuf {
    let Ok(entries) = std::fs::read_dir(source) else {
        return source.to_path_buf();
    };
    let entries: Vec<PathBuf> = entries.flatten().map(|entry| entry.path()).collect();
    match entries.as_slice() {
        [only] if only.is_dir() && !is_home(source) => archive_root(only),
        _ => source.to_path_buf(),
    }
}

/// Whether `folder` is a Codex home (it has a sessions folder).
fn is_home(folder: &Path) -> bool {
    folder.join("sessions").is_dir() || folder.join(ARCHIVED_SESSIONS_SUBDIR).is_dir()
}

/// The session file at `path`, when its name is a session file's.
fn found_file(path: &Path, names: &HashMap<String, String>) -> Option<FoundFile> {
    let file_name = path.file_name()?.to_str()?.to_owned();
    let name = parse_rollout_file_name(&file_name)?;
    let archived = path
        .parent()
        .and_then(Path::file_name)
        .is_some_and(|folder| folder == ARCHIVED_SESSIONS_SUBDIR);
    let thread_id = Some(ThreadId::from_uuid(name.thread_id));
    let thread_name = names.get(&name.thread_id.to_string()).cloned();
    Some(FoundFile {
        path: path.to_path_buf(),
        file_name,
        name,
        archived,
        thread_id,
        thread_name,
    })
}

/// Where `file` goes in `home`: under its own name, in `archived_sessions/` when it was
/// archived, else in the day folder of the time its name carries.
pub(super) fn target_of(home: &CodexHome, file: &FoundFile) -> PathBuf {
    if file.archived {
        return home.archived_sessions_dir().join(&file.file_name);
    }
    let dated = home.rollout_path(file.name.created, file.name.thread_id);
    dated
        .parent()
        .map_or_else(|| home.sessions_dir(), Path::to_path_buf)
        .join(&file.file_name)
}

/// What is to be done with `file` (see the module docs of `import`); `importing` holds the
/// targets of every thread the import brings.
pub(super) fn plan_file(
    home: &CodexHome,
    file: FoundFile,
    importing: &BTreeMap<ThreadId, Vec<PathBuf>>,
    options: ImportOptions,
) -> Result<PlannedFile, ImportError> {
    let target = target_of(home, &file);
    let thread_id = file
        .thread_id
        .unwrap_or_else(|| ThreadId::from_uuid(file.name.thread_id));
    let mut planned = PlannedFile {
        source: file.path.clone(),
        thread_id,
        target: target.clone(),
        paginated: false,
        parent: None,
        name: file.thread_name.clone(),
        action: PlannedAction::Copy,
    };
    let meta = match session_meta_of_file(&file.path) {
        Ok(Some(meta)) => meta,
        Ok(None) => {
            planned.action = PlannedAction::Unreadable {
                reason: "no session meta among its first lines".to_owned(),
            };
            return Ok(planned);
        }
        Err(error) => {
            planned.action = PlannedAction::Unreadable {
                reason: error.to_string(),
            };
            return Ok(planned);
        }
    };
    planned.paginated = meta.meta.effective_history_mode() == HistoryMode::Paginated;
    planned.parent = meta.meta.history_base.map(|base| base.thread_id);
    let known = |existing: PathBuf| match options.new_copy_of_known {
        true => PlannedAction::NewCopy { existing },
        false => PlannedAction::InHome { existing },
    };
    let home_error = |source| ImportError::Home {
        path: home.root.clone(),
        source,
    };
    if let Some(source_home) = home_of_rollout_path(&file.path)
        && crate::thread_writer_lock(&source_home, thread_id).forbids_rewrite()
    {
        planned.action = PlannedAction::BeingWritten;
        return Ok(planned);
    }
    if target.exists() {
        // Placed by an earlier import, maybe with the settings line Codex appended when it
        // registered the thread.
        let placed_before = same_bytes(&file.path, &target).map_err(home_error)?
            || grown_by_settings(&file.path, &target).map_err(home_error)?;
        planned.action = match placed_before {
            true => PlannedAction::AlreadyThere,
            false => known(target),
        };
        return Ok(planned);
    }
    // A compressed session an earlier import placed, which Codex wrote back plain when it
    // resumed it.
    if let Some(plain) = written_back(&target)
        && same_decoded(&file.path, &plain).map_err(home_error)?
    {
        planned.target = plain;
        planned.action = PlannedAction::AlreadyThere;
        return Ok(planned);
    }
    let in_home = find_rollout_by_thread_id(home, thread_id)
        .map_err(|error| home_error(io::Error::other(error.to_string())))?;
    let ours = importing.get(&thread_id);
    if let Some(existing) = in_home
        && !ours.is_some_and(|targets| targets.contains(&existing))
    {
        planned.action = known(existing);
        return Ok(planned);
    }
    if let Some(parent) = planned.parent
        && !importing.contains_key(&parent)
        && find_rollout_by_thread_id(home, parent)
            .map_err(|error| home_error(io::Error::other(error.to_string())))?
            .is_none()
    {
        planned.action = PlannedAction::MissingParent { parent };
    }
    Ok(planned)
}

/// The plain file beside the compressed `target`, when there is one.
fn written_back(target: &Path) -> Option<PathBuf> {
    plain_sibling(target).filter(|plain| plain.exists())
}

/// Whether the compressed file at `compressed` decodes to the bytes of the file at `plain`.
fn same_decoded(compressed: &Path, plain: &Path) -> io::Result<bool> {
    same_content(
        zstd::Decoder::new(File::open(compressed)?)?,
        File::open(plain)?,
    )
}

/// Whether the files at `a` and `b` hold the same bytes.
pub(super) fn same_bytes(a: &Path, b: &Path) -> io::Result<bool> {
    let (a, b) = (File::open(a)?, File::open(b)?);
    if a.metadata()?.len() != b.metadata()?.len() {
        return Ok(false);
    }
    same_content(a, b)
}

/// Whether `a` and `b` read the same bytes.
fn same_content(mut a: impl Read, mut b: impl Read) -> io::Result<bool> {
    let (mut left, mut right) = (vec![0; 1 << 16], vec![0; 1 << 16]);
    loop {
        let read = read_full(&mut a, &mut left)?;
        if read != read_full(&mut b, &mut right)? || left[..read] != right[..read] {
            return Ok(false);
        }
        if read == 0 {
            return Ok(true);
        }
    }
}

/// Fills `buffer` as far as the reader goes; how much was read.
fn read_full(reader: &mut impl Read, buffer: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buffer.len() {
        match reader.read(&mut buffer[filled..])? {
            0 => break,
            read => filled += read,
        }
    }
    Ok(filled)
}
