//! A large generated session for `rescue`'s kill test and benchmark: long tool outputs and
//! compactions whose replacement histories repeat an inline image, as in the reports of
//! sessions too large to resume.

#![allow(dead_code, clippy::unwrap_used)]

use std::io::Write;
use std::path::{Path, PathBuf};

/// A plain session of about `target` bytes under `home` (turns of 200 kB tool outputs; a
/// compaction every `every` turns up to turn `last_compaction`, its replacement history
/// holding a 1 MiB inline image); its path.
pub(crate) fn large_session(home: &Path, target: u64, every: u64, last_compaction: u64) -> PathBuf {
    let id = "01a23454-9bc3-7cb3-96fe-d04508ce1340";
    let dir = home.join("sessions/2026/05/01");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(format!("rollout-2026-05-01T08-00-00-{id}.jsonl"));
    let mut out = std::io::BufWriter::with_capacity(1 << 22, std::fs::File::create(&path).unwrap());
    let ts = "2026-05-01T08:00:00.000Z";
    writeln!(out, r#"{{"timestamp":"{ts}","type":"session_meta","payload":{{"id":"{id}","timestamp":"{ts}","cwd":"/repo","originator":"bench","cli_version":"0.0.0"}}}}"#).unwrap();
    let image = format!("data:image/png;base64,{}", "A".repeat(1 << 20));
    let output = "o".repeat(200_000);
    let mut written = 0u64;
    let mut turn = 0u64;
    while written < target {
        turn += 1;
        let mut lines = String::new();
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"task_started","turn_id":"t{turn}","model_context_window":null}}}}"#
        );
        lines += "\n";
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"turn_context","payload":{{"turn_id":"t{turn}","cwd":"/repo","approval_policy":"never","sandbox_policy":{{"mode":"read-only"}},"model":"m","summary":"auto"}}}}"#
        );
        lines += "\n";
        if turn.is_multiple_of(every) && turn <= last_compaction {
            lines += &format!(
                r#"{{"timestamp":"{ts}","type":"compacted","payload":{{"message":"summary {turn}","window_number":{},"replacement_history":[{{"type":"message","role":"user","content":[{{"type":"input_text","text":"look"}},{{"type":"input_image","image_url":"{image}"}}]}},{{"type":"message","role":"user","content":[{{"type":"input_text","text":"summary {turn}"}}]}}]}}}}"#,
                turn / every
            );
            lines += "\n";
        }
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"question {turn}"}}]}}}}"#
        );
        lines += "\n";
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"function_call","name":"exec_command","arguments":"{{}}","call_id":"c{turn}"}}}}"#
        );
        lines += "\n";
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"response_item","payload":{{"type":"function_call_output","call_id":"c{turn}","output":"{output}"}}}}"#
        );
        lines += "\n";
        let usage = format!(
            r#"{{"input_tokens":{turn},"cached_input_tokens":0,"output_tokens":1,"reasoning_output_tokens":0,"total_tokens":{turn}}}"#
        );
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{usage},"last_token_usage":{usage},"model_context_window":1000}},"rate_limits":null}}}}"#
        );
        lines += "\n";
        lines += &format!(
            r#"{{"timestamp":"{ts}","type":"event_msg","payload":{{"type":"task_complete","turn_id":"t{turn}","last_agent_message":"a"}}}}"#
        );
        lines += "\n";
        out.write_all(lines.as_bytes()).unwrap();
        written += lines.len() as u64;
    }
    out.flush().unwrap();
    path
}
