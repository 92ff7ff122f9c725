//! Doing an import's plan: the copies, then Codex's registration of each thread (see the
//! module docs of `import`).

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs::{File, FileTimes};
use std::io;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use codex_protocol::rollout::HistoryMode;
use codex_protocol::thread_id::ThreadId;
use codex_rollout::{
    CodexHome, ForkMode, ForkPoint, fork_rollout, load_rollout_items, order_key,
    parse_rollout_file_name, session_meta_of_file,
};
use serde::Serialize;
use serde_json::json;

use super::codex_server::CodexServer;
use super::pieces::project_every_piece;
use super::settings_appended::{digest, digest_of_prefix, settings_appended_after};
use super::sources::same_bytes;
use super::{
    ImportError, ImportPlan, PlannedAction, PlannedFile, as_codex_holds_it, plain_sibling,
};

/// What an import did.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ImportReport {
    /// Files copied into the home.
    pub copied: usize,
    /// Files found already there (an earlier import).
    pub already_there: usize,
    /// Sessions imported as new threads, their own being in the home.
    pub new_copies: usize,
    /// Files left alone (in the home already, held, unreadable).
    pub left: usize,
    /// The threads Codex registered, parents first.
    pub threads: Vec<ImportedThread>,
}

/// A thread Codex registered.
#[derive(Debug, Clone, Serialize)]
pub struct ImportedThread {
    /// The thread in the home.
    pub thread_id: ThreadId,
    /// Whether Codex projected its history (paginated) or only read it (legacy).
    pub projected: bool,
    /// The name Codex was given for it, from its source home.
    pub named: Option<String>,
}

/// Does `plan` in `home`, with the Codex executable `codex` registering the threads;
/// `progress` is told of each file as it is done.
pub fn apply_import(
    plan: &ImportPlan,
    home: &CodexHome,
    codex: &OsStr,
    progress: &dyn Fn(&PlannedFile),
) -> Result<ImportReport, ImportError> {
    let mut report = ImportReport::default();
    let mut threads: BTreeMap<ThreadId, Registration> = BTreeMap::new();
    let mut placed = Vec::new();
    for file in &plan.files {
        let thread_id = match &file.action {
            PlannedAction::Copy => {
                copy_into_place(&file.source, &file.target)?;
                report.copied += 1;
                placed.push(file.target.clone());
                file.thread_id
            }
            PlannedAction::AlreadyThere => {
                // An import killed between linking its copy and removing the temporary one.
                remove_leftover(&file.target).map_err(|source| ImportError::Home {
                    path: file.target.clone(),
                    source,
                })?;
                report.already_there += 1;
                placed.push(file.target.clone());
                file.thread_id
            }
            PlannedAction::NewCopy { .. } => {
                // A file of our own making, not held to its bytes: Codex, registering it,
                // records its settings in it (`thread_settings_applied`), as the copied events
                // name the original thread.
                let (thread_id, _path) = new_copy(&file.source, home)?;
                report.new_copies += 1;
                thread_id
            }
            PlannedAction::InHome { .. }
            | PlannedAction::MissingParent { .. }
            | PlannedAction::BeingWritten
            | PlannedAction::Unreadable { .. } => {
                report.left += 1;
                progress(file);
                continue;
            }
        };
        let parent = match file.action {
            PlannedAction::NewCopy { .. } => None,
            _ => file.parent.filter(|parent| *parent != thread_id),
        };
        let entry = threads.entry(thread_id).or_insert(Registration {
            thread_id,
            paginated: file.paginated,
            parent: None,
            name: None,
            pieces: Vec::new(),
        });
        entry.parent = entry.parent.or(parent);
        if !matches!(file.action, PlannedAction::NewCopy { .. }) {
            entry.pieces.push(file.target.clone());
        }
        entry.name = entry.name.take().or_else(|| file.name.clone());
        progress(file);
    }
    if threads.is_empty() {
        return Ok(report);
    }
    // A name the home's index already gives needs no setting.
    let known_names = home.thread_names().map_err(|source| ImportError::Home {
        path: home.root.clone(),
        source,
    })?;
    let registrations = threads
        .into_values()
        .map(|mut registration| {
            let id = registration.thread_id.to_string();
            if registration.name.as_ref() == known_names.get(&id) {
                registration.name = None;
            }
            sort_pieces(&mut registration.pieces);
            registration
        })
        .collect::<Vec<_>>();
    report.threads = register_threads(home, codex, &registrations, &placed)?;
    Ok(report)
}

/// A thread for Codex to register (see [`register_threads`]).
#[derive(Debug, Clone)]
pub(crate) struct Registration {
    pub(crate) thread_id: ThreadId,
    /// Whether Codex projects its history (paginated) or reads it from the file (legacy).
    pub(crate) paginated: bool,
    /// The thread it continues, registered first when among `threads`.
    pub(crate) parent: Option<ThreadId>,
    /// The name Codex is to give it.
    pub(crate) name: Option<String>,
    /// Its files, oldest first, when it is continued in more than one (see `pieces`);
    /// otherwise one file or none.
    pub(crate) pieces: Vec<PathBuf>,
}

/// Orders the files of one thread oldest first, as their names do (a continuation file is
/// written after the file it continues; Codex's row names the newest).
pub(crate) fn sort_pieces(pieces: &mut Vec<PathBuf>) {
    let key = |path: &PathBuf| {
        path.file_name()
            .and_then(OsStr::to_str)
            .and_then(parse_rollout_file_name)
            .map(|name| order_key(&name))
    };
    pieces.sort_by_key(key);
    pieces.dedup();
}

/// Has Codex's own app-server (the executable `codex`) register each of `threads` in `home`,
/// parents first: a paginated thread projected (`thread/resume` without turns, then
/// `thread/unsubscribe`; each of its files when it has several), a legacy one read; each name
/// given set through `thread/name/set`. Fails when a file of `placed` changed size or time
/// meanwhile.
pub(crate) fn register_threads(
    home: &CodexHome,
    codex: &OsStr,
    threads: &[Registration],
    placed: &[PathBuf],
) -> Result<Vec<ImportedThread>, ImportError> {
    let stamps = placed
        .iter()
        .map(|path| {
            // A compressed file Codex wrote back plain (an earlier, killed run's server may
            // still be finishing that) is held to its plain copy.
            let path = as_codex_holds_it(path);
            Kept::of(&path)
                .map(|kept| (path.clone(), kept))
                .map_err(|source| ImportError::Home { path, source })
        })
        .collect::<Result<Vec<_>, _>>()?;
    let mut server = CodexServer::start(codex, home)?;
    let by_id: BTreeMap<ThreadId, &Registration> = threads
        .iter()
        .map(|registration| (registration.thread_id, registration))
        .collect();
    let mut registered = Vec::with_capacity(threads.len());
    for thread_id in parents_first(&by_id) {
        let Some(registration) = by_id.get(&thread_id) else {
            continue;
        };
        let id = thread_id.to_string();
        if registration.paginated {
            server.call(
                "thread/resume",
                json!({"threadId": id, "excludeTurns": true}),
            )?;
            server.call("thread/unsubscribe", json!({"threadId": id}))?;
            if registration.pieces.len() > 1 {
                drop(server);
                project_every_piece(home, codex, thread_id, &registration.pieces)?;
                server = CodexServer::start(codex, home)?;
            }
        } else {
            server.call(
                "thread/read",
                json!({"threadId": id, "includeTurns": false}),
            )?;
        }
        if let Some(name) = &registration.name {
            server.call("thread/name/set", json!({"threadId": id, "name": name}))?;
        }
        registered.push(ImportedThread {
            thread_id,
            projected: registration.paginated,
            named: registration.name.clone(),
        });
    }
    drop(server);
    for (path, before) in stamps {
        before.check(&path)?;
    }
    Ok(registered)
}

/// What a placed file must still be after Codex registered its thread.
#[derive(Debug)]
struct Kept {
    stamp: (u64, SystemTime),
    /// For a compressed file: the digest of its decoded bytes. Codex writes a compressed
    /// thread back plain when it resumes it (seen with 0.169), so the plain file beside it must
    /// then hold the same bytes.
    decoded: Option<[u8; 32]>,
    /// For a plain paginated file (the only kind Codex resumes to register it): the digest of
    /// its bytes, which must stay whole before any settings line Codex appends
    /// (`settings_appended`).
    plain: Option<[u8; 32]>,
}

impl Kept {
    fn of(path: &Path) -> io::Result<Self> {
        let stamp = stamp(path)?;
        let paginated = || {
            session_meta_of_file(path).is_ok_and(|meta| {
                meta.is_some_and(|meta| {
                    meta.meta.effective_history_mode() == HistoryMode::Paginated
                })
            })
        };
        let (decoded, plain) = match plain_sibling(path) {
            Some(_) => (Some(digest(zstd::Decoder::new(File::open(path)?)?)?), None),
            None if paginated() => (None, Some(digest_of_prefix(path, stamp.0)?)),
            None => (None, None),
        };
        Ok(Self {
            stamp,
            decoded,
            plain,
        })
    }

    /// Fails unless `path` is as it was, a plain file grew by settings lines only, or a
    /// compressed file was written back plain with the same bytes.
    fn check(&self, path: &Path) -> Result<(), ImportError> {
        let changed = |what| ImportError::ChangedByCodex {
            path: path.to_path_buf(),
            what,
        };
        let after = stamp(path);
        if let (Ok(after), Some(plain)) = (&after, &self.plain)
            && after.0 > self.stamp.0
            && settings_appended_after(path, self.stamp.0, plain).unwrap_or(false)
        {
            return Ok(());
        }
        match (after, plain_sibling(path), self.decoded) {
            (Ok(after), _, _) if after.0 != self.stamp.0 => Err(changed("size")),
            (Ok(after), _, _) if after.1 != self.stamp.1 => Err(changed("modification time")),
            (Ok(_), _, _) => Ok(()),
            (Err(_), Some(plain), Some(decoded)) => {
                let written_back = File::open(&plain).and_then(digest).ok();
                match written_back == Some(decoded) {
                    true => Ok(()),
                    false => Err(changed("content, written back plain")),
                }
            }
            (Err(_), _, _) => Err(changed("presence")),
        }
    }
}

/// A file's size and modification time.
fn stamp(path: &Path) -> io::Result<(u64, SystemTime)> {
    let metadata = std::fs::metadata(path)?;
    Ok((metadata.len(), metadata.modified()?))
}

/// The threads of `threads` in an order where each parent comes before the threads that
/// continue it (a parent outside them is the home's, registered already).
fn parents_first(threads: &BTreeMap<ThreadId, &Registration>) -> Vec<ThreadId> {
    let mut ordered = Vec::with_capacity(threads.len());
    let mut placed = std::collections::HashSet::new();
    while ordered.len() < threads.len() {
        let before = ordered.len();
        for (thread_id, registration) in threads {
            let ready = registration
                .parent
                .is_none_or(|parent| placed.contains(&parent) || !threads.contains_key(&parent));
            if ready && !placed.contains(thread_id) {
                placed.insert(*thread_id);
                ordered.push(*thread_id);
            }
        }
        if ordered.len() == before {
            // A circle of parents (no file Codex writes has one): the rest in id order.
            ordered.extend(threads.keys().filter(|id| !placed.contains(*id)).copied());
            break;
        }
    }
    ordered
}

/// Copies `source` to `target`, which must not exist: into a temporary file beside it, checked
/// against the source, given the source's modification time, then linked into place (which
/// fails rather than replace a file) and the temporary file removed.
fn copy_into_place(source: &Path, target: &Path) -> Result<(), ImportError> {
    let home_error = |source| ImportError::Home {
        path: target.to_path_buf(),
        source,
    };
    let folder = target.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(folder).map_err(home_error)?;
    let temporary = temporary_of(target);
    remove_leftover(target).map_err(home_error)?;
    let copy_error = |why: String| ImportError::Copy {
        path: source.to_path_buf(),
        why,
    };
    let before = stamp(source).map_err(|error| copy_error(error.to_string()))?;
    let copied = (|| -> io::Result<()> {
        let mut from = File::open(source)?;
        let mut to = File::create_new(&temporary)?;
        io::copy(&mut from, &mut to)?;
        to.set_times(FileTimes::new().set_modified(before.1))?;
        to.sync_all()
    })();
    let checked = copied.map_err(|error| error.to_string()).and_then(|()| {
        let after = stamp(source).map_err(|error| error.to_string())?;
        if after != before {
            return Err("the file changed while it was copied (is Codex writing it?)".to_owned());
        }
        match same_bytes(source, &temporary) {
            Ok(true) => Ok(()),
            Ok(false) => Err("the copy does not hold the file's bytes".to_owned()),
            Err(error) => Err(error.to_string()),
        }
    });
    if let Err(why) = checked {
        let _ = std::fs::remove_file(&temporary);
        return Err(copy_error(why));
    }
    let linked = std::fs::hard_link(&temporary, target);
    let _ = std::fs::remove_file(&temporary);
    linked.map_err(home_error)?;
    if let Ok(folder) = File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// The temporary file a copy to `target` is written to first.
fn temporary_of(target: &Path) -> PathBuf {
    let name = target
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default();
    target.with_file_name(format!(".{name}.importing"))
}

/// Removes the temporary file a killed import left beside `target`, if any.
fn remove_leftover(target: &Path) -> io::Result<()> {
    match std::fs::remove_file(temporary_of(target)) {
        Err(error) if error.kind() != io::ErrorKind::NotFound => Err(error),
        _ => Ok(()),
    }
}

/// Imports `source` as a new thread of `home` (a copy under a new id, through `fork`); the
/// new thread and its file.
fn new_copy(source: &Path, home: &CodexHome) -> Result<(ThreadId, PathBuf), ImportError> {
    let failed = |message: String| ImportError::NewCopy {
        path: source.to_path_buf(),
        message,
    };
    let loaded = load_rollout_items(source).map_err(|error| failed(error.to_string()))?;
    let forked = fork_rollout(&loaded, ForkPoint::KeepAll, home, ForkMode::Copy)
        .map_err(|error| failed(error.to_string()))?;
    Ok((forked.thread_id, forked.path))
}
