//! Benchmarks of the context manager's history operations, each next to a baseline measured in
//! the same run:
//!
//! - `for_prompt`: projecting a shared snapshot (clone + normalize in one pass) against a plain
//!   `Vec` clone of the same items and against the straightforward insert-in-place algorithm
//!   (clone, then `Vec::insert` each missing output, then remove orphans);
//! - `trim_oldest`: removing the oldest 10% one item at a time (`remove_first_item` in a loop)
//!   against the one-pass `trim_oldest`;
//! - `drop_last_n_user_turns`: against the boundary scan it cannot avoid;
//! - `snapshot_clone`: `ContextManager::clone` against a deep copy of the items.
//!
//! Sizes 10k, 100k and 1M items show how cost grows. Workload: blocks of one user message, nine
//! answered function calls, one call whose output is missing (10% of calls) and one assistant
//! message.
//!
//! Run: `cargo bench -p codex-core --bench history -- --measurement-time 3 --warm-up-time 1`.

use std::collections::HashSet;
use std::hint::black_box;

use codex_core::ContextManager;
use codex_core::InputModality;
use codex_core::is_user_turn_boundary;
use codex_core::synthetic_output_id;
use codex_protocol::call_pairing::OutputChannel;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use codex_protocol::response_item_id::ResponseItemId;
use criterion::BatchSize;
use criterion::BenchmarkId;
use criterion::Criterion;
use criterion::Throughput;
use criterion::criterion_group;

/// 10k items fit in the CPU's last-level cache, 100k and 1M do not: compare 100k with 1M to
/// see algorithmic growth, 10k with 100k to see the cache cliff as well.
const SIZES: [usize; 3] = [10_000, 100_000, 1_000_000];

/// The quadratic baseline takes seconds at 100k; it is skipped above that.
const INSERT_IN_PLACE_MAX: usize = 100_000;

/// Trimming one item at a time is O(k·n); it is measured at 10k only.
const ONE_AT_A_TIME_MAX: usize = 10_000;
const MODALITIES: &[InputModality] = &[InputModality::Text, InputModality::Image];

/// `len` history items in blocks of 21: user, 9 × (call, output), 1 unanswered call, assistant.
fn workload(len: usize) -> Vec<ResponseItem> {
    let mut items = Vec::with_capacity(len);
    let mut call = 0usize;
    while items.len() < len {
        items.push(ResponseItem::user_text(format!(
            "please look at file number {call} and fix it"
        )));
        for answered in 0..10 {
            let call_id = format!("call_{call}");
            let mut request = ResponseItem::function_call(
                "shell",
                format!(r#"{{"command":["cat","src/module_{call}.rs"],"timeout_ms":10000}}"#),
                call_id.clone(),
            );
            request.set_id(Some(ResponseItemId::from(format!("fc_{call}"))));
            items.push(request);
            if answered < 9 {
                items.push(ResponseItem::function_call_output(
                    call_id,
                    format!("fn module_{call}() {{}}\n").repeat(8),
                ));
            }
            call += 1;
        }
        items.push(ResponseItem::assistant_text(
            "I looked at the files and fixed the problem in the last one.",
            None,
        ));
    }
    items.truncate(len);
    items
}

fn history_of(items: &[ResponseItem]) -> ContextManager {
    let mut history = ContextManager::new();
    history.replace(items.to_vec());
    history
}

/// The straightforward algorithm: collect answered call ids, insert each missing output right
/// after its call with `Vec::insert` (newest first so indices stay valid), then drop outputs
/// whose call is absent. Quadratic in the number of missing outputs.
fn insert_in_place_normalize(items: &mut Vec<ResponseItem>) {
    let answered: HashSet<&str> = items
        .iter()
        .filter_map(|item| match item {
            ResponseItem::FunctionCallOutput {
                call_id: Some(call_id),
                ..
            } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    let mut missing = Vec::new();
    for (index, item) in items.iter().enumerate() {
        if let ResponseItem::FunctionCall { id, call_id, .. } = item
            && !answered.contains(call_id.as_str())
        {
            missing.push((
                index,
                ResponseItem::FunctionCallOutput {
                    id: synthetic_output_id(OutputChannel::Function, id.as_deref()),
                    call_id: Some(call_id.clone()),
                    name: None,
                    namespace: None,
                    output: FunctionCallOutputPayload::from_text("aborted"),
                    internal_chat_message_metadata_passthrough: None,
                },
            ));
        }
    }
    drop(answered);
    for (index, output) in missing.into_iter().rev() {
        items.insert(index + 1, output);
    }
    let calls: HashSet<String> = items
        .iter()
        .filter_map(|item| match item {
            ResponseItem::FunctionCall { call_id, .. } => Some(call_id.clone()),
            _ => None,
        })
        .collect();
    items.retain(|item| match item {
        ResponseItem::FunctionCallOutput {
            call_id: Some(call_id),
            ..
        } => calls.contains(call_id),
        _ => true,
    });
}

fn bench_for_prompt(c: &mut Criterion) {
    let mut group = c.benchmark_group("for_prompt");
    group.sample_size(10);
    for len in SIZES {
        let items = workload(len);
        let history = history_of(&items);
        if len <= INSERT_IN_PLACE_MAX {
            let mut expected = items.clone();
            insert_in_place_normalize(&mut expected);
            assert_eq!(
                history.clone().for_prompt(MODALITIES),
                expected,
                "the baseline must compute the same projection"
            );
        }
        group.throughput(Throughput::Elements(len as u64));
        group.bench_with_input(
            BenchmarkId::new("baseline_vec_clone", len),
            &items,
            |b, items| {
                b.iter(|| black_box(items.clone()));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("for_prompt_shared", len),
            &history,
            |b, history| {
                b.iter(|| black_box(history.clone().for_prompt(MODALITIES)));
            },
        );
        group.bench_with_input(
            BenchmarkId::new("for_prompt_exclusive", len),
            &items,
            |b, items| {
                b.iter_batched(
                    || history_of(items),
                    |history| black_box(history.for_prompt(MODALITIES)),
                    BatchSize::LargeInput,
                );
            },
        );
        if len <= INSERT_IN_PLACE_MAX {
            group.bench_with_input(
                BenchmarkId::new("baseline_insert_in_place", len),
                &items,
                |b, items| {
                    b.iter(|| {
                        let mut copy = items.clone();
                        insert_in_place_normalize(&mut copy);
                        black_box(copy)
                    });
                },
            );
        }
    }
    group.finish();
}

fn bench_trim(c: &mut Criterion) {
    let mut group = c.benchmark_group("trim_oldest_10_percent");
    group.sample_size(10);
    for len in SIZES {
        let items = workload(len);
        let count = len / 10;
        group.throughput(Throughput::Elements(len as u64));
        if len <= ONE_AT_A_TIME_MAX {
            group.bench_with_input(
                BenchmarkId::new("baseline_remove_first_item_loop", len),
                &items,
                |b, items| {
                    b.iter_batched(
                        || history_of(items),
                        |mut history| {
                            for _ in 0..count {
                                history.remove_first_item();
                            }
                            black_box(history)
                        },
                        BatchSize::LargeInput,
                    );
                },
            );
        }
        group.bench_with_input(
            BenchmarkId::new("trim_oldest_one_pass", len),
            &items,
            |b, items| {
                b.iter_batched(
                    || history_of(items),
                    |mut history| {
                        history.trim_oldest(count);
                        black_box(history)
                    },
                    BatchSize::LargeInput,
                );
            },
        );
    }
    group.finish();
}

fn bench_drop_turns(c: &mut Criterion) {
    let mut group = c.benchmark_group("drop_last_n_user_turns");
    group.sample_size(10);
    for len in SIZES {
        let items = workload(len);
        group.throughput(Throughput::Elements(len as u64));
        group.bench_with_input(
            BenchmarkId::new("baseline_boundary_scan", len),
            &items,
            |b, items| {
                b.iter(|| {
                    black_box(
                        items
                            .iter()
                            .filter(|item| is_user_turn_boundary(item))
                            .count(),
                    )
                });
            },
        );
        group.bench_with_input(
            BenchmarkId::new("drop_1_exclusive", len),
            &items,
            |b, items| {
                b.iter_batched(
                    || history_of(items),
                    |mut history| {
                        history.drop_last_n_user_turns(1);
                        black_box(history)
                    },
                    BatchSize::LargeInput,
                );
            },
        );
        let shared = history_of(&items);
        group.bench_with_input(
            BenchmarkId::new("drop_1_shared", len),
            &shared,
            |b, shared| {
                // Dropping the result (the other side's cost, not the rollback's) stays out of
                // the timing, as `iter_batched` does for the exclusive case.
                b.iter_with_large_drop(|| {
                    let mut history = shared.clone();
                    history.drop_last_n_user_turns(1);
                    black_box(history)
                });
            },
        );
    }
    group.finish();
}

fn bench_snapshot_clone(c: &mut Criterion) {
    let mut group = c.benchmark_group("snapshot_clone");
    let len = 100_000;
    let items = workload(len);
    let history = history_of(&items);
    group.sample_size(10);
    group.bench_function(BenchmarkId::new("baseline_vec_clone", len), |b| {
        b.iter(|| black_box(items.clone()));
    });
    group.bench_function(BenchmarkId::new("context_manager_clone", len), |b| {
        b.iter(|| black_box(history.clone()));
    });
    group.finish();
}

criterion_group!(
    benches,
    bench_for_prompt,
    bench_trim,
    bench_drop_turns,
    bench_snapshot_clone
);
codex_test_support::bench_main!("history", benches);
