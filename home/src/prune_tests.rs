#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use codex_rollout::CodexHome;
use pretty_assertions::assert_eq;

use super::*;
use crate::compress::CompressOptions;
use crate::list::SourceFilter;

const DAY: Duration = Duration::from_secs(24 * 3600);

/// A session of `thread` (the last two hex digits of its id) in `cwd`, recorded by
/// `source`, last written `days` ago, `padding` bytes of text in its message.
fn session(home: &Path, thread: u8, cwd: &str, source: &str, days: u64, padding: usize) -> PathBuf {
    let id = format!("0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a{thread:02x}");
    let day = home.join("sessions/2025/06/02");
    std::fs::create_dir_all(&day).unwrap();
    let path = day.join(format!("rollout-2025-06-02T09-00-00-{id}.jsonl"));
    let text = "x".repeat(padding);
    std::fs::write(
        &path,
        format!(
            "{{\"timestamp\":\"2025-06-02T09:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"{id}\",\"timestamp\":\"2025-06-02T09:00:00.000Z\",\"cwd\":\"{cwd}\",\"originator\":\"t\",\"cli_version\":\"0.1.0\",\"source\":\"{source}\"}}}}\n\
             {{\"timestamp\":\"2025-06-02T09:00:01.000Z\",\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"hi {text}\"}}]}}}}\n"
        ),
    )
    .unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() - DAY * days as u32)
        .unwrap();
    path
}

fn thread_id(thread: u8) -> String {
    format!("0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a{thread:02x}")
}

/// The plan's picked threads, as (last byte of the id, hold).
#[track_caller]
fn check(home: &CodexHome, policy: &Policy, expect: &[(u8, Option<Hold>)]) {
    let plan = plan_prune(home, policy, SystemTime::now()).unwrap();
    let got: Vec<(String, Option<Hold>)> = plan
        .threads
        .iter()
        .map(|thread| (thread.thread_id.to_string(), thread.hold))
        .collect();
    let expect: Vec<(String, Option<Hold>)> = expect
        .iter()
        .map(|(thread, hold)| (thread_id(*thread), *hold))
        .collect();
    assert_eq!(got, expect);
}

fn prune_lock(home: &CodexHome) -> PruneLock {
    PruneLock::acquire(home, |_| panic!("no other prune runs")).unwrap()
}

fn options() -> ApplyOptions {
    ApplyOptions {
        codex: None,
        compress: CompressOptions::default(),
        min_idle: Duration::from_secs(60),
    }
}

#[test]
fn policies_pick_by_age_size_cwd_source_and_keep_the_newest() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    session(dir.path(), 1, "/work/a", "cli", 40, 10);
    session(dir.path(), 2, "/work/a", "exec", 20, 5000);
    session(dir.path(), 3, "/work/b", "exec", 10, 10);
    session(dir.path(), 4, "/work/a/sub", "cli", 0, 10);
    let mut policy = Policy::new(Action::Delete);
    check(
        &home,
        &policy,
        &[
            (1, None),
            (2, None),
            (3, None),
            (4, Some(Hold::RecentlyWritten)),
        ],
    );
    policy.older_than = Some(DAY * 15);
    check(&home, &policy, &[(1, None), (2, None)]);
    policy.older_than = None;
    policy.larger_than = Some(4000);
    check(&home, &policy, &[(2, None)]);
    policy.larger_than = None;
    policy.cwd = Some(PathBuf::from("/work/a"));
    check(
        &home,
        &policy,
        &[(1, None), (2, None), (4, Some(Hold::RecentlyWritten))],
    );
    policy.source = Some(SourceFilter::of_policy_word("exec").unwrap());
    check(&home, &policy, &[(2, None)]);
    policy.cwd = None;
    policy.source = None;
    // The newest of each working directory (`/work/a/sub` is a directory of its own).
    policy.keep_last = Some(1);
    check(&home, &policy, &[(1, None)]);
    policy.keep_last = None;
    policy.archived = Some(true);
    check(&home, &policy, &[]);
}

#[test]
fn a_thread_a_running_codex_holds_is_held() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    session(dir.path(), 1, "/w", "cli", 40, 10);
    let lock = crate::thread_writer_lock_path(
        &home,
        codex_protocol::thread_id::ThreadId::from_string(&thread_id(1)).unwrap(),
    );
    std::fs::create_dir_all(lock.parent().unwrap()).unwrap();
    let file = std::fs::File::create(&lock).unwrap();
    file.lock().unwrap();
    check(
        &home,
        &Policy::new(Action::Archive),
        &[(1, Some(Hold::OpenInCodex))],
    );
    let plan = plan_prune(&home, &Policy::new(Action::Archive), SystemTime::now()).unwrap();
    let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
    assert_eq!(
        applied[0].outcome,
        Outcome::Held {
            hold: Hold::OpenInCodex
        }
    );
    file.unlock().unwrap();
    check(&home, &Policy::new(Action::Archive), &[(1, None)]);
}

#[test]
fn without_codex_state_archive_and_delete_move_the_files_and_the_trash_waits_for_its_grace() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let archived = session(dir.path(), 1, "/w", "cli", 40, 10);
    let deleted = session(dir.path(), 2, "/w", "cli", 40, 10);
    let bytes = std::fs::read(&deleted).unwrap();

    let mut policy = Policy::new(Action::Archive);
    policy.cwd = Some(PathBuf::from("/nowhere"));
    assert!(
        plan_prune(&home, &policy, SystemTime::now())
            .unwrap()
            .threads
            .is_empty()
    );
    let plan = plan_prune(&home, &Policy::new(Action::Archive), SystemTime::now()).unwrap();
    let plan = PrunePlan {
        threads: plan.threads.into_iter().take(1).collect(),
        threads_in_home: 2,
    };
    let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
    assert_eq!(applied[0].outcome, Outcome::Done);
    assert!(!archived.exists());
    assert!(
        home.archived_sessions_dir()
            .join(archived.file_name().unwrap())
            .exists()
    );
    // Archived again: already done.
    check(
        &home,
        &Policy::new(Action::Archive),
        &[(2, None), (1, Some(Hold::AlreadyDone))],
    );

    let mut policy = Policy::new(Action::Delete);
    policy.archived = Some(false);
    let plan = plan_prune(&home, &policy, SystemTime::now()).unwrap();
    let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
    assert_eq!(applied[0].outcome, Outcome::Done);
    assert!(!deleted.exists());
    let folder = applied[0].moved_to.clone().unwrap();
    let in_trash = folder.join(deleted.strip_prefix(dir.path()).unwrap());
    assert_eq!(std::fs::read(&in_trash).unwrap(), bytes);
    assert_eq!(
        std::fs::read_dir(&folder).unwrap().count(),
        1,
        "no marker left"
    );

    let report = empty_trash(&home, DAY * 7, SystemTime::now(), Some(&prune_lock(&home))).unwrap();
    assert!(!report.folders[0].expired);
    assert!(in_trash.exists());
    let report = empty_trash(&home, DAY * 7, SystemTime::now() + DAY * 8, None).unwrap();
    assert!(report.folders[0].expired);
    assert!(in_trash.exists(), "a dry run removes nothing");
    empty_trash(
        &home,
        DAY * 7,
        SystemTime::now() + DAY * 8,
        Some(&prune_lock(&home)),
    )
    .unwrap();
    assert!(!folder.exists());
}

#[test]
fn a_home_with_codex_state_is_not_changed_behind_codex() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let path = session(dir.path(), 1, "/w", "cli", 40, 10);
    std::fs::write(dir.path().join("state_5.sqlite"), b"").unwrap();
    for action in [Action::Archive, Action::Delete] {
        let plan = plan_prune(&home, &Policy::new(action), SystemTime::now()).unwrap();
        let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
        assert!(
            matches!(&applied[0].outcome, Outcome::Failed { error } if error.contains("--codex"))
        );
        assert!(path.exists());
        assert!(!dir.path().join(TRASH_SUBDIR).exists());
    }
    // Compression needs no Codex: Codex reads `.jsonl.zst` as it is.
    let plan = plan_prune(&home, &Policy::new(Action::Compress), SystemTime::now()).unwrap();
    let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
    assert_eq!(applied[0].outcome, Outcome::Done);
    assert!(!path.exists());
}

#[test]
fn a_delete_a_kill_interrupted_is_finished_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let path = session(dir.path(), 1, "/w", "cli", 40, 10);
    let thread = codex_protocol::thread_id::ThreadId::from_string(&thread_id(1)).unwrap();
    // Killed after the move, before Codex forgot the thread.
    let folder = delete::move_to_trash(&home, thread, &[path], SystemTime::now()).unwrap();
    assert_eq!(
        delete::pending_deletes(&home),
        vec![(folder.clone(), thread)]
    );
    // An expired folder with a pending delete is not removed before the delete is finished.
    let lock = prune_lock(&home);
    let empty_expired =
        || empty_trash(&home, Duration::ZERO, SystemTime::now() + DAY, Some(&lock)).unwrap();
    empty_expired();
    assert!(folder.exists());
    let empty = PrunePlan {
        threads: Vec::new(),
        threads_in_home: 0,
    };
    apply_prune(&home, &empty, &options(), &lock, &|_| {});
    assert!(delete::pending_deletes(&home).is_empty());
    empty_expired();
    assert!(!folder.exists());
}

#[test]
fn sizes_on_a_command_line() {
    assert_eq!(parse_size("1048576"), Ok(1 << 20));
    assert_eq!(parse_size("500M"), Ok(500 << 20));
    assert_eq!(parse_size("2GiB"), Ok(2 << 30));
    assert_eq!(parse_size("1.5k"), Ok(1536));
    assert!(parse_size("lots").is_err());
    assert!(parse_size("-1G").is_err());
}

#[test]
fn a_policy_in_one_argument() {
    let policy = parse_policy(
        "archive,older-than=30d,larger-than=1M,cwd=/w,keep-last=5,source=exec,idle=1h,live",
    )
    .unwrap();
    assert_eq!(policy.action, Action::Archive);
    assert_eq!(policy.older_than, Some(DAY * 30));
    assert_eq!(policy.larger_than, Some(1 << 20));
    assert_eq!(policy.cwd, Some(PathBuf::from("/w")));
    assert_eq!(policy.keep_last, Some(5));
    assert_eq!(
        policy.source,
        Some(SourceFilter::of_policy_word("exec").unwrap())
    );
    assert_eq!(policy.min_idle, Duration::from_secs(3600));
    assert_eq!(policy.archived, Some(false));
    assert_eq!(parse_policy("").unwrap().action, Action::Compress);
    for bad in [
        "older-than",
        "keep-last=x",
        "source=web",
        "archive,delete",
        "nonsense",
    ] {
        assert!(parse_policy(bad).is_err(), "{bad}");
    }
}

#[test]
fn storage_per_cwd_and_month_with_the_share_a_policy_acts_on() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let a = std::fs::metadata(session(dir.path(), 1, "/a", "cli", 40, 100))
        .unwrap()
        .len();
    let b = std::fs::metadata(session(dir.path(), 2, "/a", "cli", 1, 200))
        .unwrap()
        .len();
    let c = std::fs::metadata(session(dir.path(), 3, "/b", "cli", 40, 300))
        .unwrap()
        .len();
    let summary = storage_summary(
        &home,
        &parse_policy("delete,older-than=30d").unwrap(),
        SystemTime::now(),
    )
    .unwrap();
    let row = |threads, bytes, acting, acting_bytes| StorageRow {
        threads,
        bytes,
        acting,
        acting_bytes,
    };
    assert_eq!(summary.per_cwd[Path::new("/a")], row(2, a + b, 1, a));
    assert_eq!(summary.per_cwd[Path::new("/b")], row(1, c, 1, c));
    assert_eq!(summary.per_month["2025-06"], row(3, a + b + c, 2, a + c));
    assert_eq!(summary.total, summary.per_month["2025-06"]);
}

#[test]
fn the_base_of_a_fork_by_reference_is_not_deleted() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let parent = session(dir.path(), 1, "/w", "cli", 40, 10);
    let child = session(dir.path(), 2, "/w", "cli", 40, 10);
    let text = std::fs::read_to_string(&child).unwrap().replacen(
        "\"source\":\"cli\"",
        &format!(
            "\"source\":\"cli\",\"history_base\":{{\"thread_id\":\"{}\",\"end_byte_offset\":{}}}",
            thread_id(1),
            std::fs::metadata(&parent).unwrap().len()
        ),
        1,
    );
    std::fs::write(&child, text).unwrap();
    let file = std::fs::File::options().write(true).open(&child).unwrap();
    file.set_modified(SystemTime::now() - DAY * 40).unwrap();
    check(
        &home,
        &Policy::new(Action::Delete),
        &[(1, Some(Hold::BaseOfFork)), (2, None)],
    );
    // Archiving or compressing it keeps it findable: not held.
    check(
        &home,
        &Policy::new(Action::Archive),
        &[(1, None), (2, None)],
    );
}

/// A session of `thread` in the home's sessions, four turns with a compaction in the second
/// and the fourth (the lines Codex writes, trimmed to what resume reads).
fn compacted_session(home: &Path, thread: u8) -> PathBuf {
    let id = thread_id(thread);
    let day = home.join("sessions/2025/06/02");
    std::fs::create_dir_all(&day).unwrap();
    let path = day.join(format!("rollout-2025-06-02T09-00-00-{id}.jsonl"));
    let ts = "2025-06-02T09:00:00.000Z";
    let mut text = format!(
        "{{\"timestamp\":\"{ts}\",\"type\":\"session_meta\",\"payload\":{{\"id\":\"{id}\",\"timestamp\":\"{ts}\",\"cwd\":\"/work/a\",\"originator\":\"t\",\"cli_version\":\"0.1.0\"}}}}\n"
    );
    for turn in 1..=4 {
        let usage = format!(
            "{{\"input_tokens\":{turn},\"cached_input_tokens\":0,\"output_tokens\":1,\"reasoning_output_tokens\":0,\"total_tokens\":{turn}}}"
        );
        let mut lines = vec![
            format!(
                "{{\"type\":\"event_msg\",\"payload\":{{\"type\":\"task_started\",\"turn_id\":\"t{turn}\"}}}}"
            ),
            format!(
                "{{\"type\":\"turn_context\",\"payload\":{{\"turn_id\":\"t{turn}\",\"cwd\":\"/work/a\",\"approval_policy\":\"never\",\"sandbox_policy\":{{\"mode\":\"read-only\"}},\"model\":\"m\",\"summary\":\"auto\"}}}}"
            ),
        ];
        if turn % 2 == 0 {
            lines.push(format!("{{\"type\":\"compacted\",\"payload\":{{\"message\":\"summary {turn}\",\"window_number\":{turn},\"replacement_history\":[{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"summary {turn}\"}}]}}]}}}}"));
        }
        lines.extend([
            format!("{{\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"user\",\"content\":[{{\"type\":\"input_text\",\"text\":\"question {turn}\"}}]}}}}"),
            format!("{{\"type\":\"event_msg\",\"payload\":{{\"type\":\"user_message\",\"message\":\"question {turn}\"}}}}"),
            format!("{{\"type\":\"response_item\",\"payload\":{{\"type\":\"message\",\"role\":\"assistant\",\"content\":[{{\"type\":\"output_text\",\"text\":\"answer {turn}\"}}]}}}}"),
            format!("{{\"type\":\"event_msg\",\"payload\":{{\"type\":\"token_count\",\"info\":{{\"total_token_usage\":{usage},\"last_token_usage\":{usage},\"model_context_window\":1000}}}}}}"),
            format!("{{\"type\":\"event_msg\",\"payload\":{{\"type\":\"task_complete\",\"turn_id\":\"t{turn}\"}}}}"),
        ]);
        for line in lines {
            text.push_str(&format!("{{\"timestamp\":\"{ts}\",{}\n", &line[1..]));
        }
    }
    std::fs::write(&path, text).unwrap();
    let file = std::fs::File::options().write(true).open(&path).unwrap();
    file.set_modified(SystemTime::now() - DAY).unwrap();
    path
}

#[test]
fn rescue_writes_a_thread_that_rebuilds_the_same_history_and_leaves_the_original() {
    use codex_rollout::load_rollout_items;
    use codex_rollout::reconstruct_history_from_rollout;

    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let original = compacted_session(dir.path(), 1);
    let before = std::fs::read(&original).unwrap();
    // Without a compaction there is nothing a rescue could leave out: it fails, saying so.
    session(dir.path(), 2, "/work/a", "cli", 3, 10);
    let policy = parse_policy("rescue").unwrap();
    assert_eq!(policy.action, Action::Rescue);
    check(&home, &policy, &[(1, None), (2, None)]);
    let plan = plan_prune(&home, &policy, SystemTime::now()).unwrap();
    let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
    let outcome = |thread: u8| {
        applied
            .iter()
            .find(|applied| applied.thread_id.to_string() == thread_id(thread))
            .unwrap()
    };
    assert!(
        matches!(outcome(2).outcome, Outcome::Failed { .. }),
        "{:?}",
        outcome(2)
    );
    let rescued = outcome(1);
    assert_eq!(rescued.outcome, Outcome::Done);
    let rescued_path = rescued.moved_to.clone().unwrap();
    assert!(rescued_path.starts_with(dir.path().join("sessions")));
    assert_eq!(std::fs::read(&original).unwrap(), before);
    let history = |path: &Path| {
        reconstruct_history_from_rollout(load_rollout_items(path).unwrap().contents.items())
            .history
            .raw_items()
            .to_vec()
    };
    assert_eq!(history(&rescued_path), history(&original));
    assert!(std::fs::metadata(&rescued_path).unwrap().len() < before.len() as u64);
}

#[test]
fn a_pending_delete_waits_for_a_codex_to_forget_the_thread() {
    let dir = tempfile::tempdir().unwrap();
    let home = CodexHome::new(dir.path());
    let path = session(dir.path(), 1, "/w", "cli", 40, 10);
    std::fs::write(dir.path().join("state_5.sqlite"), b"").unwrap();
    let thread = codex_protocol::thread_id::ThreadId::from_string(&thread_id(1)).unwrap();
    // Killed after the move, before Codex forgot the thread; the next run has no Codex.
    let folder = delete::move_to_trash(&home, thread, &[path], SystemTime::now()).unwrap();
    let empty = PrunePlan {
        threads: Vec::new(),
        threads_in_home: 0,
    };
    apply_prune(&home, &empty, &options(), &prune_lock(&home), &|_| {});
    assert_eq!(delete::pending_deletes(&home), vec![(folder, thread)]);
}

/// A compression a kill interrupted leaves the plain piece beside its checked copy: archive
/// and delete finish it first, so one copy of the piece moves (Codex's own archive would move
/// only the file its row names and leave the other behind).
#[test]
fn an_interrupted_compression_is_finished_before_the_files_move() {
    for action in [Action::Archive, Action::Delete] {
        let dir = tempfile::tempdir().unwrap();
        let home = CodexHome::new(dir.path());
        let plain = session(dir.path(), 1, "/w", "cli", 40, 10);
        let bytes = std::fs::read(&plain).unwrap();
        let copy = plain.with_file_name(format!(
            "{}.zst",
            plain.file_name().unwrap().to_str().unwrap()
        ));
        std::fs::write(&copy, zstd::encode_all(&bytes[..], 3).unwrap()).unwrap();
        let plan = plan_prune(&home, &Policy::new(action), SystemTime::now()).unwrap();
        let applied = apply_prune(&home, &plan, &options(), &prune_lock(&home), &|_| {});
        assert_eq!(applied[0].outcome, Outcome::Done, "{action:?}");
        assert!(
            !plain.exists() && !copy.exists(),
            "{action:?}: {:?} {applied:?} {:?}",
            plan.threads[0].files,
            walk_files(dir.path())
        );
        let left: Vec<PathBuf> = walk_files(dir.path())
            .into_iter()
            .filter(|path| path.to_string_lossy().contains(&thread_id(1)))
            .collect();
        assert_eq!(left.len(), 1, "{action:?}: {left:?}");
        assert!(
            left[0].to_string_lossy().ends_with(".jsonl.zst"),
            "{left:?}"
        );
        assert_eq!(
            zstd::decode_all(&std::fs::read(&left[0]).unwrap()[..]).unwrap(),
            bytes
        );
    }
}

fn walk_files(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            files.extend(walk_files(&path));
        } else {
            files.push(path);
        }
    }
    files
}

#[test]
fn a_plan_is_summed_up_with_its_outcomes() {
    let thread = |n: u8, bytes: u64, hold: Option<Hold>| PlannedThread {
        thread_id: codex_protocol::thread_id::ThreadId::from_string(&thread_id(n)).unwrap(),
        files: Vec::new(),
        bytes,
        cwd: PathBuf::from("/w"),
        archived: false,
        idle_secs: 0,
        action: Action::Archive,
        hold,
    };
    let plan = PrunePlan {
        threads: vec![
            thread(1, 10, None),
            thread(2, 20, None),
            thread(3, 40, Some(Hold::OpenInCodex)),
        ],
        threads_in_home: 5,
    };
    let planned = PlanSummary::of(&plan, None);
    assert_eq!(
        planned,
        PlanSummary {
            applied: false,
            threads_in_home: 5,
            picked: 3,
            acting: 2,
            acting_bytes: 30,
            held: 1,
            done: 0,
            failed: 0,
        }
    );
    let applied: Vec<AppliedThread> = [
        Outcome::Done,
        Outcome::Failed {
            error: "gone".into(),
        },
        Outcome::Held {
            hold: Hold::OpenInCodex,
        },
    ]
    .into_iter()
    .zip(&plan.threads)
    .map(|(outcome, planned)| AppliedThread {
        thread_id: planned.thread_id,
        action: planned.action,
        outcome,
        moved_to: None,
    })
    .collect();
    let summary = PlanSummary::of(&plan, Some(&applied));
    assert_eq!(
        (summary.applied, summary.done, summary.failed, summary.held),
        (true, 1, 1, 1)
    );
}
