//! Crash safety: a recording process is SIGKILLed at random points; every line a flush
//! acknowledged before the kill must load back, and at most the last line may be torn.
//!
//! The child is this same test executable, re-invoked to run [`crash_child`] with
//! [`CHILD_ENV`] naming the file to write. The child records numbered messages in random
//! batches and flushes; after each successful flush it writes `ACK <n>` (lines acknowledged so
//! far) to stdout. The parent kills it (SIGKILL, via `Child::kill`) after a random number of
//! acknowledgements plus a random delay, reads every ACK the child managed to print, then
//! checks the file.

use crate::common;

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use codex_protocol::rollout::{RolloutItem, parse_rollout_line};
use codex_protocol::thread_id::ThreadId;
use codex_rollout::RolloutRecorder;
use codex_rollout::new_session_meta;
use common::{TestResult, message_text, user};

const CHILD_ENV: &str = "CODEX_ROLLOUT_CRASH_CHILD";
const KILLS: usize = 50;
/// Padding that makes lines long enough (a few KiB) for kills to land inside a write.
const PAD: usize = 3_000;

/// Small deterministic generator (xorshift64*), so a failure can be replayed from its seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, bound: u64) -> u64 {
        self.next() % bound.max(1)
    }
}

fn expected_text(i: u64) -> String {
    format!("line {i} {}", "x".repeat(PAD))
}

/// The child's body: does nothing unless started by the parent with [`CHILD_ENV`] set.
#[test]
fn crash_child() -> TestResult {
    let Some(path) = std::env::var_os(CHILD_ENV) else {
        return Ok(());
    };
    let seed = std::env::var("CODEX_ROLLOUT_CRASH_SEED")?.parse::<u64>()?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()?;
    runtime.block_on(async move {
        let recorder = RolloutRecorder::create_at(
            PathBuf::from(path),
            new_session_meta(ThreadId::new(), "/crash", "crash-child"),
        )?;
        let mut rng = Rng(seed | 1);
        let mut next = 0u64;
        let mut stdout = std::io::stdout();
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            let batch = 1 + rng.below(8);
            let items: Vec<RolloutItem> = (next..next + batch)
                .map(|i| user(&expected_text(i)))
                .collect();
            recorder.record_items(&items).await?;
            next += batch;
            if rng.below(3) == 0 {
                recorder.flush().await?;
                writeln!(stdout, "ACK {next}")?;
                stdout.flush()?;
            }
        }
        Ok(())
    })
}

/// Runs one child until killed; returns the highest acknowledged line count it printed.
fn run_and_kill(path: &Path, rng: &mut Rng) -> Result<u64, Box<dyn std::error::Error>> {
    let mut child = Command::new(std::env::current_exe()?)
        .args([
            "crash_safety::crash_child",
            "--exact",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(CHILD_ENV, path)
        .env("CODEX_ROLLOUT_CRASH_SEED", rng.next().to_string())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let stdout = child.stdout.take().ok_or("no stdout")?;
    let mut lines = BufReader::new(stdout).lines();
    let mut acked = 0u64;
    let kill_after_acks = rng.below(40);
    let mut seen_acks = 0;
    while seen_acks < kill_after_acks {
        let Some(line) = lines.next() else { break };
        if let Some(n) = line?.strip_prefix("ACK ") {
            acked = n.trim().parse()?;
            seen_acks += 1;
        }
    }
    std::thread::sleep(Duration::from_micros(rng.below(3_000)));
    child.kill()?;
    // ACKs printed before the kill but not read yet also count as acknowledged.
    for line in lines {
        if let Some(n) = line?.strip_prefix("ACK ") {
            acked = n.trim().parse()?;
        }
    }
    child.wait()?;
    Ok(acked)
}

/// What the file holds: complete item lines (checked in order), and whether a torn tail exists.
fn check_file(path: &Path, acked: u64) -> Result<(u64, bool), Box<dyn std::error::Error>> {
    if !path.exists() {
        assert_eq!(acked, 0, "acknowledged lines but no file");
        return Ok((0, false));
    }
    let bytes = std::fs::read(path)?;
    let (complete, torn) = match bytes.iter().rposition(|b| *b == b'\n') {
        Some(end) => (&bytes[..=end], &bytes[end + 1..]),
        None => (&bytes[..0], &bytes[..]),
    };
    let mut items = 0u64;
    for (index, line) in complete
        .split(|b| *b == b'\n')
        .filter(|l| !l.is_empty())
        .enumerate()
    {
        let parsed =
            parse_rollout_line(line).map_err(|err| format!("line {}: {err}", index + 1))?;
        let item = parsed.item().ok_or("marker line")?;
        if index == 0 {
            assert!(
                matches!(item, RolloutItem::SessionMeta(_)),
                "first line is not the meta"
            );
            continue;
        }
        assert_eq!(
            message_text(item),
            Some(expected_text(items).as_str()),
            "line {}",
            index + 1
        );
        items += 1;
    }
    assert!(
        items >= acked,
        "lost acknowledged lines: {items} in file, {acked} acknowledged"
    );
    if !torn.is_empty() {
        assert!(
            parse_rollout_line(torn).is_err(),
            "a complete line without its newline"
        );
    }
    Ok((items, !torn.is_empty()))
}

#[test]
fn acknowledged_lines_survive_sigkill() -> TestResult {
    if std::env::var_os(CHILD_ENV).is_some() {
        return Ok(());
    }
    let seed = std::env::var("CODEX_ROLLOUT_CRASH_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.as_nanos() as u64)
                .unwrap_or(0x9E37_79B9_7F4A_7C15)
        });
    let mut rng = Rng(seed | 1);
    let tmp = tempfile::tempdir()?;
    let started = Instant::now();
    let (mut total_acked, mut total_lines, mut torn_tails) = (0, 0, 0);
    for kill in 0..KILLS {
        let path = tmp.path().join(format!("kill-{kill}.jsonl"));
        let acked = run_and_kill(&path, &mut rng)?;
        let (lines, torn) =
            check_file(&path, acked).map_err(|err| format!("kill {kill} (seed {seed}): {err}"))?;
        total_acked += acked;
        total_lines += lines;
        torn_tails += usize::from(torn);
    }
    // Guard against a vacuous pass (e.g. a child that fails at start and never writes).
    assert!(
        total_acked > 0,
        "no child ever acknowledged a flush (seed {seed})"
    );
    let mut stderr = std::io::stderr();
    writeln!(
        stderr,
        "crash safety (seed {seed}): {KILLS} kills, {total_acked} lines acknowledged, \
         {total_lines} found, {torn_tails} torn tails, {:?}",
        started.elapsed()
    )?;
    Ok(())
}
