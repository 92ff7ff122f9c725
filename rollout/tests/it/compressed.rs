//! Compressed rollouts (`.jsonl.zst`) over every real Codex session file in
//! `../shared/fixtures/real`, compressed here into a temporary folder (never into the project):
//!
//! - one frame and several frames load exactly as the plain file (same bytes, lines, items,
//!   problems), by path, by reader and from memory;
//! - a compressed file cut at 10 points is a [`LoadError::Damaged`] naming the file whose
//!   partial contents are exactly the complete lines decoded before the cut: a prefix of the
//!   plain file's lines, as many as a plain zstd decoder gives whole lines for the cut bytes.

use std::io::Read;
use std::path::Path;

use codex_rollout::Compression;
use codex_rollout::{LoadError, ProblemKind, RolloutContents, load_rollout_items};
use codex_test_support::real_jsonl_files;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// `bytes` cut into `count` chunks of (about) equal size, each compressed as a frame of its
/// own, concatenated; with the compressed offset where each frame ends.
fn frames(bytes: &[u8], count: usize) -> std::io::Result<(Vec<u8>, Vec<usize>)> {
    let mut out = Vec::new();
    let mut ends = Vec::new();
    for index in 0..count {
        let chunk = &bytes[bytes.len() * index / count..bytes.len() * (index + 1) / count];
        out.extend(zstd::encode_all(chunk, 3)?);
        ends.push(out.len());
    }
    Ok((out, ends))
}

/// What a plain zstd decoder gives for `compressed` before its first error.
fn decode_until_error(compressed: &[u8]) -> std::io::Result<Vec<u8>> {
    let mut decoder = zstd::stream::read::Decoder::new(compressed)?;
    let mut out = Vec::new();
    let mut buf = [0; 8192];
    loop {
        match decoder.read(&mut buf) {
            Ok(0) | Err(_) => return Ok(out),
            Ok(read) => out.extend_from_slice(&buf[..read]),
        }
    }
}

fn name(path: &Path) -> String {
    path.file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .unwrap_or_default()
}

/// The load result without its path: the contents when it loads, the error's kind and the
/// contents it read otherwise.
fn outcome(result: Result<codex_rollout::LoadedRollout, LoadError>) -> String {
    match result {
        Ok(loaded) => format!("ok {:?} {:?}", loaded.thread_id, loaded.contents.problems()),
        Err(LoadError::Empty { .. }) => "empty".to_string(),
        Err(LoadError::MissingSessionMeta {
            lines, problems, ..
        }) => format!("no meta {lines} {problems}"),
        Err(err) => format!("other: {err}"),
    }
}

#[test]
fn every_real_file_compressed_loads_exactly_as_the_plain_file() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    assert!(!files.is_empty());
    let dir = tempfile::tempdir()?;
    for path in &files {
        let file = name(path);
        let bytes = std::fs::read(path)?;
        let plain = RolloutContents::parse(bytes.clone());
        let plain_load = outcome(load_rollout_items(path));
        for count in [1, 3] {
            let (compressed, _) = frames(&bytes, count)?;
            let target = dir.path().join(format!("{file}.{count}.zst"));
            std::fs::write(&target, &compressed)?;
            let from_file = RolloutContents::read(std::fs::File::open(&target)?)?;
            assert_eq!(from_file, plain, "{file}, {count} frame(s)");
            assert_eq!(
                RolloutContents::parse(compressed.clone()),
                plain,
                "{file}, {count} frame(s), in memory"
            );
            assert_eq!(
                outcome(load_rollout_items(&target)),
                plain_load,
                "{file}, {count} frame(s), loaded"
            );
            let decoded = codex_rollout::read_rollout_file(&target)?;
            assert_eq!(decoded.compression, Compression::Zstd);
        }
    }
    Ok(())
}

#[test]
fn a_cut_compressed_file_keeps_exactly_the_complete_lines_before_the_cut() -> TestResult {
    let Some(files) = real_jsonl_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let mut kept_somewhere = 0;
    for path in &files {
        let file = name(path);
        let bytes = std::fs::read(path)?;
        // Sixteen frames, so that a cut keeps the frames before it.
        let (compressed, frame_ends) = frames(&bytes, 16)?;
        let mut kept_before = 0;
        for point in 1..=10 {
            let mut cut = compressed.len() * point / 11;
            if frame_ends.contains(&cut) {
                // A cut between two frames is a valid, shorter stream: move inside a frame.
                cut += 1;
            }
            let target = dir.path().join(format!("{file}.cut{point}.jsonl.zst"));
            std::fs::write(&target, &compressed[..cut])?;
            let err = load_rollout_items(&target)
                .err()
                .ok_or_else(|| format!("{file} cut at {cut} loaded"))?;
            let message = err.to_string();
            assert!(
                message.contains(&target.display().to_string()),
                "{file}: {message}"
            );
            let LoadError::Damaged {
                path: reported,
                partial,
                ..
            } = err
            else {
                return Err(format!("{file} cut at {cut}: not a damage: {message}").into());
            };
            assert_eq!(reported, target);

            // Exactly the whole lines a plain decoder gives for the cut bytes.
            let decoded = decode_until_error(&compressed[..cut])?;
            let complete = decoded
                .iter()
                .rposition(|byte| *byte == b'\n')
                .map_or(0, |newline| newline + 1);
            assert_eq!(partial.bytes(), &decoded[..complete], "{file} cut at {cut}");
            // ... which are a prefix of the plain file's lines, each kept line as in it.
            assert_eq!(partial.bytes(), &bytes[..complete], "{file} cut at {cut}");
            let lines = bytes[..complete].iter().filter(|b| **b == b'\n').count();
            assert_eq!(partial.line_count(), lines, "{file} cut at {cut}");
            let plain = RolloutContents::parse(bytes[..complete].to_vec());
            assert_eq!(partial.items(), plain.items(), "{file} cut at {cut}");
            assert_eq!(partial.entries(), plain.entries(), "{file} cut at {cut}");
            // The damage is the last problem, on the first line not kept.
            let (last, before) = partial.problems().split_last().ok_or("no problem")?;
            assert_eq!(before, plain.problems(), "{file} cut at {cut}");
            assert_eq!(
                (last.line, last.kind),
                (lines + 1, ProblemKind::Damaged),
                "{file} cut at {cut}"
            );
            assert!(lines >= kept_before, "{file}: a later cut kept less");
            kept_before = lines;
        }
        if kept_before > 0 {
            kept_somewhere += 1;
        }
    }
    // The check would pass vacuously if nothing were ever kept.
    assert!(
        kept_somewhere * 2 > files.len(),
        "{kept_somewhere} of {} files kept lines",
        files.len()
    );
    Ok(())
}
