//! What the differential tests against the real Codex share: running `codex-thread` on a
//! file of a Codex home, finding a thread's rollout, and putting a session file where Codex
//! keeps one.

use std::path::{Path, PathBuf};

use codex_test_support::{
    AppServer, CodexHome, Reply, ScriptedModel, assistant_message, exec_command_call,
};
use serde_json::{Value, json};

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

/// Our `usage session --json` of every session of `home`.
pub(crate) fn our_usage_by_session(home: &Path) -> Result<Value, Failure> {
    Ok(serde_json::from_str(&run_ours(&[
        "--json",
        "usage",
        "session",
        "--home",
        text(home)?,
    ])?)?)
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

/// Takes the differences Codex is known to have out of `theirs` (made equal to ours, each
/// checked to be exactly what the docs say), and returns what was set aside.
///
/// `placed`: the file was copied into the home, not written there by Codex. `meta_millis`:
/// the milliseconds past the second of the file's session meta timestamp.
pub(crate) fn set_aside_documented(
    ours: &Value,
    theirs: &mut Value,
    app_server_cwd: &Path,
    placed: bool,
    meta_millis: Option<u32>,
) -> Vec<String> {
    let mut documented = Vec::new();
    // Codex's state records a thread it runs as created a moment (a few milliseconds) before
    // the time it writes in the session meta, so the two fall in different seconds when the
    // meta's time lies just past a second.
    if let (Some(ours_at), Some(theirs_at), Some(millis)) = (
        ours.get("createdAt").and_then(Value::as_i64),
        theirs.get("createdAt").and_then(Value::as_i64),
        meta_millis,
    ) && !placed
        && theirs_at == ours_at - 1
        && millis < CREATED_JUST_BEFORE_MILLIS
    {
        theirs["createdAt"] = Value::from(ours_at);
        documented.push("createdAt recorded by Codex just before the meta's time".to_owned());
    }
    // A working directory that is not absolute here (a Windows path read on Linux): Codex
    // resolves it against its own working directory.
    if let (Some(our_cwd), Some(their_cwd)) = (
        ours.get("cwd").and_then(Value::as_str),
        theirs.get("cwd").and_then(Value::as_str),
    ) && !our_cwd.starts_with('/')
        && their_cwd == app_server_cwd.join(our_cwd).display().to_string()
    {
        theirs["cwd"] = Value::from(our_cwd);
        documented.push("cwd resolved against the app-server's folder".to_owned());
    }
    // Model and reasoning effort come from Codex's state database, which records them only
    // for some files it backfills; we report the latest turn context's.
    for key in ["model", "reasoningEffort"] {
        let one_is_null =
            theirs.get(key) == Some(&Value::Null) || ours.get(key) == Some(&Value::Null);
        if one_is_null && theirs.get(key) != ours.get(key) {
            theirs[key] = ours[key].clone();
            documented.push(format!("{key} not in Codex's state"));
        }
    }
    // Codex moves a thread it runs up its list when a turn starts; we give the file's last
    // change, which is the same for a thread Codex did not run and later by the length of the
    // last turn for one it did.
    if let (Some(ours_at), Some(theirs_at), Some(last_start)) = (
        ours.get("recencyAt").and_then(Value::as_i64),
        theirs.get("recencyAt").and_then(Value::as_i64),
        ours.get("turns")
            .and_then(Value::as_array)
            .and_then(|turns| turns.last())
            .and_then(|turn| turn.get("startedAt"))
            .and_then(Value::as_i64),
    ) && theirs_at != ours_at
        && (last_start..ours_at).contains(&theirs_at)
    {
        theirs["recencyAt"] = Value::from(ours_at);
        documented.push("recencyAt is the last turn's start for a thread Codex ran".to_owned());
    }
    // A name set through Codex changes its state, not the file: the thread's update time
    // moves in Codex's state only.
    if let (Some(ours_at), Some(theirs_at)) = (
        ours.get("updatedAt").and_then(Value::as_i64),
        theirs.get("updatedAt").and_then(Value::as_i64),
    ) && theirs_at > ours_at
    {
        // Codex records a thread it ran as updated just after its last write to the file,
        // which can fall in the next second.
        let just_after = theirs_at - ours_at == 1 && !placed;
        let named = theirs.get("name").is_some_and(Value::is_string);
        if just_after || named {
            theirs["updatedAt"] = Value::from(ours_at);
            documented.push(if named {
                "updatedAt moved by a name set through Codex".to_owned()
            } else {
                "updatedAt recorded by Codex just after the file's last write".to_owned()
            });
        }
    }
    // A paginated file placed in a home: Codex reads its turns from its own state database,
    // never from the file, so it shows none.
    let paginated = ours.get("historyMode").and_then(Value::as_str) == Some("paginated");
    if placed
        && paginated
        && theirs
            .get("turns")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty)
    {
        theirs["turns"] = ours["turns"].clone();
        if theirs.get("preview") == Some(&Value::from("")) {
            theirs["preview"] = ours["preview"].clone();
        }
        documented.push("paginated file: Codex reads turns from its state only".to_owned());
    }
    // An MCP call's `environmentId` came with Codex 0.171 (null for a call read from a file);
    // an earlier release shows no such field.
    let mut older = 0;
    if let (Some(our_turns), Some(their_turns)) = (
        ours.get("turns").and_then(Value::as_array),
        theirs.get_mut("turns").and_then(Value::as_array_mut),
    ) {
        for (our_turn, their_turn) in our_turns.iter().zip(their_turns.iter_mut()) {
            let our_items = our_turn["items"].as_array().into_iter().flatten();
            let their_items = their_turn.get_mut("items").and_then(Value::as_array_mut);
            for (our, their) in our_items.zip(their_items.into_iter().flatten()) {
                if our["type"] == "mcpToolCall"
                    && our.get("environmentId") == Some(&Value::Null)
                    && their.get("environmentId").is_none()
                {
                    their["environmentId"] = Value::Null;
                    older += 1;
                }
            }
        }
    }
    if older > 0 {
        documented.push(format!(
            "{older} MCP call(s) without environmentId (a Codex before 0.171)"
        ));
    }
    documented
}

/// How far past a second the session meta's time may lie for Codex's creation time, taken
/// just before it, to fall in the previous second (measured: 0–1 ms before, 250 threads).
pub(crate) const CREATED_JUST_BEFORE_MILLIS: u32 = 50;

/// The milliseconds past the second of the session meta's own `timestamp` in `file`'s first
/// line; `None` when the first line is no session meta with a time.
pub(crate) fn meta_millis(file: &Path) -> Option<u32> {
    use std::io::BufRead;
    let mut first = String::new();
    std::io::BufReader::new(std::fs::File::open(file).ok()?)
        .read_line(&mut first)
        .ok()?;
    let line: Value = serde_json::from_str(&first).ok()?;
    let time = line.get("payload")?.get("timestamp")?.as_str()?;
    let time = chrono::DateTime::parse_from_rfc3339(time).ok()?;
    Some(time.timestamp_subsec_millis())
}

/// Starts a legacy thread through the app-server (`thread/start {historyMode: "legacy"}`) and
/// runs one turn of `text` in it to completion; its id.
pub(crate) fn legacy_thread(
    app_server: &mut AppServer,
    cwd: &Path,
    text: &str,
) -> Result<String, Failure> {
    let started = app_server.call("thread/start", json!({"historyMode": "legacy", "cwd": cwd}))?;
    let id = started["thread"]["id"]
        .as_str()
        .ok_or("no legacy id")?
        .to_owned();
    app_server.call(
        "turn/start",
        json!({"threadId": id, "input": [{"type": "text", "text": text}]}),
    )?;
    app_server.wait_for_notification("turn/completed", std::time::Duration::from_secs(60))?;
    Ok(id)
}

/// The threads of a home whose Codex state the tests take apart.
pub(crate) struct StatefulThreads {
    /// A paginated thread of two turns (a command then an answer; another answer), named
    /// "the folder" through Codex.
    pub(crate) paginated: String,
    /// A legacy thread of one turn, started through the app-server.
    pub(crate) legacy: String,
}

/// Has the real Codex write [`StatefulThreads`] in `home`, `model` answering.
pub(crate) fn write_stateful_threads(
    home: &CodexHome,
    model: &ScriptedModel,
) -> Result<StatefulThreads, Failure> {
    model.push_reply(Reply::items(vec![exec_command_call("call_ls", "ls")]));
    model.push_reply(Reply::items(vec![assistant_message("msg_1", "Listed.")]));
    let paginated = home.exec("list the folder")?.expect_thread_id().to_owned();
    model.push_reply(Reply::items(vec![assistant_message("msg_2", "Again.")]));
    home.resume(&paginated, "once more")?.assert_success();
    let mut server = home.app_server()?;
    model.push_reply(Reply::items(vec![assistant_message("msg_3", "Legacy.")]));
    let legacy = legacy_thread(&mut server, home.work_dir(), "an old thread")?;
    server.call(
        "thread/name/set",
        json!({"threadId": paginated, "name": "the folder"}),
    )?;
    Ok(StatefulThreads { paginated, legacy })
}
