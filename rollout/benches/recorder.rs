//! Recorder throughput against the simplest writer doing the same job.
//!
//! Both sides write the same durable items as rollout lines (timestamp, serialize, append
//! `\n`) into a fresh file and make them reach the OS:
//! - `bufwriter_baseline`: one thread, `serde_json::to_writer` of prebuilt `RolloutLine`s into
//!   a `BufWriter<File>`, one flush at the end;
//! - `recorder_one_item_per_call`: a [`RolloutRecorder`] used from a task on a 2-worker
//!   runtime (as a session uses it), one `record_items` call per item (the worst case: the
//!   per-call costs, lock, timestamp and staging, are paid per line), then `shutdown`;
//! - `recorder_one_turn_per_call`: the same, ten items (one turn) per call;
//! - `recorder_one_item_per_call_current_thread`: one item per call on a current-thread
//!   runtime (no cross-thread wake-ups).
//!
//! Target: the recorder within 1.3x of the baseline.

#![allow(clippy::expect_used)]

use std::fs::File;
use std::hint::black_box;
use std::io::{BufWriter, Write};
use std::path::Path;
use std::sync::Arc;

use chrono::Utc;
use codex_protocol::rollout::{RolloutItem, RolloutLine};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::RolloutRecorder;
use codex_rollout::format_line_timestamp;
use codex_rollout::new_session_meta;
use criterion::{Criterion, Throughput, criterion_group};
use serde_json::json;

const TURNS: usize = 500;

/// One turn of a typical session: ten durable lines, about 4 KiB.
fn turn(index: usize) -> Vec<RolloutItem> {
    let thread = ThreadId::new().to_string();
    let blob = "QUJD".repeat(256);
    let output = "line of tool output\n".repeat(40);
    let values = [
        json!({"type": "response_item", "payload": {"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": format!("please do task {index}")}]}}),
        json!({"type": "event_msg", "payload": {"type": "user_message",
            "message": format!("please do task {index}"), "images": []}}),
        json!({"type": "event_msg", "payload": {"type": "task_started", "turn_id": format!("t{index}")}}),
        json!({"type": "response_item", "payload": {"type": "reasoning",
            "summary": [{"type": "summary_text", "text": "Thinking about the task at hand. ".repeat(6)}],
            "encrypted_content": blob}}),
        json!({"type": "response_item", "payload": {"type": "function_call", "name": "shell",
            "arguments": "{\"command\":[\"bash\",\"-lc\",\"ls -la src\"],\"timeout_ms\":10000}",
            "call_id": format!("call_{index}")}}),
        json!({"type": "response_item", "payload": {"type": "function_call_output",
            "call_id": format!("call_{index}"), "output": output}}),
        json!({"type": "response_item", "payload": {"type": "message", "role": "assistant",
            "content": [{"type": "output_text", "text": "Done. ".repeat(20)}]}}),
        json!({"type": "event_msg", "payload": {"type": "agent_message", "message": "Done. ".repeat(20)}}),
        json!({"type": "event_msg", "payload": {"type": "token_count", "info": {
            "total_token_usage": {"input_tokens": 1000, "cached_input_tokens": 200, "output_tokens": 300,
                "reasoning_output_tokens": 100, "total_tokens": 1300},
            "last_token_usage": {"input_tokens": 1000, "cached_input_tokens": 200, "output_tokens": 300,
                "reasoning_output_tokens": 100, "total_tokens": 1300},
            "model_context_window": 272000}, "rate_limits": null}}),
        json!({"type": "event_msg", "payload": {"type": "task_complete", "turn_id": format!("t{index}"),
            "last_agent_message": "Done.", "thread": thread}}),
    ];
    values
        .into_iter()
        .map(|value| {
            let tag = value["type"].as_str().expect("tag").to_string();
            RolloutItem::from_tag_and_value(&tag, value.get("payload").cloned()).expect("item")
        })
        .collect()
}

/// The baseline gets its lines (with timestamps) built before timing starts, so it pays only
/// for serializing and writing them.
fn baseline(path: &Path, lines: &[RolloutLine]) {
    let _ = std::fs::remove_file(path);
    let mut out = BufWriter::new(File::create(path).expect("create"));
    for line in lines {
        serde_json::to_writer(&mut out, line).expect("serialize");
        out.write_all(b"\n").expect("write");
    }
    out.flush().expect("flush");
}

/// Runs [`recorder`] as a task on a worker of `runtime`, the way a session (itself a task)
/// records, rather than from the thread that calls `block_on`.
fn on_worker(
    runtime: &tokio::runtime::Runtime,
    path: &Path,
    items: &Arc<Vec<RolloutItem>>,
    per_call: usize,
) {
    let path = path.to_path_buf();
    let items = Arc::clone(items);
    runtime
        .block_on(runtime.spawn(async move { recorder(&path, &items, per_call).await }))
        .expect("join");
}

async fn recorder(path: &Path, items: &[RolloutItem], per_call: usize) {
    let _ = std::fs::remove_file(path);
    let recorder =
        RolloutRecorder::create_at(path, new_session_meta(ThreadId::new(), "/bench", "bench"))
            .expect("recorder");
    recorder.persist().await.expect("persist");
    for chunk in items.chunks(per_call) {
        recorder.record_items(chunk).await.expect("record");
    }
    recorder.shutdown().await.expect("shutdown");
}

fn bench_recorder(c: &mut Criterion) {
    let items: Vec<RolloutItem> = (0..TURNS).flat_map(turn).collect();
    let meta = RolloutItem::SessionMeta(Box::new(new_session_meta(
        ThreadId::new(),
        "/bench",
        "bench",
    )));
    let lines: Vec<RolloutLine> = std::iter::once(&meta)
        .chain(&items)
        .map(|item| RolloutLine::new(format_line_timestamp(Utc::now()), item.clone()))
        .collect();
    let bytes: u64 = items
        .iter()
        .map(|item| {
            RolloutLine::new(format_line_timestamp(Utc::now()), item.clone())
                .to_json_line()
                .map(|line| line.len() as u64 + 1)
                .unwrap_or(0)
        })
        .sum();
    let shared = Arc::new(items.clone());
    let tmp = tempfile::tempdir().expect("tempdir");
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");

    let mut group = c.benchmark_group("recorder_throughput");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(bytes));
    let path = tmp.path().join("baseline.jsonl");
    group.bench_function("bufwriter_baseline", |b| {
        b.iter(|| baseline(&path, black_box(&lines)))
    });
    let path = tmp.path().join("recorder-1.jsonl");
    group.bench_function("recorder_one_item_per_call", |b| {
        b.iter(|| on_worker(&runtime, &path, black_box(&shared), 1))
    });
    let path = tmp.path().join("recorder-10.jsonl");
    group.bench_function("recorder_one_turn_per_call", |b| {
        b.iter(|| on_worker(&runtime, &path, black_box(&shared), 10))
    });
    // The same on a current-thread runtime: no cross-thread wake-ups, so this isolates the
    // recorder's own CPU cost from scheduling on a busy machine.
    let single = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let path = tmp.path().join("recorder-1-ct.jsonl");
    group.bench_function("recorder_one_item_per_call_current_thread", |b| {
        b.iter(|| single.block_on(recorder(&path, black_box(&items), 1)))
    });
    group.finish();
}

criterion_group!(benches, bench_recorder);
codex_test_support::bench_main!("recorder", benches);
