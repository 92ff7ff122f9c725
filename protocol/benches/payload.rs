//! Type-first payload decoding against serde's derived path and a plain `Value` parse, on the
//! lines of the real fixtures.
//!
//! Group `parse_real_lines` (every line of every real file, in file order):
//! - `value`: `serde_json::from_slice::<Value>` (the cheapest generic reading, the baseline);
//! - `typed_derived`: `parse_rollout_line_typed_derived`, the line parser with the
//!   `response_item` and `event_msg` payloads through serde's internally tagged derive (the
//!   path before the type-first decoder);
//! - `typed_type_first`: `parse_rollout_line_typed`, the parser every reader uses.
//!
//! Group `decode_payloads` (the `response_item` and `event_msg` payloads alone, as text):
//! `value`, `derived` (`serde_json::from_str::<ResponseItem | EventMsg>`) and `type_first`
//! (`codex_protocol::type_first::decode`).
//!
//! Before criterion runs, an interleaved measurement prints the ratios (median of 15
//! back-to-back rounds of 5 passes each), robust to the load of a shared machine drifting.
//! Without the real folder the bench says so and measures nothing.

#![allow(clippy::expect_used, clippy::print_stderr)]

use std::hint::black_box;
use std::time::Instant;

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::{parse_rollout_line_typed, parse_rollout_line_typed_derived};
use codex_protocol::type_first;
use codex_test_support::{non_empty_lines, real_jsonl_files};
use criterion::{Criterion, Throughput, criterion_group};
use serde_json::Value;
use serde_json::value::RawValue;

/// A payload of one of the two tagged kinds, as text.
enum Payload {
    ResponseItem(String),
    EventMsg(String),
}

impl Payload {
    fn text(&self) -> &str {
        match self {
            Payload::ResponseItem(text) | Payload::EventMsg(text) => text,
        }
    }
}

/// Every line of the real fixtures, and the tagged payloads among them.
fn real_inputs() -> Option<(Vec<Vec<u8>>, Vec<Payload>)> {
    #[derive(serde::Deserialize)]
    struct Envelope<'a> {
        #[serde(rename = "type")]
        tag: Option<String>,
        #[serde(borrow)]
        payload: Option<&'a RawValue>,
    }
    let mut lines = Vec::new();
    for path in real_jsonl_files().ok()?? {
        lines.extend(non_empty_lines(&path).ok()?);
    }
    let payloads = lines
        .iter()
        .filter_map(|line| {
            let envelope = serde_json::from_slice::<Envelope<'_>>(line).ok()?;
            let text = envelope.payload?.get().to_string();
            match envelope.tag.as_deref() {
                Some("response_item") => Some(Payload::ResponseItem(text)),
                Some("event_msg") => Some(Payload::EventMsg(text)),
                _ => None,
            }
        })
        .collect();
    Some((lines, payloads))
}

fn value_lines(lines: &[Vec<u8>]) -> usize {
    lines
        .iter()
        .filter(|line| serde_json::from_slice::<Value>(line).is_ok())
        .count()
}

fn derived_lines(lines: &[Vec<u8>]) -> usize {
    lines
        .iter()
        .filter(|line| parse_rollout_line_typed_derived(line).is_ok())
        .count()
}

fn type_first_lines(lines: &[Vec<u8>]) -> usize {
    lines
        .iter()
        .filter(|line| parse_rollout_line_typed(line).is_ok())
        .count()
}

fn value_payloads(payloads: &[Payload]) -> usize {
    payloads
        .iter()
        .filter(|payload| serde_json::from_str::<Value>(payload.text()).is_ok())
        .count()
}

fn derived_payloads(payloads: &[Payload]) -> usize {
    payloads
        .iter()
        .filter(|payload| match payload {
            Payload::ResponseItem(text) => serde_json::from_str::<ResponseItem>(text).is_ok(),
            Payload::EventMsg(text) => serde_json::from_str::<EventMsg>(text).is_ok(),
        })
        .count()
}

fn type_first_payloads(payloads: &[Payload]) -> usize {
    payloads
        .iter()
        .filter(|payload| match payload {
            Payload::ResponseItem(text) => type_first::decode::<ResponseItem>(text).is_ok(),
            Payload::EventMsg(text) => type_first::decode::<EventMsg>(text).is_ok(),
        })
        .count()
}

fn bench_payloads(c: &mut Criterion) {
    let Some((lines, payloads)) = real_inputs() else {
        eprintln!("payload bench: real fixtures missing, nothing measured");
        return;
    };
    let line_bytes: usize = lines.iter().map(Vec::len).sum();
    let mut group = c.benchmark_group("parse_real_lines");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(line_bytes as u64));
    group.bench_function("value", |b| b.iter(|| value_lines(black_box(&lines))));
    group.bench_function("typed_derived", |b| {
        b.iter(|| derived_lines(black_box(&lines)))
    });
    group.bench_function("typed_type_first", |b| {
        b.iter(|| type_first_lines(black_box(&lines)))
    });
    group.finish();

    let payload_bytes: usize = payloads.iter().map(|payload| payload.text().len()).sum();
    let mut group = c.benchmark_group("decode_payloads");
    group.sample_size(20);
    group.throughput(Throughput::Bytes(payload_bytes as u64));
    group.bench_function("value", |b| b.iter(|| value_payloads(black_box(&payloads))));
    group.bench_function("derived", |b| {
        b.iter(|| derived_payloads(black_box(&payloads)))
    });
    group.bench_function("type_first", |b| {
        b.iter(|| type_first_payloads(black_box(&payloads)))
    });
    group.finish();
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values[values.len() / 2]
}

/// A named reader of the bench input, returning how many inputs it accepted.
type Reader<'n, I> = (&'n str, fn(&I) -> usize);

/// Measures three readers back to back in each round and prints the medians and the median
/// per-round ratios against the first.
fn interleaved<I: ?Sized>(name: &str, input: &I, readers: [Reader<'_, I>; 3]) {
    let mut rounds = Vec::new();
    for _ in 0..15 {
        let mut round = [0.0; 3];
        for (slot, (_, reader)) in round.iter_mut().zip(readers.iter()) {
            let start = Instant::now();
            for _ in 0..5 {
                black_box(reader(black_box(input)));
            }
            *slot = start.elapsed().as_secs_f64() * 1e3;
        }
        rounds.push(round);
    }
    let ms = |column: usize| median(rounds.iter().map(|round| round[column]).collect());
    let ratio = |column: usize| median(rounds.iter().map(|r| r[column] / r[0]).collect());
    let over_derived = median(rounds.iter().map(|r| r[2] / r[1]).collect());
    eprintln!(
        "{name} (median of 15 rounds x 5 passes): {} {:.1} ms; {} {:.1} ms ({:.2}x); {} {:.1} ms \
         ({:.2}x; {:.2}x of {})",
        readers[0].0,
        ms(0),
        readers[1].0,
        ms(1),
        ratio(1),
        readers[2].0,
        ms(2),
        ratio(2),
        over_derived,
        readers[1].0,
    );
}

fn interleaved_ratios() {
    let Some((lines, payloads)) = real_inputs() else {
        return;
    };
    eprintln!("{} lines, {} tagged payloads", lines.len(), payloads.len());
    interleaved(
        "parse_real_lines",
        lines.as_slice(),
        [
            ("value", value_lines),
            ("typed_derived", derived_lines),
            ("typed_type_first", type_first_lines),
        ],
    );
    interleaved(
        "decode_payloads",
        payloads.as_slice(),
        [
            ("value", value_payloads),
            ("derived", derived_payloads),
            ("type_first", type_first_payloads),
        ],
    );
}

criterion_group!(benches, bench_payloads);

codex_test_support::bench_main!("payload", interleaved_ratios, benches);
