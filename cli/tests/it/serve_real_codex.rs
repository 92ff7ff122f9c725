//! `codex-thread serve` answers as `codex app-server` does: the same requests, sent to both
//! over standard input and output on the same home (threads the real Codex writes in the
//! test), get the same responses, field by field. Each page's cursors are followed on each
//! side (they are opaque: only whether there is one is compared). Where Codex answers
//! otherwise for a reason we can name, the difference is set aside and reported as documented
//! (`docs/serve.md` lists them); anything else fails.

use crate::common;

use std::path::Path;

use codex_app_server_protocol::TranscriptMode;
use codex_test_support::{
    AppServer, CodexHome, DiffOutcome, DiffReport, Reply, Script, ScriptedModel, assistant_message,
    describe_differences, exec_command_call, json_differences, real_codex_or_skip, reasoning,
};
use serde_json::{Value, json};

use common::TestResult;
use common::real_codex::{meta_millis, set_aside_documented};

/// Turns the worker gets after its first three, so its pages from the end are read from the
/// end of its file.
const LATER_TURNS: usize = 6;

/// The cursor fields of a response: opaque, so only their presence is compared.
const CURSORS: [&str; 4] = [
    "nextCursor",
    "backwardsCursor",
    "turnsBackwardsCursor",
    "itemsBackwardsCursor",
];

/// Replaces each cursor by whether there is one.
fn without_cursors(mut response: Value) -> Value {
    if let Some(fields) = response.as_object_mut() {
        for key in CURSORS {
            if let Some(cursor) = fields.get_mut(key) {
                *cursor = Value::Bool(!cursor.is_null());
            }
        }
    }
    response
}

/// Sets aside in `theirs` what Codex answers otherwise for a documented reason; what was
/// set aside.
fn set_aside(ours: &Value, theirs: &mut Value, home: &Path, files: &Files) -> Vec<String> {
    let mut documented = Vec::new();
    // Codex keeps read receipts of the threads it ran; session files record none.
    for key in ["readStates", "readState"] {
        if let Some(receipts) = theirs.get_mut(key)
            && ours.get(key).is_some_and(|ours| ours != receipts)
        {
            *receipts = ours[key].clone();
            documented.push(format!("{key}: Codex's read receipts"));
        }
    }
    // The threads within: the differences `thread --json` has with `thread/read`.
    let threads = |value: &Value| -> Vec<Value> {
        match value.get("data").and_then(Value::as_array) {
            Some(data) if data.iter().all(|row| row.get("cliVersion").is_some()) => data.clone(),
            _ => value.get("thread").cloned().into_iter().collect(),
        }
    };
    let ours_threads = threads(ours);
    let theirs_key = if theirs.get("thread").is_some() {
        "thread"
    } else {
        "data"
    };
    let mut their_threads = threads(theirs);
    for (our, their) in ours_threads.iter().zip(their_threads.iter_mut()) {
        let millis = our
            .get("path")
            .and_then(Value::as_str)
            .and_then(|path| meta_millis(Path::new(path)));
        documented.extend(set_aside_documented(our, their, home, files.placed, millis));
        // A thread without its turns: Codex moves a thread it ran up its list when a turn
        // starts, and a thread's head does not say when its last turn started; ours is the
        // file's last change, which follows.
        let no_turns = our
            .get("turns")
            .and_then(Value::as_array)
            .is_some_and(Vec::is_empty);
        if let (Some(ours_at), Some(theirs_at), Some(created)) = (
            our.get("recencyAt").and_then(Value::as_i64),
            their.get("recencyAt").and_then(Value::as_i64),
            our.get("createdAt").and_then(Value::as_i64),
        ) && no_turns
            && !files.placed
            && theirs_at != ours_at
            && (created..ours_at).contains(&theirs_at)
        {
            their["recencyAt"] = Value::from(ours_at);
            documented
                .push("recencyAt of a listed thread Codex ran: its last turn's start".to_owned());
        }
    }
    if !their_threads.is_empty() {
        theirs[theirs_key] = match theirs_key {
            "thread" => their_threads.remove(0),
            _ => Value::Array(their_threads),
        };
    }
    documented.sort();
    documented.dedup();
    documented
}

/// How the threads under comparison came to the home.
struct Files {
    placed: bool,
}

/// One request sent to both servers, the responses compared; each side's own response, to
/// follow its cursors.
struct Compared {
    ours: Result<Value, String>,
    theirs: Result<Value, String>,
    outcome: DiffOutcome,
}

fn ask(
    (ours, theirs): (&mut AppServer, &mut AppServer),
    method: &str,
    params: (Value, Value),
    (home, files): (&Path, &Files),
) -> Compared {
    let our_answer = ours
        .call(method, params.0)
        .map_err(|error| error.to_string());
    let their_answer = theirs
        .call(method, params.1)
        .map_err(|error| error.to_string());
    let outcome = match (&our_answer, &their_answer) {
        (Ok(our), Ok(their)) => {
            let our = without_cursors(our.clone());
            let mut their = without_cursors(their.clone());
            let documented = set_aside(&our, &mut their, home, files);
            let differences = json_differences(&our, &their);
            if !differences.is_empty() {
                DiffOutcome::Differs(describe_differences(&differences, 12))
            } else if documented.is_empty() {
                DiffOutcome::Equal
            } else {
                DiffOutcome::Documented(documented.join("; "))
            }
        }
        (Err(our), Err(their)) => match error_code(our) == error_code(their) {
            true => DiffOutcome::Equal,
            false => DiffOutcome::Differs(format!("ours: {our}\ntheirs: {their}")),
        },
        (our, their) => DiffOutcome::Differs(format!("ours: {our:?}\ntheirs: {their:?}")),
    };
    Compared {
        ours: our_answer,
        theirs: their_answer,
        outcome,
    }
}

/// The JSON-RPC code a failed call's message names.
fn error_code(message: &str) -> Option<&str> {
    message
        .split_once(" failed: ")
        .and_then(|(_, rest)| rest.split_whitespace().next())
}

/// The next page's params: `params` with each side's own `nextCursor`, when both have one.
fn next_page(compared: &Compared, params: &Value) -> Option<(Value, Value)> {
    let cursor = |answer: &Result<Value, String>| {
        answer
            .as_ref()
            .ok()
            .and_then(|page| page.get("nextCursor"))
            .filter(|cursor| !cursor.is_null())
            .cloned()
    };
    let (ours, theirs) = (cursor(&compared.ours)?, cursor(&compared.theirs)?);
    let with = |cursor: Value| {
        let mut params = params.clone();
        params["cursor"] = cursor;
        params
    };
    Some((with(ours), with(theirs)))
}

/// Threads the real Codex writes: a chat, a worker with reasoning, a command and eight resumed
/// turns, named through Codex's server, and an archived thread; listed, read and paged
/// through both servers.
#[test]
#[allow(clippy::print_stderr)] // the table, for the log of a test run
fn serve_answers_as_codex_app_server_does() -> TestResult {
    let Some(codex) = real_codex_or_skip("serve_answers_as_codex_app_server_does") else {
        return Ok(());
    };
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![assistant_message(
                "msg_a1",
                "Hello there.",
            )]))
            .reply(Reply::items(vec![
                reasoning("rs_b1", "I should list the folder."),
                exec_command_call("call_b1", "ls"),
            ]))
            .reply(Reply::items(vec![assistant_message("msg_b2", "Listed.")]))
            .reply(Reply::items(vec![assistant_message("msg_c1", "Resumed.")]))
            .reply(Reply::items(vec![assistant_message("msg_d1", "Again.")])),
    )?;
    // Enough later turns that a page from the end is read from the file's end.
    for turn in 0..LATER_TURNS {
        model.push_reply(Reply::items(vec![assistant_message(
            &format!("msg_e{turn}"),
            &format!("Answer {turn}."),
        )]));
    }
    let home = CodexHome::new(&codex, &model)?;
    home.exec("say hello")?.assert_success();
    let worker = home.exec("list the folder")?;
    worker.assert_success();
    let worker_id = worker.expect_thread_id().to_owned();
    home.resume(&worker_id, "write notes")?.assert_success();
    home.resume(&worker_id, "and again")?.assert_success();
    for turn in 0..LATER_TURNS {
        home.resume(&worker_id, &format!("question {turn}"))?
            .assert_success();
    }
    // An archived thread, and a name the worker gets through Codex's server.
    model.push_reply(Reply::items(vec![assistant_message("msg_f1", "Put away.")]));
    let archived = home.exec("[[archive]] put this away")?;
    archived.assert_success();
    let archived_id = archived.expect_thread_id().to_owned();
    home.archive(&archived_id)?.assert_success();

    let mut theirs = home.app_server()?;
    theirs.call(
        "thread/name/set",
        json!({"threadId": worker_id, "name": "The worker"}),
    )?;
    let mut ours = common::serve::stdio_server(home.path())?;
    let threads: Vec<String> = theirs
        .thread_list(false)?
        .iter()
        .filter_map(|thread| thread["id"].as_str().map(str::to_owned))
        .collect();
    assert_eq!(threads.len(), 2, "the chat and the worker");
    // The worker's last turns stand alone: newest-first pages are read from its end.
    let worker_file = common::real_codex::rollout_of(&home, &worker_id)?;
    assert!(
        codex_home::last_turns_from_end(&worker_file, 4, TranscriptMode::Codex)?.is_some(),
        "the worker's last turns are not read from its end"
    );

    let report = DiffReport::from_env();
    let files = Files { placed: false };
    let mut rows: Vec<(String, String, DiffOutcome)> = Vec::new();
    let mut run =
        |method: &str, case: &str, params: Value| -> Result<(), Box<dyn std::error::Error>> {
            let mut params_pair = (params.clone(), params.clone());
            let mut page = 1;
            loop {
                let compared = ask(
                    (&mut ours, &mut theirs),
                    method,
                    params_pair,
                    (home.path(), &files),
                );
                let label = format!("{case} (page {page})");
                report.record(&format!("serve {method}"), &label, &compared.outcome)?;
                let next = next_page(&compared, &params);
                rows.push((method.to_owned(), label, compared.outcome));
                match next {
                    Some(next) if page < 10 => params_pair = next,
                    _ => return Ok(()),
                }
                page += 1;
            }
        };
    let exec_kinds = json!(["cli", "vscode", "exec", "appServer"]);
    run("thread/loaded/list", "none loaded", json!({}))?;
    run("thread/list", "interactive only", json!({}))?;
    run(
        "thread/list",
        "exec, newest first",
        json!({"sourceKinds": ["exec"], "limit": 1}),
    )?;
    run(
        "thread/list",
        "by update",
        json!({"sourceKinds": exec_kinds, "limit": 1, "sortKey": "updated_at"}),
    )?;
    run(
        "thread/list",
        "oldest first",
        json!({"sourceKinds": ["exec"], "sortDirection": "asc", "limit": 1}),
    )?;
    run(
        "thread/list",
        "search",
        json!({"sourceKinds": ["exec"], "searchTerm": "list"}),
    )?;
    run(
        "thread/list",
        "search by name",
        json!({"sourceKinds": ["exec"], "searchTerm": "worker"}),
    )?;
    run(
        "thread/list",
        "a section",
        json!({"sourceKinds": [], "sectionId": "x", "sortKey": "section_position"}),
    )?;
    run(
        "thread/list",
        "archived",
        json!({"sourceKinds": ["exec"], "archived": true}),
    )?;
    // What Codex refuses, and the filters a session file has nothing for.
    let refused = [
        ("originators", json!({"originators": ["codex_cli_rs"]})),
        (
            "attached threads without a search",
            json!({"includeAttachedThreads": true}),
        ),
        (
            "parent and ancestor",
            json!({"parentThreadId": worker_id, "ancestorThreadId": worker_id}),
        ),
        (
            "attached and parent",
            json!({"attachedToThreadId": worker_id, "parentThreadId": worker_id}),
        ),
        ("a parent that is no id", json!({"parentThreadId": "x"})),
        (
            "an exclusion that is no id",
            json!({"excludedThreadIds": ["x"]}),
        ),
    ];
    for (case, params) in refused {
        run("thread/list", &format!("refused: {case}"), params)?;
    }
    run(
        "thread/list",
        "attached to the worker",
        json!({"sourceKinds": exec_kinds, "attachedToThreadId": worker_id}),
    )?;
    run(
        "thread/list",
        "spawned by the worker",
        json!({"sourceKinds": [], "ancestorThreadId": worker_id}),
    )?;
    run(
        "thread/list",
        "search with attached threads",
        json!({"sourceKinds": ["exec"], "searchTerm": "list", "includeAttachedThreads": true}),
    )?;
    run(
        "thread/read",
        "the archived thread, with turns",
        json!({"threadId": archived_id, "includeTurns": true}),
    )?;
    for (index, id) in threads.iter().enumerate() {
        let case = |what: &str| format!("thread {} {what}", index + 1);
        run(
            "thread/read",
            &case("without turns"),
            json!({"threadId": id}),
        )?;
        run(
            "thread/read",
            &case("with turns"),
            json!({"threadId": id, "includeTurns": true}),
        )?;
        run(
            "thread/turns/list",
            &case("newest first, not loaded"),
            json!({"threadId": id, "limit": 2, "sortDirection": "desc", "itemsView": "notLoaded"}),
        )?;
        run(
            "thread/turns/list",
            &case("summaries"),
            json!({"threadId": id, "limit": 1}),
        )?;
        run(
            "thread/turns/list",
            &case("oldest first, full"),
            json!({"threadId": id, "itemsView": "full", "sortDirection": "asc", "limit": 2}),
        )?;
        run(
            "thread/items/list",
            &case("newest first"),
            json!({"threadId": id, "limit": 3, "sortDirection": "desc"}),
        )?;
        run(
            "thread/items/list",
            &case("oldest first"),
            json!({"threadId": id}),
        )?;
    }
    run(
        "thread/read",
        "an unknown thread",
        json!({"threadId": "019f0000-0000-7000-8000-000000000000"}),
    )?;

    eprintln!("method | case | result");
    for (method, case, outcome) in &rows {
        eprintln!("{method} | {case} | {outcome}");
    }
    let differs: Vec<String> = rows
        .iter()
        .filter(|(_, _, outcome)| matches!(outcome, DiffOutcome::Differs(_)))
        .map(|(method, case, outcome)| format!("{method} {case}: {outcome}"))
        .collect();
    assert!(differs.is_empty(), "{}", differs.join("\n\n"));
    let equal = rows
        .iter()
        .filter(|(_, _, outcome)| matches!(outcome, DiffOutcome::Equal))
        .count();
    assert!(
        equal * 2 > rows.len(),
        "{equal} of {} answers equal",
        rows.len()
    );
    Ok(())
}
