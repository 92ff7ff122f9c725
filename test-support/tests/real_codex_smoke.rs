//! The real-Codex harness end to end: a scripted two-request session run by the real Codex in
//! a throwaway home, then read back through its app-server. Skips loudly without the real
//! Codex (`cargo xtask real-codex install`), fails without it under
//! `CODEX_REQUIRE_REAL_CODEX=1`.

use codex_test_support::{
    CodexHome, Reply, Script, ScriptedModel, exec_command_call, real_codex_or_skip, reasoning,
};

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn a_scripted_session_runs_and_reads_back() -> TestResult {
    let Some(codex) = real_codex_or_skip("a_scripted_session_runs_and_reads_back") else {
        return Ok(());
    };
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![
                reasoning("rs_1", "Say hello with echo"),
                exec_command_call("call_1", "echo hello-from-the-script"),
            ]))
            .reply(Reply::message("msg_2", "Done.")),
    )?;
    let home = CodexHome::new(&codex, &model)?;

    let run = home.exec("say hello")?;
    run.assert_success();
    let thread_id = run.expect_thread_id();

    let files = home.session_files()?;
    assert_eq!(files.len(), 1, "{files:?}");
    let name = files[0]
        .file_name()
        .and_then(|name| name.to_str())
        .unwrap_or_default();
    assert!(name.contains(thread_id), "{name} names thread {thread_id}");

    let calls = model.model_calls();
    assert_eq!(calls.len(), 2, "{:#?}", model.requests());
    assert_eq!(model.unscripted_requests(), 0);
    assert_eq!(calls[0].request_kind(), Some("turn"));
    let last = calls[1].input().last().cloned().unwrap_or_default();
    assert_eq!(last["type"], "function_call_output", "{last}");
    assert_eq!(last["call_id"], "call_1");
    assert!(last.to_string().contains("hello-from-the-script"), "{last}");

    let mut server = home.app_server()?;
    let threads = server.thread_list(false)?;
    let ids: Vec<&str> = threads
        .iter()
        .filter_map(|thread| thread["id"].as_str())
        .collect();
    assert_eq!(ids, [thread_id]);
    assert!(server.thread_list(true)?.is_empty());
    let thread = server.thread_read(thread_id)?;
    let turns = thread["turns"].as_array().map_or(0, Vec::len);
    assert_eq!(turns, 1, "{thread}");
    let listed = server.thread_turns_list(thread_id)?;
    assert_eq!(listed.len(), 1);
    assert!(
        listed[0]["items"]
            .as_array()
            .is_some_and(|items| !items.is_empty())
    );
    assert_eq!(thread["turns"][0]["id"], listed[0]["id"]);
    Ok(())
}
