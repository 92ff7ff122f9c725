//! Exporting a long session, against loading it.
//!
//! The input is generated: a session meta, then 1,000 turns, each a user message, a
//! reasoning summary, a shell call with an output of 40 lines, an `exec_command_end`, and an
//! assistant answer in Markdown with a code block (about 3 MB in all).
//!
//! - `load`: reading the whole file into typed items (codex-rollout's loader): the baseline;
//! - `export_markdown`: load, build the transcript, render Markdown;
//! - `export_html`: load, build the transcript, render the page (Markdown through
//!   pulldown-cmark and ammonia for every message).
//!
//! Before criterion runs, an interleaved measurement prints the times and the ratios
//! against `load` (median of 5 rounds), for the generated session and for the largest real
//! session file (when `../shared/fixtures/real` is there). With `EXPORT_BENCH_WRITE=FILE` the
//! generated session is written to FILE and nothing is measured (to time the binary or open the
//! page in a browser).

#![allow(clippy::expect_used, clippy::print_stderr)]

use std::hint::black_box;
use std::path::Path;
use std::time::{Duration, Instant};

use codex_rollout::RolloutContents;
use codex_thread::testing::{ExportFormat, export_file};

use criterion::{Criterion, criterion_group};
use serde_json::json;

const TURNS: usize = 1_000;

fn line(at: usize, kind: &str, payload: serde_json::Value) -> String {
    let seconds = at % 60;
    let minutes = (at / 60) % 60;
    let hours = at / 3600;
    json!({
        "timestamp": format!("2026-01-01T{hours:02}:{minutes:02}:{seconds:02}.000Z"),
        "type": kind,
        "payload": payload,
    })
    .to_string()
}

/// The generated session.
fn session() -> String {
    let id = "019b0000-0000-7000-8000-000000000001";
    let mut lines = vec![line(
        0,
        "session_meta",
        json!({"id": id, "session_id": id, "timestamp": "2026-01-01T00:00:00.000Z",
               "cwd": "/work/project", "originator": "bench", "cli_version": "0.150.0",
               "source": "cli", "model_provider": "openai"}),
    )];
    let mut at = 1;
    for turn in 0..TURNS {
        let mut push = |kind: &str, payload: serde_json::Value| {
            lines.push(line(at, kind, payload));
            at += 1;
        };
        let call = format!("call_{turn}");
        push(
            "turn_context",
            json!({"turn_id": format!("t{turn}"), "cwd": "/work/project",
            "approval_policy": "on-request", "sandbox_policy": {"type": "workspace-write"},
            "model": "gpt-5-codex"}),
        );
        let ask =
            format!("Turn {turn}: please run the tests of module `m{turn}` and fix what fails.");
        push(
            "response_item",
            json!({"type": "message", "role": "user",
            "content": [{"type": "input_text", "text": ask}]}),
        );
        push(
            "event_msg",
            json!({"type": "user_message", "message": ask, "local_images": []}),
        );
        push(
            "response_item",
            json!({"type": "reasoning", "summary": [{"type": "summary_text",
            "text": "**Running the module tests** before changing anything"}], "content": null,
            "encrypted_content": "gAAAA"}),
        );
        push(
            "response_item",
            json!({"type": "function_call", "name": "shell", "call_id": call,
            "arguments": json!({"command": ["bash", "-lc", format!("cargo test -p m{turn}")]}).to_string()}),
        );
        let output: String = (0..40)
            .map(|n| format!("test m{turn}::tests::case_{n:02} ... ok\n"))
            .collect();
        push(
            "event_msg",
            json!({"type": "exec_command_end", "call_id": call,
            "command": ["bash", "-lc", "cargo test"], "cwd": "/work/project",
            "aggregated_output": "", "exit_code": 0, "duration": {"secs": 1, "nanos": 0}}),
        );
        push(
            "response_item",
            json!({"type": "function_call_output", "call_id": call, "output": output}),
        );
        let answer = format!(
            "All **40 tests** of `m{turn}` pass. The fix:\n\n```rust\nfn fixed_{turn}() -> u32 {{\n    {turn}\n}}\n```\n\n- one\n- two\n"
        );
        push(
            "response_item",
            json!({"type": "message", "role": "assistant", "phase": "final_answer",
            "content": [{"type": "output_text", "text": answer}]}),
        );
        push(
            "event_msg",
            json!({"type": "task_complete", "turn_id": format!("t{turn}")}),
        );
    }
    lines.join("\n") + "\n"
}

fn export_to_sink(path: &Path, format: ExportFormat) {
    export_file(path, format, Box::new(std::io::sink())).expect("export");
}

fn load(path: &Path) {
    let file = std::fs::File::open(path).expect("open");
    black_box(RolloutContents::read(file).expect("load"));
}

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

/// Prints the median times of load, Markdown and HTML export of `path`.
fn interleaved(label: &str, path: &Path) {
    let mut rounds: [Vec<Duration>; 3] = Default::default();
    for _ in 0..5 {
        for (index, run) in [
            &(|| load(path)) as &dyn Fn(),
            &|| export_to_sink(path, ExportFormat::Markdown),
            &|| export_to_sink(path, ExportFormat::Html),
        ]
        .iter()
        .enumerate()
        {
            let start = Instant::now();
            run();
            rounds[index].push(start.elapsed());
        }
    }
    let [load_time, markdown, html] = rounds.map(median);
    eprintln!(
        "{label}: median of 5: load {load_time:?}; export markdown {markdown:?} ({:.2}x load); \
         export html {html:?} ({:.2}x load)",
        markdown.as_secs_f64() / load_time.as_secs_f64(),
        html.as_secs_f64() / load_time.as_secs_f64()
    );
}

/// The largest real session file, if the folder is there.
fn largest_real_file() -> Option<std::path::PathBuf> {
    let dir = Path::new(codex_test_support::REAL_FIXTURES);
    std::fs::read_dir(dir)
        .ok()?
        .filter_map(Result::ok)
        .map(|entry| entry.path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "jsonl"))
        .max_by_key(|path| std::fs::metadata(path).map_or(0, |meta| meta.len()))
}

fn bench(c: &mut Criterion) {
    let text = session();
    if let Ok(target) = std::env::var("EXPORT_BENCH_WRITE") {
        std::fs::write(&target, &text).expect("write the generated session");
        eprintln!("wrote {target}: {} bytes, {TURNS} turns", text.len());
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("generated.jsonl");
    std::fs::write(&path, &text).expect("write the generated session");
    eprintln!("generated session: {} bytes, {TURNS} turns", text.len());
    interleaved("generated 1,000 turns", &path);
    if let Some(real) = largest_real_file() {
        let size = std::fs::metadata(&real).map_or(0, |meta| meta.len());
        interleaved(&format!("largest real file ({size} bytes)"), &real);
    }
    let mut group = c.benchmark_group("export_1000_turns");
    group.sample_size(10);
    group.bench_function("load", |b| b.iter(|| load(&path)));
    group.bench_function("export_markdown", |b| {
        b.iter(|| export_to_sink(&path, ExportFormat::Markdown))
    });
    group.bench_function("export_html", |b| {
        b.iter(|| export_to_sink(&path, ExportFormat::Html))
    });
    group.finish();
}

criterion_group!(benches, bench);
codex_test_support::bench_main!("export", benches);
