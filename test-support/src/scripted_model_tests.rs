// A test client: a broken response is a failed test, so `expect` says where.
#![allow(clippy::expect_used)]

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use super::*;
use crate::model_items::{exec_command_call, reasoning};
use crate::script::{Reply, Script};

/// A response as a plain client reads it.
#[derive(Debug)]
struct Response {
    status: u16,
    headers: Vec<(String, String)>,
    body: String,
}

impl Response {
    fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// The `data:` of every server-sent event, parsed.
    fn events(&self) -> Vec<Value> {
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data: "))
            .map(|data| serde_json::from_str(data).expect("event data is JSON"))
            .collect()
    }

    fn event_types(&self) -> Vec<String> {
        self.events()
            .iter()
            .map(|event| event["type"].as_str().unwrap_or_default().to_owned())
            .collect()
    }
}

fn connect(model: &ScriptedModel) -> TcpStream {
    let address = model
        .base_url()
        .trim_start_matches("http://")
        .trim_end_matches("/v1")
        .to_owned();
    let stream = TcpStream::connect(address).expect("connect");
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .expect("timeout");
    stream
}

fn post(stream: &mut TcpStream, body: &Value, extra_headers: &str) {
    let body = body.to_string();
    let request = format!(
        "POST /v1/responses HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
         {extra_headers}Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(request.as_bytes()).expect("write");
}

/// Reads one response: a `content-length` body, a chunked one, or one ended by close.
fn read_response(stream: &mut TcpStream) -> Response {
    let mut bytes = Vec::new();
    let head_end = loop {
        if let Some(end) = bytes.windows(4).position(|w| w == b"\r\n\r\n") {
            break end;
        }
        read_some(stream, &mut bytes);
    };
    let head = String::from_utf8(bytes[..head_end].to_vec()).expect("utf-8 head");
    let mut rest = bytes[head_end + 4..].to_vec();
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .expect("status line")
        .split(' ')
        .nth(1)
        .expect("status");
    let headers: Vec<(String, String)> = lines
        .map(|line| {
            let (name, value) = line.split_once(':').expect("header");
            (name.to_ascii_lowercase(), value.trim().to_owned())
        })
        .collect();
    let mut response = Response {
        status: status.parse().expect("numeric status"),
        headers,
        body: String::new(),
    };
    let body = if let Some(length) = response.header("content-length") {
        let length: usize = length.parse().expect("length");
        while rest.len() < length {
            read_some(stream, &mut rest);
        }
        rest
    } else if response.header("transfer-encoding") == Some("chunked") {
        let mut body = Vec::new();
        loop {
            let line_end = loop {
                if let Some(end) = rest.windows(2).position(|w| w == b"\r\n") {
                    break end;
                }
                read_some(stream, &mut rest);
            };
            let size =
                usize::from_str_radix(std::str::from_utf8(&rest[..line_end]).expect("size"), 16)
                    .expect("hex size");
            while rest.len() < line_end + 2 + size + 2 {
                read_some(stream, &mut rest);
            }
            body.extend_from_slice(&rest[line_end + 2..line_end + 2 + size]);
            rest.drain(..line_end + 2 + size + 2);
            if size == 0 {
                break body;
            }
        }
    } else {
        stream.read_to_end(&mut rest).expect("read to close");
        rest
    };
    response.body = String::from_utf8(body).expect("utf-8 body");
    response
}

fn read_some(stream: &mut TcpStream, into: &mut Vec<u8>) {
    let mut chunk = [0_u8; 4096];
    let read = stream.read(&mut chunk).expect("read");
    assert!(read > 0, "connection closed mid-response");
    into.extend_from_slice(&chunk[..read]);
}

fn compaction_header() -> String {
    let metadata = json!({ "thread_id": "t", "request_kind": "compaction" });
    format!("X-Codex-Turn-Metadata: {metadata}\r\n")
}

#[test]
fn scripted_items_stream_in_order_then_the_default_answers() {
    let model = ScriptedModel::start(
        Script::new().reply(
            Reply::items(vec![
                reasoning("rs_1", "thinking"),
                exec_command_call("call_1", "ls"),
            ])
            .usage(Usage::new(1000, 0, 50, 7)),
        ),
    )
    .expect("start");
    let mut stream = connect(&model);
    post(&mut stream, &json!({"input": [{"type": "message"}]}), "");
    let first = read_response(&mut stream);
    assert_eq!(first.status, 200);
    assert_eq!(first.header("content-type"), Some("text/event-stream"));
    assert_eq!(
        first.event_types(),
        [
            "response.created",
            "response.in_progress",
            "response.output_item.added",
            "response.output_item.done",
            "response.output_item.added",
            "response.output_item.done",
            "response.completed",
        ]
    );
    let events = first.events();
    assert_eq!(events[5]["item"]["arguments"], r#"{"cmd":"ls"}"#);
    assert_eq!(events[6]["response"]["id"], "resp_0");
    assert_eq!(events[6]["response"]["usage"]["total_tokens"], 1050);
    assert_eq!(
        events[6]["response"]["usage"]["output_tokens_details"]["reasoning_tokens"],
        7
    );

    // Same connection (keep-alive), empty queue: the default "ok", recorded as unscripted.
    post(&mut stream, &json!({"input": []}), "");
    let second = read_response(&mut stream);
    assert_eq!(second.events()[3]["item"]["content"][0]["text"], "ok");
    assert_eq!(model.unscripted_requests(), 1);
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(requests[0].answer, Answer::Scripted);
    assert_eq!(requests[0].input().len(), 1);
    assert_eq!(requests[0].header("Content-Type"), Some("application/json"));
    assert_eq!(requests[1].answer, Answer::Unscripted);
}

#[test]
fn compaction_requests_take_their_own_queue() {
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::message("msg_turn", "turn"))
            .compaction(Reply::message("msg_summary", "summary")),
    )
    .expect("start");
    let mut stream = connect(&model);
    post(&mut stream, &json!({}), &compaction_header());
    let compaction = read_response(&mut stream);
    assert_eq!(compaction.events()[3]["item"]["id"], "msg_summary");
    post(&mut stream, &json!({}), "");
    assert_eq!(
        read_response(&mut stream).events()[3]["item"]["id"],
        "msg_turn"
    );
    let requests = model.model_calls();
    assert_eq!(requests[0].request_kind(), Some("compaction"));
    assert_eq!(
        requests[0]
            .turn_metadata
            .as_ref()
            .map(|m| m["thread_id"].clone()),
        Some(json!("t"))
    );
    assert_eq!(requests[1].request_kind(), None);
    assert_eq!(model.pending_replies(), 0);
}

#[test]
fn errors_get_their_status_and_other_paths_404() {
    let model = ScriptedModel::start(Script::new().reply(Reply::rate_limited())).expect("start");
    let mut stream = connect(&model);
    post(&mut stream, &json!({}), "");
    let limited = read_response(&mut stream);
    assert_eq!(limited.status, 429);
    let body: Value = serde_json::from_str(&limited.body).expect("json");
    assert_eq!(body["error"]["code"], "rate_limit_exceeded");

    stream
        .write_all(b"GET /v1/models?client_version=1 HTTP/1.1\r\nHost: x\r\n\r\n")
        .expect("write");
    assert_eq!(read_response(&mut stream).status, 404);
    let requests = model.requests();
    assert_eq!(requests[1].method, "GET");
    assert_eq!(requests[1].path, "/v1/models?client_version=1");
    assert_eq!(requests[1].answer, Answer::NotFound);
    assert!(!requests[1].is_model_call());
}

#[test]
fn chunked_bodies_are_read_and_close_is_honoured() {
    let model = ScriptedModel::start(Script::new()).expect("start");
    let mut stream = connect(&model);
    let body = r#"{"input":[{"type":"message","role":"user"}]}"#;
    let (head, tail) = body.split_at(10);
    let request = format!(
        "POST /v1/responses HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\
         Connection: close\r\n\r\n{:x};ext=1\r\n{head}\r\n{:x}\r\n{tail}\r\n0\r\nTrailer: t\r\n\r\n",
        head.len(),
        tail.len()
    );
    stream.write_all(request.as_bytes()).expect("write");
    let response = read_response(&mut stream);
    assert_eq!(response.header("connection"), Some("close"));
    let mut after = Vec::new();
    stream.read_to_end(&mut after).expect("closed");
    assert!(after.is_empty());
    assert_eq!(model.requests()[0].input()[0]["role"], "user");
}

#[test]
fn a_malformed_request_gets_400() {
    let model = ScriptedModel::start(Script::new()).expect("start");
    let mut stream = connect(&model);
    stream
        .write_all(b"POST /v1/responses HTTP/1.1\r\nContent-Length: many\r\n\r\n")
        .expect("write");
    assert_eq!(read_response(&mut stream).status, 400);
    assert!(model.requests().is_empty());
}

#[test]
fn a_held_reply_completes_only_when_released() {
    let model =
        ScriptedModel::start(Script::new().reply(Reply::message("msg_held", "wait for it").held()))
            .expect("start");
    let mut stream = connect(&model);
    post(&mut stream, &json!({}), "");
    assert!(model.wait_for_requests(1, Duration::from_secs(5)));
    // The items arrive; completion does not, however long one reads.
    let mut seen = Vec::new();
    while !String::from_utf8_lossy(&seen).contains("response.output_item.done") {
        read_some(&mut stream, &mut seen);
    }
    stream
        .set_read_timeout(Some(Duration::from_millis(300)))
        .expect("timeout");
    let mut chunk = [0_u8; 1024];
    while let Ok(read) = stream.read(&mut chunk) {
        assert!(read > 0, "closed before release");
        seen.extend_from_slice(&chunk[..read]);
    }
    assert!(!String::from_utf8_lossy(&seen).contains("response.completed"));
    model.release_held();
    stream
        .set_read_timeout(Some(Duration::from_secs(5)))
        .expect("timeout");
    while !String::from_utf8_lossy(&seen).contains("response.completed") {
        read_some(&mut stream, &mut seen);
    }
}

#[test]
fn the_server_stops_at_its_deadline() {
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::message("msg_held", "never completes").held())
            .deadline(Duration::from_millis(500)),
    )
    .expect("start");
    let mut stream = connect(&model);
    post(&mut stream, &json!({}), "");
    let started = Instant::now();
    let mut all = Vec::new();
    stream.read_to_end(&mut all).expect("closed by the server");
    assert!(started.elapsed() < Duration::from_secs(3));
    assert!(!String::from_utf8_lossy(&all).contains("response.completed"));
    assert!(!model.wait_for_requests(2, Duration::from_secs(1)));
}

#[test]
fn old_releases_get_calls_in_the_shape_offered_and_compactions_by_their_prompt() {
    let model = ScriptedModel::start(
        Script::new()
            .reply(Reply::items(vec![exec_command_call("call_1", "ls")]))
            .reply(Reply::items(vec![exec_command_call("call_2", "ls")]))
            .reply(Reply::items(vec![exec_command_call("call_3", "ls")]))
            .compaction(Reply::message("msg_summary", "summary")),
    )
    .expect("start");
    let mut stream = connect(&model);
    let offering = |tool: &str| json!({"input": [], "tools": [{"type": "function", "name": tool}]});
    let mut arguments = Vec::new();
    for tool in ["shell", "shell_command", "exec_command"] {
        post(&mut stream, &offering(tool), "");
        let item = read_response(&mut stream).events()[3]["item"].clone();
        arguments.push((item["name"].clone(), item["arguments"].clone()));
    }
    assert_eq!(
        arguments,
        [
            (json!("shell"), json!(r#"{"command":["bash","-lc","ls"]}"#)),
            (json!("shell_command"), json!(r#"{"command":"ls"}"#)),
            (json!("exec_command"), json!(r#"{"cmd":"ls"}"#)),
        ]
    );
    // 0.58's compaction request: no turn metadata, the prompt as the last input.
    let prompt = "You are performing a CONTEXT CHECKPOINT COMPACTION. Create a handoff summary";
    let body = json!({"input": [{"type": "message", "role": "user",
        "content": [{"type": "input_text", "text": prompt}]}]});
    post(&mut stream, &body, "");
    assert_eq!(
        read_response(&mut stream).events()[3]["item"]["id"],
        "msg_summary"
    );
    assert!(model.model_calls()[3].is_compaction());
}
