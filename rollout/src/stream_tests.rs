use std::io;

use codex_protocol::rollout::RolloutItem;
use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

use super::*;
use crate::load::{EntryContent, ProblemKind, RolloutContents};

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// Everything a stream reports, in the terms of the whole-file loader: the items, each entry
/// (line number, content kind, raw bytes) and the problems.
#[derive(Debug, PartialEq)]
struct Reading {
    items: Vec<RolloutItem>,
    entries: Vec<(usize, &'static str, Vec<u8>)>,
    problems: Vec<LineProblem>,
    lines: usize,
}

fn kind_name(content: &StreamedContent) -> Option<&'static str> {
    match content {
        StreamedContent::Line(..) => Some("item"),
        StreamedContent::LegacyMarker(_) => Some("marker"),
        StreamedContent::Opaque(_) => Some("opaque"),
        StreamedContent::Skipped => None,
    }
}

fn streamed(bytes: &[u8]) -> io::Result<Reading> {
    let mut reading = Reading {
        items: Vec::new(),
        entries: Vec::new(),
        problems: Vec::new(),
        lines: 0,
    };
    let summary = RolloutStream::new(bytes)?.for_each_line(|line| {
        if let Some(kind) = kind_name(&line.content) {
            reading.entries.push((line.number, kind, line.raw.to_vec()));
        }
        reading.problems.extend(line.problem.clone());
        if let Some(line) = line.into_line() {
            reading.items.push(line.item);
        }
    })?;
    reading.lines = summary.lines;
    Ok(reading)
}

fn loaded(bytes: &[u8]) -> io::Result<Reading> {
    let contents = RolloutContents::read(bytes)?;
    let entries = contents
        .entries()
        .iter()
        .map(|entry| {
            let kind = match entry.content {
                EntryContent::Item(_) => "item",
                EntryContent::LegacyMarker => "marker",
                EntryContent::Opaque => "opaque",
            };
            (entry.number, kind, contents.raw_line(entry).to_vec())
        })
        .collect();
    Ok(Reading {
        items: contents.items().to_vec(),
        entries,
        problems: contents.problems().to_vec(),
        lines: contents.line_count(),
    })
}

const MIXED: &[u8] = b"{\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"id\":\"0199a213-81c0-7800-8aa1-bbab2a035a53\",\"timestamp\":\"2025-01-01T00:00:00.000Z\",\"cwd\":\"/w\",\"originator\":\"t\",\"cli_version\":\"0.1.0\"}}\n\
\n\
not json\n\
{\"record_type\":\"state\"}\n\
{\"timestamp\":\"2025-01-01T00:00:01.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"hi\",\"kind\":\"plain\"}}\r\n\
{\"timestamp\":\"2025-01-01T00:00:02.000Z\",\"type\":\"world_state\",\"payload\":{}}\n\
{\"timestamp\":\"2025-01-01T00:00:03.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"token_count\",\"info\":7}}\n\
{\"timestamp\":\"2025-01-01T00:00:04.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_mess";

#[test]
fn a_stream_reads_what_the_loader_reads() -> TestResult {
    assert_eq!(streamed(MIXED)?, loaded(MIXED)?);
    let reading = streamed(MIXED)?;
    assert_eq!(reading.lines, 8);
    assert!(reading.problems.len() >= 4, "{:?}", reading.problems);
    Ok(())
}

#[test]
fn a_compressed_stream_reads_as_the_plain_one() -> TestResult {
    let compressed = zstd::encode_all(MIXED, 3)?;
    assert_eq!(streamed(&compressed)?, loaded(MIXED)?);
    let stream = RolloutStream::new(compressed.as_slice())?;
    assert_eq!(stream.compression(), Compression::Zstd);
    Ok(())
}

#[test]
fn a_damaged_stream_ends_with_the_loaders_damage_problem() -> TestResult {
    let cut = MIXED.len() / 2;
    let mut compressed = zstd::encode_all(&MIXED[..cut], 3)?;
    let second = zstd::encode_all(&MIXED[cut..], 3)?;
    compressed.extend_from_slice(&second[..second.len() - 9]);
    let streamed = streamed(&compressed)?;
    assert_eq!(streamed, loaded(&compressed)?);
    assert!(streamed.lines > 0, "{streamed:?}");
    let last = streamed.problems.last().map(|problem| problem.kind);
    assert_eq!(last, Some(ProblemKind::Damaged));
    Ok(())
}

#[test]
fn offsets_point_at_each_lines_first_byte() -> TestResult {
    let mut stream = RolloutStream::new(MIXED)?;
    while let Some(line) = stream.next_line()? {
        let start = usize::try_from(line.offset)?;
        assert_eq!(&MIXED[start..start + line.raw.len()], line.raw);
    }
    assert_eq!(stream.bytes_read(), MIXED.len() as u64);
    Ok(())
}

#[test]
fn every_real_file_streams_as_it_loads() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    for path in &files {
        let bytes = std::fs::read(path)?;
        assert_eq!(streamed(&bytes)?, loaded(&bytes)?, "{}", path.display());
    }
    Ok(())
}

/// Each line as a stream hands it over: number, offset, bytes, whether it ended with `\n`,
/// content kind, problem.
type Seen = (
    usize,
    u64,
    Vec<u8>,
    bool,
    Option<&'static str>,
    Option<LineProblem>,
);

fn seen(bytes: &[u8], parallel: bool) -> io::Result<(Vec<Seen>, StreamSummary)> {
    let mut lines = Vec::new();
    let visit = |line: StreamedLine<'_>| {
        lines.push((
            line.number,
            line.offset,
            line.raw.to_vec(),
            line.terminated,
            kind_name(&line.content),
            line.problem,
        ));
    };
    let stream = RolloutStream::new(bytes)?;
    let summary = if parallel {
        stream.for_each_line_parallel(visit)?
    } else {
        stream.for_each_line(visit)?
    };
    Ok((lines, summary))
}

/// The parallel stream cuts its input into chunks of whole lines: whatever falls at a chunk's
/// edge (a line longer than a chunk, a `\n` as the chunk's last byte, a last line without
/// one, blank lines, a compressed stream broken off), it hands over the lines of the
/// sequential one.
#[test]
fn the_parallel_stream_hands_over_the_sequential_lines_at_every_chunk_edge() -> TestResult {
    let long_text = "x".repeat(CHUNK_BYTES * 5 / 2);
    let long = format!(
        r#"{{"timestamp":"2025-01-01T00:00:01.000Z","type":"event_msg","payload":{{"type":"agent_message","message":"{long_text}"}}}}"#
    );
    let mut inputs: Vec<Vec<u8>> = vec![Vec::new(), b"\n\n\n".to_vec(), MIXED.to_vec()];
    let mut big = Vec::new();
    while big.len() < 3 * CHUNK_BYTES {
        big.extend_from_slice(MIXED);
        big.extend_from_slice(long.as_bytes());
        big.push(b'\n');
    }
    inputs.push(big.clone());
    // A chunk that ends exactly at a `\n`, then a torn last line.
    let mut exact = MIXED.repeat(CHUNK_BYTES / MIXED.len() + 2);
    exact.truncate(CHUNK_BYTES);
    exact.push(b'\n');
    exact.extend_from_slice(&MIXED[..MIXED.len() / 2]);
    inputs.push(exact);
    let mut torn = big.clone();
    torn.extend_from_slice(&long.as_bytes()[..long.len() / 3]);
    inputs.push(torn);
    let compressed = zstd::encode_all(big.as_slice(), 3)?;
    inputs.push(compressed[..compressed.len() * 2 / 3].to_vec());
    for (index, input) in inputs.iter().enumerate() {
        let sequential = seen(input, false)?;
        let parallel = seen(input, true)?;
        assert_eq!(parallel, sequential, "input {index}");
    }
    Ok(())
}
