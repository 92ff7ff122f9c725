//! Generated sessions for the usage tests and benchmark: parents, sub-agent children that
//! copy their parent's lines (as real 0.119/0.144 children do), forks by reference, written
//! under a Codex home's `sessions/YYYY/MM/DD/`. Each generated session knows what it spent
//! (the usage of the responses it made itself), so tests compare against that.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};

/// One model response's usage: input (cached included), cached, output (reasoning
/// included), reasoning.
pub(crate) type Usage = [u64; 4];

/// A generated session file.
#[derive(Debug, Clone)]
pub(crate) struct Generated {
    /// Thread id (UUID v7 minted at `start`).
    pub id: String,
    /// When it starts.
    pub start: DateTime<Utc>,
    /// Every line, in order.
    pub lines: Vec<String>,
    /// The usage of each response the session made itself, with its time and model.
    pub own: Vec<(DateTime<Utc>, String, Usage)>,
    /// The running total after the last line.
    pub total: Usage,
}

impl Generated {
    /// What the session spent itself.
    pub(crate) fn spent(&self) -> Usage {
        let mut sum = [0; 4];
        for (_, _, usage) in &self.own {
            for (sum, value) in sum.iter_mut().zip(usage) {
                *sum += value;
            }
        }
        sum
    }

    /// The file's text.
    pub(crate) fn text(&self) -> String {
        let mut text = self.lines.join("\n");
        text.push('\n');
        text
    }

    /// Its path under `home` (`sessions/YYYY/MM/DD/rollout-<time>-<id>.jsonl`).
    pub(crate) fn path_in(&self, home: &Path) -> PathBuf {
        home.join("sessions")
            .join(self.start.format("%Y/%m/%d").to_string())
            .join(format!(
                "rollout-{}-{}.jsonl",
                self.start.format("%Y-%m-%dT%H-%M-%S"),
                self.id
            ))
    }

    /// Writes the file under `home` (compressed with zstd when `compressed`, as
    /// `.jsonl.zst`); returns its path.
    pub(crate) fn write_in(&self, home: &Path, compressed: bool) -> std::io::Result<PathBuf> {
        let mut path = self.path_in(home);
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        if compressed {
            path.set_extension("jsonl.zst");
            std::fs::write(&path, zstd::encode_all(self.text().as_bytes(), 3)?)?;
        } else {
            std::fs::write(&path, self.text())?;
        }
        Ok(path)
    }
}

/// A UUID v7 text minted at `at`, made unique by `seed`.
pub(crate) fn uuid_v7(at: DateTime<Utc>, seed: u64) -> String {
    let ms = u64::try_from(at.timestamp_millis()).unwrap_or(0);
    format!(
        "{:08x}-{:04x}-7{:03x}-8{:03x}-{:012x}",
        ms >> 16,
        ms & 0xffff,
        (seed >> 12) & 0xfff,
        seed & 0xfff,
        seed & 0xffff_ffff_ffff
    )
}

fn stamp(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%dT%H:%M:%S%.3fZ").to_string()
}

fn usage_json(usage: &Usage) -> String {
    format!(
        r#"{{"input_tokens":{},"cached_input_tokens":{},"output_tokens":{},"reasoning_output_tokens":{},"total_tokens":{}}}"#,
        usage[0],
        usage[1],
        usage[2],
        usage[3],
        usage[0] + usage[2]
    )
}

/// What a session is made of.
#[derive(Debug, Clone)]
pub(crate) struct Plan {
    /// Thread id seed.
    pub seed: u64,
    /// Start time.
    pub start: DateTime<Utc>,
    /// Model of its turns.
    pub model: String,
    /// User turns.
    pub turns: usize,
    /// Model responses per turn (each with a tool call and its output).
    pub responses_per_turn: usize,
    /// Bytes of each tool output (makes the lines as long as real ones).
    pub output_bytes: usize,
}

/// A session's meta line.
fn meta(id: &str, at: DateTime<Utc>, extra: &str) -> String {
    format!(
        r#"{{"timestamp":"{t}","type":"session_meta","payload":{{"id":"{id}","timestamp":"{t}","cwd":"/work","originator":"codex_cli_rs","cli_version":"0.144.0","source":"cli"{extra}}}}}"#,
        t = stamp(at)
    )
}

/// Generates the session `plan` describes. A `parent` makes it a sub-agent child whose file
/// starts with its own meta, then the parent's lines (copied, totals included), then its own
/// turns; `by_reference` makes it a fork by reference of `parent` instead (one meta naming
/// the parent's prefix, nothing copied).
pub(crate) fn generate(plan: &Plan, parent: Option<&Generated>, by_reference: bool) -> Generated {
    let id = uuid_v7(plan.start, plan.seed);
    let mut lines = Vec::new();
    let mut total: Usage = [0; 4];
    match parent {
        Some(parent) if by_reference => {
            let base = format!(
                r#","forked_from_id":"{}","history_base":{{"thread_id":"{}","end_byte_offset":{}}}"#,
                parent.id,
                parent.id,
                parent.text().len()
            );
            lines.push(meta(&id, plan.start, &base));
        }
        Some(parent) => {
            let source = format!(r#","parent_thread_id":"{}""#, parent.id);
            lines.push(meta(&id, plan.start, &source));
            lines.extend(parent.lines.iter().cloned());
            total = parent.total;
        }
        None => lines.push(meta(&id, plan.start, "")),
    }
    let mut own = Vec::new();
    let mut at = plan.start + Duration::seconds(1);
    let filler = "x".repeat(plan.output_bytes);
    for turn in 0..plan.turns {
        let turn_id = uuid_v7(at, plan.seed.wrapping_mul(31).wrapping_add(turn as u64));
        lines.push(format!(
            r#"{{"timestamp":"{}","type":"event_msg","payload":{{"type":"task_started","turn_id":"{turn_id}","model_context_window":272000}}}}"#,
            stamp(at)
        ));
        lines.push(format!(
            r#"{{"timestamp":"{}","type":"turn_context","payload":{{"turn_id":"{turn_id}","cwd":"/work","approval_policy":"never","sandbox_policy":{{"mode":"workspace-write"}},"model":"{}","effort":"medium","summary":"auto"}}}}"#,
            stamp(at),
            plan.model
        ));
        lines.push(format!(
            r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"message","role":"user","content":[{{"type":"input_text","text":"Please do step {turn} of the plan."}}]}}}}"#,
            stamp(at)
        ));
        lines.push(format!(
            r#"{{"timestamp":"{}","type":"event_msg","payload":{{"type":"user_message","message":"Please do step {turn} of the plan.","kind":"plain"}}}}"#,
            stamp(at)
        ));
        for response in 0..plan.responses_per_turn {
            at += Duration::seconds(7);
            let n = (plan.seed as usize + turn * 7 + response) as u64;
            let usage: Usage = [
                10_000 + n * 37 % 5_000,
                8_000 + n * 11 % 2_000,
                200 + n * 13 % 700,
                50 + n * 3 % 150,
            ];
            let call_id = format!("call_{}_{turn}_{response}", plan.seed);
            lines.push(format!(
                r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"function_call","name":"shell","arguments":"{{\"command\":[\"ls\"]}}","call_id":"{call_id}"}}}}"#,
                stamp(at)
            ));
            lines.push(format!(
                r#"{{"timestamp":"{}","type":"response_item","payload":{{"type":"function_call_output","call_id":"{call_id}","output":"{filler}"}}}}"#,
                stamp(at)
            ));
            for (sum, value) in total.iter_mut().zip(&usage) {
                *sum += value;
            }
            lines.push(format!(
                r#"{{"timestamp":"{}","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{},"last_token_usage":{},"model_context_window":272000}},"rate_limits":null}}}}"#,
                stamp(at),
                usage_json(&total),
                usage_json(&usage)
            ));
            own.push((at, plan.model.clone(), usage));
        }
        // Codex repeats the last snapshot when the turn ends.
        lines.push(format!(
            r#"{{"timestamp":"{}","type":"event_msg","payload":{{"type":"token_count","info":{{"total_token_usage":{},"last_token_usage":{},"model_context_window":272000}},"rate_limits":null}}}}"#,
            stamp(at),
            usage_json(&total),
            usage_json(&total)
        ));
        lines.push(format!(
            r#"{{"timestamp":"{}","type":"event_msg","payload":{{"type":"task_complete","turn_id":"{turn_id}","last_agent_message":"done"}}}}"#,
            stamp(at)
        ));
        at += Duration::seconds(30);
    }
    Generated {
        id,
        start: plan.start,
        lines,
        own,
        total,
    }
}
