//! `codex-thread prune` over a home the real Codex wrote: the plan (dry run by default, held
//! threads with their reason), then each action applied, after which the real app-server's
//! `thread/list` and `thread/read` agree with the files: an archived thread listed as
//! archived, a deleted one not at all (its bytes in the trash until `--empty-trash`), a
//! compressed one read as before. And a kill test: `prune --apply` killed at random moments,
//! every thread still readable by us and by Codex afterwards, none lost.

use crate::common;

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use codex_test_support::{CodexHome, RealCodex, Reply, Script, ScriptedModel, real_codex_or_skip};
use serde_json::Value;

use common::TestResult;
use common::real_codex::{rollout_of, run_ours, text};

type Failure = Box<dyn std::error::Error>;

/// `n` threads written by Codex, one turn each; their ids.
fn threads(home: &CodexHome, model: &ScriptedModel, n: usize) -> Result<Vec<String>, Failure> {
    (0..n)
        .map(|i| {
            model.push_reply(Reply::message(&format!("msg_{i}"), &format!("Answer {i}.")));
            let run = home.exec(&format!("question {i}"))?;
            Ok(run.assert_success().expect_thread_id().to_owned())
        })
        .collect()
}

/// Sets the modification time of `thread`'s files to `days` ago.
fn age(home: &CodexHome, thread: &str, days: u32) -> TestResult {
    let path = rollout_of(home, thread)?;
    let status = std::process::Command::new("touch")
        .args(["-d", &format!("{days} days ago"), text(&path)?])
        .status()?;
    assert!(status.success());
    Ok(())
}

/// `codex-thread --json prune --home H ARGS...`: the thread lines by id, and the summary.
fn prune(
    home: &Path,
    codex: &RealCodex,
    args: &[&str],
) -> Result<(BTreeMap<String, Value>, Value), Failure> {
    let mut all = vec![
        "--json",
        "prune",
        "--home",
        text(home)?,
        "--codex",
        text(codex.bin())?,
    ];
    all.extend_from_slice(args);
    let out = run_ours(&all)?;
    let mut threads = BTreeMap::new();
    let mut summary = Value::Null;
    for line in out.lines() {
        let value: Value = serde_json::from_str(line)?;
        match value["type"].as_str() {
            Some("thread") => {
                threads.insert(
                    value["thread_id"].as_str().ok_or("no id")?.to_owned(),
                    value,
                );
            }
            _ => summary = value,
        }
    }
    Ok((threads, summary))
}

/// What Codex lists: live ids and archived ids.
fn listed(home: &CodexHome) -> Result<(BTreeSet<String>, BTreeSet<String>), Failure> {
    let mut app_server = home.app_server()?;
    let ids = |threads: Vec<Value>| -> BTreeSet<String> {
        threads
            .iter()
            .filter_map(|thread| thread["id"].as_str().map(str::to_owned))
            .collect()
    };
    Ok((
        ids(app_server.thread_list(false)?),
        ids(app_server.thread_list(true)?),
    ))
}

/// Codex's turns of each thread (`thread/read`).
fn read_all(home: &CodexHome, ids: &BTreeSet<String>) -> Result<BTreeMap<String, Value>, Failure> {
    let mut app_server = home.app_server()?;
    ids.iter()
        .map(|id| {
            let thread = app_server
                .thread_read(id)
                .map_err(|err| format!("thread/read {id}: {err}"))?;
            Ok((id.clone(), thread["turns"].clone()))
        })
        .collect()
}

#[test]
fn prune_plans_and_applies_each_action_and_codex_agrees() -> TestResult {
    let Some(codex) = real_codex_or_skip("prune_plans_and_applies_each_action_and_codex_agrees")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let ids = threads(&home, &model, 5)?;
    let [old, older, compressible, recent, locked] = [0, 1, 2, 3, 4].map(|i| ids[i].clone());
    age(&home, &old, 30)?;
    age(&home, &older, 60)?;
    age(&home, &compressible, 20)?;
    age(&home, &locked, 90)?;
    let before = read_all(&home, &ids.iter().cloned().collect())?;
    // A running Codex's writer lock on `locked`.
    let locks = home.path().join("thread-writer-locks");
    std::fs::create_dir_all(&locks)?;
    let lock = File::create(locks.join(format!("{locked}.lock")))?;
    lock.lock()?;

    // The plan: dry run by default, nothing moves.
    let files_before = home.session_files()?;
    let (plan, summary) = prune(home.path(), &codex, &["--action", "delete"])?;
    assert_eq!(home.session_files()?, files_before);
    assert_eq!(summary["threads_in_home"], 5);
    assert_eq!(plan[&recent]["hold"], "recently_written");
    assert_eq!(plan[&locked]["hold"], "open_in_codex");
    assert_eq!(plan[&old]["hold"], Value::Null);
    // `--keep-last 4` keeps the four newest of the one working directory.
    let (plan, _) = prune(
        home.path(),
        &codex,
        &["--action", "delete", "--keep-last", "4"],
    )?;
    assert_eq!(plan.keys().collect::<Vec<_>>(), vec![&locked], "{plan:?}");
    // `list --plan` shows the same plan; `du --plan` the bytes per directory and month.
    let listed_plan = run_ours(&[
        "--json",
        "list",
        "--home",
        text(home.path())?,
        "--plan",
        "delete,keep-last=4",
    ])?;
    assert_eq!(
        listed_plan
            .lines()
            .filter(|line| line.contains(&locked))
            .count(),
        1
    );
    assert_eq!(listed_plan.lines().count(), 2, "{listed_plan}");
    let du: Value = serde_json::from_str(&run_ours(&[
        "--json",
        "du",
        "--home",
        text(home.path())?,
        "--plan",
        "delete,older-than=25d",
    ])?)?;
    assert_eq!(du["total"]["threads"], 5);
    assert_eq!(du["total"]["acting"], 2, "{du}");
    assert_eq!(du["per_cwd"][text(home.work_dir())?]["acting"], 2, "{du}");

    // Archive what is older than 50 days (the locked thread is held), delete what is older
    // than 25 days and still live, compress the rest older than a week.
    let (applied, _) = prune(
        home.path(),
        &codex,
        &["--action", "archive", "--older-than", "50d", "--apply"],
    )?;
    assert_eq!(applied[&older]["applied"]["outcome"], "done", "{applied:?}");
    assert_eq!(applied[&locked]["applied"]["outcome"], "held");
    let (applied, _) = prune(
        home.path(),
        &codex,
        &[
            "--action",
            "delete",
            "--older-than",
            "25d",
            "--live",
            "--apply",
        ],
    )?;
    assert_eq!(applied[&old]["applied"]["outcome"], "done", "{applied:?}");
    assert_eq!(applied[&locked]["applied"]["outcome"], "held");
    assert_eq!(applied.len(), 2, "{applied:?}");
    let (applied, _) = prune(
        home.path(),
        &codex,
        &[
            "--action",
            "compress",
            "--older-than",
            "7d",
            "--live",
            "--apply",
        ],
    )?;
    assert_eq!(
        applied[&compressible]["applied"]["outcome"], "done",
        "{applied:?}"
    );
    drop(lock);

    // The files.
    let trashed: Vec<PathBuf> = walk(&home.path().join("trash"));
    assert_eq!(trashed.len(), 1, "{trashed:?}");
    assert!(trashed[0].to_string_lossy().contains(&old));
    let archived = walk(&home.path().join("archived_sessions"));
    assert_eq!(archived.len(), 1);
    assert!(archived[0].to_string_lossy().contains(&older));
    assert!(
        rollout_of(&home, &compressible)?
            .to_string_lossy()
            .ends_with(".jsonl.zst")
    );

    // What Codex shows: the archived thread archived, the deleted one nowhere, the rest live,
    // and every listed thread reads with the turns it had.
    let (live, archived_ids) = listed(&home)?;
    let expect_live: BTreeSet<String> = [&compressible, &recent, &locked]
        .into_iter()
        .cloned()
        .collect();
    assert_eq!(live, expect_live);
    assert_eq!(archived_ids, BTreeSet::from([older]));
    let after = read_all(&home, &live.union(&archived_ids).cloned().collect())?;
    for (id, turns) in &after {
        assert_eq!(turns, &before[id], "{id} reads differently after prune");
    }
    let mut app_server = home.app_server()?;
    assert!(
        app_server.thread_read(&old).is_err(),
        "a deleted thread still reads"
    );
    drop(app_server);

    // The trash: kept within the grace period, removed after it.
    let out = run_ours(&[
        "--json",
        "prune",
        "--home",
        text(home.path())?,
        "--empty-trash",
        "--apply",
    ])?;
    let report: Value = serde_json::from_str(out.trim())?;
    assert_eq!(report["folders"][0]["expired"], false);
    assert_eq!(walk(&home.path().join("trash")).len(), 1);
    run_ours(&[
        "prune",
        "--home",
        text(home.path())?,
        "--empty-trash",
        "--grace",
        "0",
        "--apply",
    ])?;
    assert!(walk(&home.path().join("trash")).is_empty());
    Ok(())
}

/// `codex-thread prune --home H --codex CODEX --apply ARGS...`, to be started.
fn applying(
    home: &CodexHome,
    codex: &Path,
    args: &[&str],
) -> Result<std::process::Command, Failure> {
    let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_codex-thread"));
    command
        .env_remove("CODEX_HOME")
        .args([
            "prune",
            "--home",
            text(home.path())?,
            "--codex",
            text(codex)?,
        ])
        .arg("--apply")
        .args(args);
    Ok(command)
}

/// Every file under `dir`.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files = Vec::new();
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk(&path));
        } else if !entry.file_name().to_string_lossy().starts_with(".pending") {
            files.push(path);
        }
    }
    files.sort();
    files
}

/// `prune --apply` killed at random moments, over and over, each action in turn; then one
/// run to the end. No thread is lost (each is live, archived or in the trash), every file
/// we find reads, and every thread Codex lists reads in Codex.
#[test]
fn prune_killed_at_random_moments_loses_nothing() -> TestResult {
    let Some(codex) = real_codex_or_skip("prune_killed_at_random_moments_loses_nothing") else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let ids = threads(&home, &model, 12)?;
    for (i, id) in ids.iter().enumerate() {
        age(&home, id, 10 + i as u32)?;
    }
    let mut seed = Instant::now().elapsed().as_nanos() as u64 | 1;
    let mut random = move |bound: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % bound
    };
    let plans: [&[&str]; 3] = [
        &["--action", "compress", "--older-than", "15d"],
        &["--action", "archive", "--older-than", "18d"],
        &["--action", "delete", "--older-than", "12d", "--live"],
    ];
    let mut kills = 0;
    for round in 0..9 {
        let mut child = applying(&home, codex.bin(), plans[round % 3])?
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()?;
        std::thread::sleep(Duration::from_millis(random(400)));
        if child.try_wait()?.is_none() {
            child.kill()?;
            kills += 1;
        }
        child.wait()?;
    }
    // One run of each to the end finishes what the kills interrupted.
    for plan in plans {
        let mut all = vec![
            "prune",
            "--home",
            text(home.path())?,
            "--codex",
            text(codex.bin())?,
            "--apply",
        ];
        all.extend_from_slice(plan);
        run_ours(&all)?;
    }
    assert!(kills >= 1, "no run was killed: the test proves nothing");

    let trashed: BTreeSet<String> = walk(&home.path().join("trash"))
        .iter()
        .filter_map(|path| {
            ids.iter()
                .find(|id| path.to_string_lossy().contains(id.as_str()))
                .cloned()
        })
        .collect();
    let (live, archived) = listed(&home)?;
    for id in &ids {
        let places = [
            live.contains(id),
            archived.contains(id),
            trashed.contains(id),
        ];
        assert_eq!(
            places.iter().filter(|&&here| here).count(),
            1,
            "{id}: live, archived, trash = {places:?}"
        );
    }
    // Ages 10 to 21 days: the four oldest archived, the six next deleted, two left live.
    assert_eq!((live.len(), archived.len(), trashed.len()), (2, 4, 6));
    // The seven older than 15 days are compressed where a compress run reached them: the
    // four archived ones always (the last compress run covers archived threads); of the three
    // deleted ones, those a compress run reached before a delete run did (a kill can stop the
    // first compress run before it starts, and the trash is never compressed).
    let is_compressed = |path: &PathBuf| path.to_string_lossy().ends_with(".jsonl.zst");
    let archived_compressed = home
        .session_files()?
        .into_iter()
        .filter(|path| path.to_string_lossy().contains("archived_sessions"))
        .filter(is_compressed)
        .count();
    let trash_compressed = walk(&home.path().join("trash"))
        .iter()
        .filter(|path| is_compressed(path))
        .count();
    assert_eq!(archived_compressed, 4, "archived threads left plain");
    assert!(
        trash_compressed <= 3,
        "{trash_compressed} compressed in the trash"
    );
    read_all(&home, &live.union(&archived).cloned().collect())?;
    for file in home
        .session_files()?
        .into_iter()
        .chain(walk(&home.path().join("trash")))
    {
        run_ours(&["--json", "thread", text(&file)?])?;
    }
    Ok(())
}

/// A prune killed while the `codex archive` it started still runs: that command finishes on
/// its own, and a second prune started at once waits for it (the lock it inherited) before it
/// plans, so it sees the thread archived. Without the wait, the second prune (deleting live
/// threads) planned the thread as live, found its file gone when it moved it, and a later run
/// asked Codex to delete a thread whose only file was by then in `archived_sessions/`.
#[test]
fn a_prune_killed_while_codex_archives_holds_the_home_until_codex_is_done() -> TestResult {
    use std::os::unix::fs::PermissionsExt;

    let Some(codex) = real_codex_or_skip(
        "a_prune_killed_while_codex_archives_holds_the_home_until_codex_is_done",
    ) else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let ids = threads(&home, &model, 1)?;
    age(&home, &ids[0], 20)?;
    // A Codex that says it started, then takes its time (long enough for the second prune
    // to start and find the lock held, on a loaded machine too).
    let scratch = tempfile::tempdir()?;
    let started = scratch.path().join("started");
    let slow = scratch.path().join("slow-codex");
    std::fs::write(
        &slow,
        format!(
            "#!/bin/sh\n: > '{}'\nsleep 3\nexec '{}' \"$@\"\n",
            started.display(),
            codex.bin().display()
        ),
    )?;
    std::fs::set_permissions(&slow, std::fs::Permissions::from_mode(0o755))?;

    let mut archiving = applying(
        &home,
        &slow,
        &["--action", "archive", "--older-than", "18d"],
    )?
    .stdout(Stdio::null())
    .stderr(Stdio::null())
    .spawn()?;
    let deadline = Instant::now() + Duration::from_secs(60);
    while !started.exists() {
        assert!(Instant::now() < deadline, "the slow Codex never started");
        std::thread::sleep(Duration::from_millis(10));
    }
    archiving.kill()?;
    archiving.wait()?;

    let deleting = applying(
        &home,
        codex.bin(),
        &["--action", "delete", "--older-than", "12d", "--live"],
    )?
    .output()?;
    let stderr = String::from_utf8_lossy(&deleting.stderr);
    assert!(deleting.status.success(), "{stderr}");
    assert!(stderr.contains("waiting for another prune"), "{stderr}");

    let (live, archived) = listed(&home)?;
    assert!(live.is_empty(), "{live:?}");
    assert_eq!(archived, BTreeSet::from([ids[0].clone()]));
    assert!(walk(&home.path().join("trash")).is_empty());
    read_all(&home, &archived)?;
    Ok(())
}

/// A compression killed after its checked copy was written, before the plain file went: the
/// thread has `X.jsonl` and `X.jsonl.zst`. Archiving it finishes the compression first, so
/// Codex archives the one copy and no piece of the thread stays behind in `sessions/`.
#[test]
fn an_interrupted_compression_is_finished_before_codex_archives() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("an_interrupted_compression_is_finished_before_codex_archives")
    else {
        return Ok(());
    };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    let ids = threads(&home, &model, 1)?;
    age(&home, &ids[0], 20)?;
    let before = read_all(&home, &ids.iter().cloned().collect())?;
    let plain = rollout_of(&home, &ids[0])?;
    let copy = PathBuf::from(format!("{}.zst", plain.display()));
    std::fs::write(&copy, zstd::encode_all(File::open(&plain)?, 3)?)?;
    let status = std::process::Command::new("touch")
        .args(["-r", text(&plain)?, text(&copy)?])
        .status()?;
    assert!(status.success());

    let (applied, _) = prune(
        home.path(),
        &codex,
        &["--action", "archive", "--older-than", "18d", "--apply"],
    )?;
    assert_eq!(
        applied[&ids[0]]["applied"]["outcome"], "done",
        "{applied:?}"
    );
    let left: Vec<PathBuf> = walk(&home.path().join("sessions"));
    assert!(left.is_empty(), "{left:?}");
    let (live, archived) = listed(&home)?;
    assert!(live.is_empty(), "{live:?}");
    assert_eq!(archived, BTreeSet::from([ids[0].clone()]));
    assert_eq!(read_all(&home, &archived)?, before);
    Ok(())
}
