//! `codex-thread mcp` with the real Codex as its MCP client: configured in a Codex home's
//! `config.toml` as an MCP server over a home the real Codex wrote, its tools are offered to
//! the (scripted) model, which calls each; what Codex hands back to the model as each call's
//! output is what the matching command's `--json` prints; and our `thread` of each of the
//! client's threads, MCP tool calls in them, equals Codex's `thread/read`.

use crate::common;

use std::path::Path;

use codex_test_support::{
    CodexHome, DiffOutcome, Reply, Script, ScriptedModel, assistant_message, exec_command_call,
    function_call, real_codex_or_skip,
};
use serde_json::{Value, json};

use crate::real_codex_thread::compare;
use common::TestResult;
use common::real_codex::{home_path_of, run_ours};

type Failure = Box<dyn std::error::Error>;

/// The client's model: one Codex's catalogue does not say supports its tool search.
const CLIENT_MODEL: &str = "gpt-4.1";

/// The setting that has Codex offer MCP tools to the model directly.
const DIRECT_MCP_TOOLS: &str = "features.tool_search_always_defer_mcp_tools=false";

/// Adds `codex-thread mcp --home SERVED` to the Codex home at `client` as MCP server
/// `sessions`.
fn configure(client: &Path, served: &Path) -> Result<(), Failure> {
    let binary = assert_cmd::cargo::cargo_bin("codex-thread");
    let quoted = |path: &Path| serde_json::to_string(&path.display().to_string());
    let section = format!(
        "\n[mcp_servers.sessions]\ncommand = {}\nargs = [\"mcp\", \"--home\", {}]\nstartup_timeout_sec = 30\ntool_timeout_sec = 60\n",
        quoted(&binary)?,
        quoted(served)?,
    );
    let config = client.join("config.toml");
    let mut text = std::fs::read_to_string(&config)?;
    text.push_str(&section);
    std::fs::write(config, text)?;
    Ok(())
}

/// The tools a model request offers: each name, with the namespace it is offered in (an
/// MCP server's tools come as namespace `mcp__<server>`).
fn offered_tools(body: &Value) -> Vec<(Option<String>, String)> {
    let mut offered = Vec::new();
    for tool in body
        .get("tools")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = tool.get("name").and_then(Value::as_str).map(str::to_owned);
        match tool.get("tools").and_then(Value::as_array) {
            Some(inner) => offered.extend(inner.iter().filter_map(|inner| {
                let inner = inner.get("name").and_then(Value::as_str)?;
                Some((name.clone(), inner.to_owned()))
            })),
            None => offered.extend(name.map(|name| (None, name))),
        }
    }
    offered
}

/// The output Codex handed the model for call `call_id`, as text.
fn call_output(body: &Value, call_id: &str) -> Option<String> {
    let item = body.get("input")?.as_array()?.iter().find(|item| {
        item.get("call_id").and_then(Value::as_str) == Some(call_id)
            && item
                .get("type")
                .and_then(Value::as_str)
                .is_some_and(|kind| kind.ends_with("_output"))
    })?;
    match item.get("output")? {
        Value::String(text) => Some(text.clone()),
        Value::Array(parts) => Some(
            parts
                .iter()
                .filter_map(|part| part.get("text").and_then(Value::as_str))
                .collect(),
        ),
        other => Some(other.to_string()),
    }
}

#[test]
#[allow(clippy::print_stderr)] // the transcript of the calls, for the log of a test run
fn codex_calls_each_mcp_tool_and_gets_what_the_commands_print() -> TestResult {
    let Some(codex) =
        real_codex_or_skip("codex_calls_each_mcp_tool_and_gets_what_the_commands_print")
    else {
        return Ok(());
    };
    // The served home: one thread the real Codex wrote.
    let writer = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![exec_command_call(
                "call_w",
                "cat src/lib.rs",
            )]))
            .reply(Reply::items(vec![assistant_message("msg_w", "Noted.")])),
    )?;
    let served = CodexHome::new(&codex, &writer)?;
    let written = served.exec("[[mcp]] remember the parser in src/lib.rs")?;
    written.assert_success();
    let thread = written.expect_thread_id().to_owned();
    let served_home = served.path().display().to_string();

    // The client: a Codex whose model first looks at the tools it is offered.
    let model = ScriptedModel::start(
        Script::new().reply(Reply::items(vec![assistant_message("msg_0", "Looking.")])),
    )?;
    let client = CodexHome::with_model(&codex, &model, CLIENT_MODEL)?;
    configure(client.path(), served.path())?;
    // Codex 0.169 defers MCP tools behind its tool search by default (the feature
    // `tool_search_always_defer_mcp_tools`); offered directly, the model calls them by name.
    let runner = || client.runner().config(DIRECT_MCP_TOOLS);
    runner().exec("which tools do you have?")?.assert_success();
    let first = model
        .model_calls()
        .into_iter()
        .next()
        .and_then(|request| request.body)
        .ok_or("no model request")?;
    let offered = offered_tools(&first);
    let call = |call_id: &str, name: &str, arguments: &Value| -> Result<Value, Failure> {
        let (namespace, name) = offered
            .iter()
            .find(|(namespace, offered)| {
                offered == name && namespace.as_deref() == Some("mcp__sessions")
            })
            .ok_or_else(|| format!("Codex offered no {name}: {offered:?}"))?;
        let mut call = function_call(call_id, name, arguments);
        call["namespace"] = json!(namespace);
        Ok(call)
    };

    // Each tool, called by the model, against the command it answers for.
    let calls: Vec<(&str, Value, Vec<&str>)> = vec![
        (
            "list_sessions",
            json!({}),
            vec!["list", "--home", &served_home],
        ),
        (
            "read_thread",
            json!({"thread": thread, "last_turns": 1}),
            vec!["thread", &thread, "--home", &served_home, "--last", "1"],
        ),
        (
            "search_sessions",
            json!({"query": "parser"}),
            vec!["search", "parser", "--home", &served_home],
        ),
        (
            "usage",
            json!({"by": "session"}),
            vec!["usage", "--home", &served_home, "--by", "session"],
        ),
        (
            "sessions_touching_file",
            json!({"path": "src/lib.rs"}),
            vec![
                "search",
                "src/lib.rs",
                "--home",
                &served_home,
                "--role",
                "tool",
            ],
        ),
    ];
    for (index, (name, arguments, command)) in calls.iter().enumerate() {
        let call_id = format!("call_mcp_{index}");
        model.push_reply(Reply::items(vec![call(&call_id, name, arguments)?]));
        model.push_reply(Reply::items(vec![assistant_message(
            &format!("msg_{index}"),
            "Done.",
        )]));
        runner().exec(&format!("call {name}"))?.assert_success();
        let requests = model.model_calls();
        let answered = requests
            .iter()
            .filter_map(|request| request.body.as_ref())
            .find_map(|body| call_output(body, &call_id))
            .ok_or_else(|| format!("Codex sent no output of {name}"))?;
        let mut args = vec!["--json"];
        args.extend(command.iter().copied());
        let printed = run_ours(&args)?;
        // Codex hands an MCP tool's text to the model after a line of its own timing.
        let answered = match answered.split_once("\nOutput:") {
            Some((timing, text)) if timing.starts_with("Wall time:") => text.to_owned(),
            _ => answered,
        };
        eprintln!("{name} {arguments} -> {} byte(s)", answered.len());
        let as_json = |text: &str| -> Vec<Value> {
            text.lines()
                .filter_map(|line| serde_json::from_str(line).ok())
                .collect()
        };
        assert_eq!(
            as_json(&answered),
            as_json(&printed),
            "{name}: Codex handed the model\n{answered}\nthe command prints\n{printed}"
        );
        assert!(!as_json(&printed).is_empty(), "{name} printed nothing");
    }

    // The client's threads, MCP tool calls in them: our `thread` equals Codex's `thread/read`.
    let mut server = client.app_server()?;
    let mut mcp_items = 0;
    for file in client.session_files()? {
        let (_, id) = home_path_of(&file, client.path())?.ok_or("no session meta")?;
        let outcome = compare(&mut server, client.path(), &file, &id, false)?;
        assert!(
            !matches!(outcome, DiffOutcome::Differs(_)),
            "{}: {outcome:?}",
            file.display()
        );
        let read = server.thread_read(&id)?;
        mcp_items += read["turns"]
            .as_array()
            .into_iter()
            .flatten()
            .flat_map(|turn| turn["items"].as_array().into_iter().flatten())
            .filter(|item| item["type"] == "mcpToolCall")
            .count();
    }
    assert_eq!(mcp_items, calls.len(), "each call is an mcpToolCall item");
    Ok(())
}
