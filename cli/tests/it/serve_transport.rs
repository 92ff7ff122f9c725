//! `codex-thread serve`'s transports as a client meets them: WebSocket on loopback, with a
//! bearer token when one is required (refused without it), WebSocket over a unix socket, and
//! an address that is not loopback refused unless a token is set.

use crate::common;

use std::io::Write;
use std::os::unix::net::UnixStream;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tungstenite::client::IntoClientRequest;
use tungstenite::{Message, WebSocket};

use common::TestResult;
use common::serve::Served;

type Failure = Box<dyn std::error::Error>;

/// Serves a home holding the sample session on `listen`, with `env` set and `args` added; the
/// server and its home.
fn serve(
    listen: &str,
    env: &[(&str, &str)],
    args: &[&str],
) -> Result<(Served, tempfile::TempDir), Failure> {
    let home = tempfile::tempdir()?;
    let day = home.path().join("sessions/2025/06/02");
    std::fs::create_dir_all(&day)?;
    std::fs::copy(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("sample/session.jsonl"),
        day.join("rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl"),
    )?;
    Ok((Served::start(home.path(), listen, env, args)?, home))
}

/// Sends `initialize` over `socket`; the result.
fn initialize<S: std::io::Read + std::io::Write>(
    socket: &mut WebSocket<S>,
) -> Result<Value, Failure> {
    let request = json!({"id": 1, "method": "initialize",
        "params": {"clientInfo": {"name": "transport-test", "version": "1"}}});
    socket.send(Message::text(request.to_string()))?;
    loop {
        if let Message::Text(text) = socket.read()? {
            let answer: Value = serde_json::from_str(&text)?;
            return Ok(answer["result"].clone());
        }
    }
}

#[test]
fn a_bearer_token_is_required_when_one_is_set() -> TestResult {
    let token = [("SERVE_TEST_TOKEN", "s3cret-token")];
    // Without --auth-token-env no token is asked for.
    let (open, _home) = serve("ws://127.0.0.1:0", &token, &[])?;
    let (mut socket, _) = tungstenite::connect(&open.address)?;
    assert!(initialize(&mut socket)?["userAgent"].is_string());

    let (guarded, _guarded_home) = serve(
        "ws://127.0.0.1:0",
        &token,
        &["--auth-token-env", "SERVE_TEST_TOKEN"],
    )?;
    let address = guarded.address.clone();
    let refused = tungstenite::connect(&address);
    assert!(
        matches!(&refused, Err(tungstenite::Error::Http(response)) if response.status() == 401),
        "connected without the token: {:?}",
        refused.as_ref().map(|(_, response)| response.status())
    );
    let with = |value: &str| -> Result<_, Failure> {
        let mut request = address.as_str().into_client_request()?;
        request
            .headers_mut()
            .insert("authorization", value.parse()?);
        Ok(request)
    };
    assert!(
        tungstenite::connect(with("Bearer wrong")?).is_err(),
        "a wrong token was taken"
    );
    let (mut socket, _) = tungstenite::connect(with("Bearer s3cret-token")?)?;
    assert!(initialize(&mut socket)?["codexHome"].is_string());
    Ok(())
}

#[test]
fn an_address_that_is_not_loopback_needs_a_token() -> TestResult {
    let home = tempfile::tempdir()?;
    std::fs::create_dir_all(home.path().join("sessions"))?;
    let output = Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
        .args(["serve", "--listen", "ws://0.0.0.0:0", "--home"])
        .arg(home.path())
        .output()?;
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("needs --auth-token-env"), "{stderr}");
    Ok(())
}

#[test]
fn a_unix_socket_speaks_websocket() -> TestResult {
    let dir = tempfile::tempdir()?;
    let socket_path = dir.path().join("serve.sock");
    let listen = format!("unix://{}", socket_path.display());
    let (served, _home) = serve(&listen, &[], &[])?;
    assert_eq!(served.address, listen);
    let deadline = Instant::now() + Duration::from_secs(10);
    let stream = loop {
        match UnixStream::connect(&socket_path) {
            Ok(stream) => break stream,
            Err(error) if Instant::now() > deadline => return Err(error.into()),
            Err(_) => std::thread::sleep(Duration::from_millis(50)),
        }
    };
    let (mut socket, _) = tungstenite::client("ws://localhost/", stream)?;
    let hello = initialize(&mut socket)?;
    assert!(
        hello["userAgent"]
            .as_str()
            .is_some_and(|agent| agent.starts_with("codex_thread_serve/"))
    );
    let list = json!({"id": 2, "method": "thread/list", "params": {}});
    socket.send(Message::text(list.to_string()))?;
    let answer = loop {
        if let Message::Text(text) = socket.read()? {
            break serde_json::from_str::<Value>(&text)?;
        }
    };
    assert_eq!(
        answer["result"]["data"][0]["id"],
        "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55"
    );
    Ok(())
}

#[test]
fn a_resumed_thread_s_new_lines_reach_a_websocket_client_as_notifications() -> TestResult {
    let (served, home) = serve("ws://127.0.0.1:0", &[], &[])?;
    let (mut socket, _) = tungstenite::connect(&served.address)?;
    if let tungstenite::stream::MaybeTlsStream::Plain(stream) = socket.get_ref() {
        stream.set_read_timeout(Some(Duration::from_secs(20)))?;
    }
    initialize(&mut socket)?;
    let resume = json!({"id": 2, "method": "thread/resume",
        "params": {"threadId": "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55", "excludeTurns": true}});
    socket.send(Message::text(resume.to_string()))?;
    loop {
        if let Message::Text(text) = socket.read()?
            && serde_json::from_str::<Value>(&text)?["id"] == 2
        {
            break;
        }
    }
    // Codex writes another turn.
    let file = home
        .path()
        .join("sessions/2025/06/02/rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl");
    let turn = concat!(
        r#"{"timestamp":"2025-06-02T09:05:00.000Z","ordinal":74,"type":"event_msg","payload":{"type":"task_started","turn_id":"turn-6","started_at":1748855100,"model_context_window":null,"collaboration_mode_kind":"default"}}"#,
        "\n",
        r#"{"timestamp":"2025-06-02T09:05:01.000Z","ordinal":75,"type":"event_msg","payload":{"type":"task_complete","turn_id":"turn-6","last_agent_message":null,"started_at":1748855100,"completed_at":1748855101}}"#,
        "\n"
    );
    std::fs::OpenOptions::new()
        .append(true)
        .open(&file)?
        .write_all(turn.as_bytes())?;
    let mut methods = Vec::new();
    while !methods.contains(&"turn/completed".to_owned()) {
        let Message::Text(text) = socket.read()? else {
            continue;
        };
        let message: Value = serde_json::from_str(&text)?;
        assert_eq!(message["params"]["turn"]["id"], "turn-6", "{message}");
        assert!(message["emittedAtMs"].is_i64(), "{message}");
        methods.extend(message["method"].as_str().map(str::to_owned));
    }
    assert_eq!(methods, ["turn/started", "turn/completed"]);
    // Unsubscribed, the thread is no longer followed.
    let unsubscribe = json!({"id": 3, "method": "thread/unsubscribe",
        "params": {"threadId": "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55"}});
    socket.send(Message::text(unsubscribe.to_string()))?;
    loop {
        if let Message::Text(text) = socket.read()? {
            let answer: Value = serde_json::from_str(&text)?;
            assert_eq!(answer["result"]["status"], "unsubscribed", "{answer}");
            break;
        }
    }
    Ok(())
}
