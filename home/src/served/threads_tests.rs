use codex_app_server_protocol::{JSONRPCRequest, RequestId};
use codex_rollout::CodexHome;
use serde_json::{Value, json};

use super::*;

const FIRST: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a01";
const SECOND: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a02";

/// A home of two interactive sessions.
fn home() -> Result<(tempfile::TempDir, ServedHome), Box<dyn std::error::Error>> {
    home_of(&[(FIRST, r#""cli""#), (SECOND, r#""cli""#)])
}

/// A home of `sessions` (an id and its meta's `source` as JSON), a minute apart.
fn home_of(
    sessions: &[(&str, &str)],
) -> Result<(tempfile::TempDir, ServedHome), Box<dyn std::error::Error>> {
    let dir = tempfile::tempdir()?;
    let day = dir.path().join("sessions/2025/06/02");
    std::fs::create_dir_all(&day)?;
    for (minute, (id, source)) in sessions.iter().enumerate() {
        let text = format!(
            concat!(
                r#"{{"timestamp":"2025-06-02T09:0{m}:00.000Z","type":"session_meta","payload":{{"id":"{id}","timestamp":"2025-06-02T09:0{m}:00.000Z","cwd":"/tmp/demo","originator":"codex_cli_rs","cli_version":"0.169.0","source":{source}}}}}"#,
                "\n",
                r#"{{"timestamp":"2025-06-02T09:0{m}:01.000Z","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"hello {id}"}}]}}}}"#,
                "\n",
                r#"{{"timestamp":"2025-06-02T09:0{m}:01.000Z","type":"event_msg","payload":{{"type":"user_message","message":"hello {id}"}}}}"#,
                "\n",
            ),
            m = minute,
            id = id,
            source = source,
        );
        std::fs::write(
            day.join(format!("rollout-2025-06-02T09-0{minute}-00-{id}.jsonl")),
            text,
        )?;
    }
    let served = ServedHome::new(CodexHome::new(dir.path()));
    Ok((dir, served))
}

/// The ids `thread/list` with `params` answers.
fn listed(served: &ServedHome, params: Value) -> Result<Vec<String>, Box<dyn std::error::Error>> {
    let request = JSONRPCRequest {
        id: RequestId::Integer(1),
        method: "thread/list".to_owned(),
        params: Some(params),
    };
    let answer = served.answer(&request)?;
    Ok(answer["data"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|thread| thread["id"].as_str().map(str::to_owned))
        .collect())
}

#[test]
fn included_and_excluded_ids_filter_the_list() -> Result<(), Box<dyn std::error::Error>> {
    let (_dir, served) = home()?;
    let all = listed(&served, json!({"modelProviders": []}))?;
    assert_eq!(all, [SECOND, FIRST], "newest first");
    let only = listed(
        &served,
        json!({"modelProviders": [], "includedThreadIds": [FIRST]}),
    )?;
    assert_eq!(only, [FIRST]);
    let none = listed(
        &served,
        json!({"modelProviders": [], "includedThreadIds": []}),
    )?;
    assert!(none.is_empty(), "an empty list matches nothing: {none:?}");
    let both = listed(
        &served,
        json!({"modelProviders": [], "includedThreadIds": [FIRST, SECOND], "excludedThreadIds": [SECOND]}),
    )?;
    assert_eq!(both, [FIRST], "exclusions still apply");
    Ok(())
}

/// A sub-agent's meta source naming `parent` as the thread that spawned it.
fn spawned_by(parent: &str, depth: u32) -> String {
    format!(
        r#"{{"subagent":{{"thread_spawn":{{"parent_thread_id":"{parent}","depth":{depth},"agent_nickname":"helper","agent_role":"worker"}}}}}}"#
    )
}

#[test]
fn ancestor_lists_spawned_threads_at_any_depth_and_parent_only_direct()
-> Result<(), Box<dyn std::error::Error>> {
    const CHILD: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a03";
    const GRANDCHILD: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a04";
    let (child, grandchild) = (spawned_by(FIRST, 1), spawned_by(CHILD, 2));
    let (_dir, served) = home_of(&[
        (FIRST, r#""cli""#),
        (SECOND, r#""cli""#),
        (CHILD, &child),
        (GRANDCHILD, &grandchild),
    ])?;
    let params = |filter: Value| {
        let mut params = json!({"modelProviders": [], "sourceKinds": ["subAgentThreadSpawn"]});
        if let (Some(params), Some(filter)) = (params.as_object_mut(), filter.as_object()) {
            params.extend(filter.clone());
        }
        params
    };
    let any_depth = listed(&served, params(json!({"ancestorThreadId": FIRST})))?;
    assert_eq!(any_depth, [GRANDCHILD, CHILD]);
    let direct = listed(&served, params(json!({"parentThreadId": FIRST})))?;
    assert_eq!(direct, [CHILD]);
    let below_child = listed(&served, params(json!({"ancestorThreadId": CHILD})))?;
    assert_eq!(below_child, [GRANDCHILD]);
    let of_none = listed(&served, params(json!({"ancestorThreadId": SECOND})))?;
    assert!(of_none.is_empty(), "{of_none:?}");
    // Attachments live in Codex's state database; no session file records one.
    let attached = listed(&served, params(json!({"attachedToThreadId": FIRST})))?;
    assert!(attached.is_empty(), "{attached:?}");
    Ok(())
}
