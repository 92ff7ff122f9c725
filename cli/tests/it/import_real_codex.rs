//! `codex-thread import` makes Codex see every thread it brings: the real Codex writes a home
//! (a paginated thread of two turns, named; a fork of it by reference; a legacy thread,
//! archived), and the test imports that home into a fresh one, into which one paginated file
//! was first copied by hand (Codex then shows that thread empty, as its state lacks its
//! history). After the import, Codex's own `thread/read` of every thread in the new home
//! equals its `thread/read` in the home that wrote it (turns, items, names), its state-only
//! listing lists them all, every file holds its source's bytes and modification time, and a
//! second import finds everything there.

use crate::common;

use std::path::{Path, PathBuf};
use std::time::Duration;

use codex_test_support::{
    ALL_SOURCE_KINDS, AppServer, CodexHome, RealCodex, Reply, Script, ScriptedModel, Tmux,
    assistant_message, real_codex_or_skip,
};
use serde_json::{Value, json};

use common::TestResult;
use common::real_codex::{StatefulThreads, our_thread, run_ours, text, write_stateful_threads};

/// The fields of a thread that say where and when the home that holds it wrote or listed it,
/// set aside (the path is the home's; the update time is the file's time in a home that did
/// not write it, `reference/codex-state.md`).
const HOME_FIELDS: [&str; 3] = ["path", "updatedAt", "recencyAt"];

/// `thread` as compared across homes.
pub(crate) fn comparable(mut thread: Value) -> Value {
    if let Some(fields) = thread.as_object_mut() {
        for key in HOME_FIELDS {
            fields.remove(key);
        }
    }
    thread
}

/// The names a home's `session_index.jsonl` gives, by thread id.
fn source_names(
    home: &CodexHome,
) -> Result<std::collections::HashMap<String, String>, Box<dyn std::error::Error>> {
    Ok(codex_rollout::CodexHome::new(home.path()).thread_names()?)
}

/// The screen of `codex resume --all --include-non-interactive` on `home` (the real TUI in
/// tmux), once it lists two threads named "the folder".
fn tui_picker(codex: &RealCodex, home: &CodexHome) -> Result<String, Box<dyn std::error::Error>> {
    // No folder-trust question, no background daemon.
    let cwd = std::env::current_dir()?;
    let mut config = std::fs::OpenOptions::new()
        .append(true)
        .open(home.path().join("config.toml"))?;
    std::io::Write::write_all(
        &mut config,
        format!(
            "daemon_auto_start = false\n\n[projects.{:?}]\ntrust_level = \"trusted\"\n",
            cwd.display().to_string()
        )
        .as_bytes(),
    )?;
    let tmux = Tmux::start(
        120,
        36,
        &[
            ("CODEX_HOME", home.path().as_os_str()),
            ("RUST_LOG", std::ffi::OsStr::new("")),
        ],
        codex.bin().as_os_str(),
        &["resume", "--all", "--include-non-interactive"],
    )?;
    let screen = tmux.wait_for_text("Resume a previous session");
    let screen = match screen {
        Ok(_) => tmux.wait_for("both live threads, named", |screen| {
            screen
                .lines()
                .filter(|line| line.trim_end().ends_with(" the folder"))
                .count()
                == 2
        }),
        Err(error) => Err(error),
    };
    let captured = tmux.capture().unwrap_or_default();
    let _ = tmux.keys(&["C-c"]);
    screen.map_err(|error| format!("{error}; the screen:\n{captured}").into())
}

/// The session file of `thread_id` among `files`.
fn file_of(files: &[PathBuf], thread_id: &str) -> Result<PathBuf, Box<dyn std::error::Error>> {
    files
        .iter()
        .find(|path| path.to_string_lossy().contains(thread_id))
        .cloned()
        .ok_or_else(|| format!("no file of {thread_id}").into())
}

/// `codex-thread import SOURCE --home DEST --codex CODEX`: what it printed.
pub(crate) fn import_into(
    source: &Path,
    dest: &Path,
    codex: &Path,
) -> Result<String, Box<dyn std::error::Error>> {
    run_ours(&[
        "import",
        text(source)?,
        "--home",
        text(dest)?,
        "--codex",
        text(codex)?,
    ])
}

/// Codex's tables of projected history (`reference/codex-state.md`).
pub(crate) const HISTORY_TABLES: [&str; 3] = [
    "thread_turns",
    "thread_items",
    "thread_history_projection_state",
];

/// The rows of `table` in `home`'s `thread_history_1.sqlite` for `threads`, each as text,
/// sorted.
pub(crate) fn history_rows(
    home: &Path,
    table: &str,
    threads: &[String],
) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let history = rusqlite::Connection::open_with_flags(
        home.join("thread_history_1.sqlite"),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY,
    )?;
    let mut statement = history.prepare(&format!("SELECT * FROM {table}"))?;
    let columns = statement.column_count();
    let mut rows = statement
        .query_map([], |row| {
            (0..columns)
                .map(|column| row.get::<_, rusqlite::types::Value>(column))
                .collect::<Result<Vec<_>, _>>()
        })?
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .map(|row| format!("{row:?}"))
        .filter(|row| threads.iter().any(|id| row.contains(id.as_str())))
        .collect::<Vec<_>>();
    rows.sort();
    Ok(rows)
}

/// The ids `thread/list` answers from Codex's state alone, live and archived.
fn listed_from_state(server: &mut AppServer) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let mut ids = Vec::new();
    for archived in [false, true] {
        let page = server.call(
            "thread/list",
            json!({"useStateDbOnly": true, "archived": archived, "limit": 100,
                   "sourceKinds": ALL_SOURCE_KINDS, "modelProviders": []}),
        )?;
        for thread in page["data"].as_array().into_iter().flatten() {
            ids.extend(thread["id"].as_str().map(str::to_owned));
        }
    }
    Ok(ids)
}

#[test]
fn import_makes_codex_show_every_thread_as_the_home_that_wrote_it() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("import_makes_codex_show_every_thread_as_the_home_that_wrote_it")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let source = CodexHome::new(&codex, &model)?;
    // A paginated thread of two turns, named through Codex, and a legacy thread (archived);
    // a fork of the first (by reference: its history is the parent's prefix and its turn).
    let StatefulThreads { paginated, legacy } = write_stateful_threads(&source, &model)?;
    model.push_reply(Reply::items(vec![assistant_message("msg_4", "Forked.")]));
    let fork = source
        .fork(&paginated, "and in a fork")?
        .expect_thread_id()
        .to_owned();
    source.archive(&legacy)?.assert_success();
    let threads = [paginated.clone(), fork.clone(), legacy];
    let mut server = source.app_server()?;
    let mut written = Vec::new();
    for id in &threads {
        written.push(comparable(server.thread_read(id)?));
    }
    drop(server);
    let source_files = source.session_files()?;

    // A copied paginated file opens empty in Codex.
    let dest = CodexHome::new(&codex, &model)?;
    let copied = file_of(&source_files, &paginated)?;
    let day = copied
        .parent()
        .and_then(|day| day.strip_prefix(source.path()).ok())
        .ok_or("a dated folder")?;
    std::fs::create_dir_all(dest.path().join(day))?;
    std::fs::copy(
        &copied,
        dest.path()
            .join(day)
            .join(copied.file_name().ok_or("name")?),
    )?;
    let mut server = dest.app_server()?;
    let empty = server.thread_read(&paginated)?;
    assert_eq!(
        empty["turns"],
        json!([]),
        "a copied paginated thread opens empty"
    );
    drop(server);

    let import = |extra: &[&str]| -> Result<String, Box<dyn std::error::Error>> {
        let mut args = vec!["import", text(source.path())?, "--home", text(dest.path())?];
        args.extend(["--codex", text(codex.bin())?]);
        args.extend(extra);
        run_ours(&args)
    };
    let plan = import(&["--plan"])?;
    assert!(
        plan.contains("there"),
        "the copied file is found there:\n{plan}"
    );
    let report = import(&[])?;
    // Named: the thread, and its fork, which Codex names after its parent when it forks.
    let names = source_names(&source)?;
    assert!(names.contains_key(&fork), "{names:?}");
    assert!(
        report.contains("Codex registered 3 thread(s): 2 projected, 1 read, 2 named"),
        "{report}"
    );
    let mut server = dest.app_server()?;
    for (id, theirs) in threads.iter().zip(&written) {
        let mut ours = comparable(server.thread_read(id)?);
        // Codex's row of a fork keeps, as its preview, the first message of the history it
        // was forked with (the parent's); a row Codex rebuilds from the fork's file takes the
        // file's own first message. Codex's doing, from a file that says both.
        if *id == fork {
            assert_eq!(ours["preview"], "and in a fork");
            assert_eq!(theirs["preview"], "list the folder");
            ours["preview"] = theirs["preview"].clone();
        }
        assert_eq!(
            &ours, theirs,
            "thread {id} as Codex shows it after the import"
        );
        // Its turns page by page as read whole, and our `thread` of its file the same.
        let paged = server.call(
            "thread/turns/list",
            json!({"threadId": id, "itemsView": "full", "sortDirection": "asc", "limit": 100}),
        )?;
        assert_eq!(paged["data"], ours["turns"], "thread/turns/list of {id}");
        let file = dest
            .session_files()?
            .into_iter()
            .find(|path| path.to_string_lossy().contains(id.as_str()))
            .ok_or("no file")?;
        let our_thread = our_thread(&file, dest.path())?;
        assert_eq!(our_thread["turns"], ours["turns"], "our thread of {id}");
    }
    drop(server);
    // Codex's projected history of each thread, row for row as in the home that wrote it.
    for table in HISTORY_TABLES {
        let (ours, theirs) = (
            history_rows(dest.path(), table, &threads)?,
            history_rows(source.path(), table, &threads)?,
        );
        assert!(!theirs.is_empty(), "{table} holds rows");
        assert_eq!(ours, theirs, "{table}");
    }
    let mut server = dest.app_server()?;
    let listed = listed_from_state(&mut server)?;
    for id in &threads {
        assert!(
            listed.contains(id),
            "{id} is not listed from Codex's state: {listed:?}"
        );
    }
    drop(server);
    for original in &source_files {
        let relative = original.strip_prefix(source.path())?;
        let placed: &Path = &dest.path().join(relative);
        assert_eq!(
            std::fs::read(placed)?,
            std::fs::read(original)?,
            "{}",
            placed.display()
        );
        // The file copied by hand keeps the time of its copy: an import changes no file.
        if *original != copied {
            assert_eq!(
                std::fs::metadata(placed)?.modified()?,
                std::fs::metadata(original)?.modified()?,
                "{}",
                placed.display()
            );
        }
    }
    // The TUI's picker of every session, which reads Codex's state only, lists them.
    // Both live threads, by the name the import gave them (the archived one is under
    // Archived).
    let picker = tui_picker(&codex, &dest)?;
    assert!(!picker.contains("list the folder"), "{picker}");
    let again = import(&["--json"])?;
    let there = again
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .filter(|line| line["action"] == "already_there")
        .count();
    assert_eq!(
        there,
        source_files.len(),
        "a second import finds every file there:\n{again}"
    );

    // An older backup of a thread the home has (its first turn only) is left; asked for, it
    // comes in as a new thread with that history.
    let original = std::fs::read_to_string(file_of(&source_files, &paginated)?)?;
    let second_turn = original
        .match_indices(r#""type":"task_started""#)
        .nth(1)
        .and_then(|(at, _)| original[..at].rfind('\n'))
        .ok_or("no second turn")?;
    let backup_dir = tempfile::tempdir()?;
    let backup = backup_dir.path().join(
        file_of(&source_files, &paginated)?
            .file_name()
            .ok_or("name")?,
    );
    std::fs::write(&backup, &original[..=second_turn])?;
    let import_backup = |extra: &[&str]| -> Result<Value, Box<dyn std::error::Error>> {
        let mut args = vec![
            "--json",
            "import",
            text(&backup)?,
            "--home",
            text(dest.path())?,
        ];
        args.extend(["--codex", text(codex.bin())?]);
        args.extend(extra);
        let printed = run_ours(&args)?;
        Ok(serde_json::from_str(
            printed.lines().last().ok_or("no report")?,
        )?)
    };
    let left = import_backup(&[])?;
    assert_eq!(left["left"], 1, "{left}");
    let copied = import_backup(&["--new-copy"])?;
    assert_eq!(copied["new_copies"], 1, "{copied}");
    let new_id = copied["threads"][0]["thread_id"]
        .as_str()
        .ok_or("no new thread")?
        .to_owned();
    assert_ne!(new_id, paginated);
    let mut server = dest.app_server()?;
    let new_copy = server.thread_read(&new_id)?;
    drop(server);
    assert_eq!(
        new_copy["turns"].as_array().map(Vec::len),
        Some(1),
        "the new copy shows the backup's turn"
    );
    Ok(())
}

/// Where an import is killed, in milliseconds after it starts: while it copies, while Codex
/// starts, while Codex registers.
const KILL_AFTER_MS: [u64; 3] = [20, 150, 600];

/// Compressed sessions (a thread and its fork by reference) imported by an `import` killed
/// at each of [`KILL_AFTER_MS`], then run again.
#[test]
fn an_import_killed_at_any_moment_is_finished_by_the_next() -> TestResult {
    let Some(codex) = real_codex_or_skip("an_import_killed_at_any_moment_is_finished_by_the_next")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let source = CodexHome::new(&codex, &model)?;
    model.push_reply(Reply::items(vec![assistant_message("msg_1", "Hello.")]));
    let first = source.exec("say hello")?.expect_thread_id().to_owned();
    model.push_reply(Reply::items(vec![assistant_message("msg_2", "Forked.")]));
    let fork = source
        .fork(&first, "and in a fork")?
        .expect_thread_id()
        .to_owned();
    let mut server = source.app_server()?;
    let written = [
        comparable(server.thread_read(&first)?),
        comparable(server.thread_read(&fork)?),
    ];
    drop(server);
    // The source's sessions compressed (Codex reads `.jsonl.zst` as it reads plain files).
    run_ours(&[
        "compress",
        "--home",
        text(source.path())?,
        "--older-than",
        "0s",
    ])?;
    let source_files = source.session_files()?;
    assert!(
        source_files
            .iter()
            .all(|path| path.to_string_lossy().ends_with(".jsonl.zst")),
        "{source_files:?}"
    );
    for delay in KILL_AFTER_MS {
        let dest = CodexHome::new(&codex, &model)?;
        let mut killed = std::process::Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
            .args(["import", text(source.path())?, "--home", text(dest.path())?])
            .args(["--codex", text(codex.bin())?])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()?;
        std::thread::sleep(Duration::from_millis(delay));
        let _ = killed.kill();
        killed.wait()?;
        // Whatever is in place is a whole copy.
        for original in &source_files {
            let placed = dest.path().join(original.strip_prefix(source.path())?);
            if placed.exists() {
                assert_eq!(
                    std::fs::read(&placed)?,
                    std::fs::read(original)?,
                    "{}",
                    placed.display()
                );
            }
        }
        import_into(source.path(), dest.path(), codex.bin())?;
        let mut server = dest.app_server()?;
        let mut ours = [
            comparable(server.thread_read(&first)?),
            comparable(server.thread_read(&fork)?),
        ];
        drop(server);
        // The fork's preview, as in the test above: Codex's rebuilt row takes the file's own.
        ours[1]["preview"] = written[1]["preview"].clone();
        assert_eq!(
            ours, written,
            "killed after {delay} ms, then imported again"
        );
        let leftovers: Vec<PathBuf> = dest
            .session_files()?
            .into_iter()
            .chain(walk_leftovers(&dest.path().join("sessions"))?)
            .filter(|path| path.to_string_lossy().ends_with(".importing"))
            .collect();
        assert!(leftovers.is_empty(), "{leftovers:?}");
        // Everything is there, the compressed sessions Codex wrote back plain included.
        let plan = run_ours(&[
            "--json",
            "import",
            text(source.path())?,
            "--home",
            text(dest.path())?,
            "--plan",
        ])?;
        let actions: Vec<Value> = plan
            .lines()
            .filter_map(|line| serde_json::from_str::<Value>(line).ok())
            .map(|line| line["action"].clone())
            .collect();
        assert!(
            actions.iter().all(|action| action == "already_there"),
            "{plan}"
        );
    }
    Ok(())
}

/// Every file under `folder`, at any depth.
fn walk_leftovers(folder: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut files = Vec::new();
    let mut folders = vec![folder.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)? {
            let path = entry?.path();
            match path.is_dir() {
                true => folders.push(path),
                false => files.push(path),
            }
        }
    }
    Ok(files)
}
