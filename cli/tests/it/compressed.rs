//! Compressed rollouts (`rollout-….jsonl.zst`) on the command line: every command reads them,
//! by path or on standard input, exactly as the plain file; a damaged one stops each command
//! with an error naming the file, and `validate` lists the lines before the damage.
//!
//! The real files of `../shared/fixtures/real/` are compressed into a temporary folder (never
//! into the project); they skip loudly when the folder is missing, unless
//! `CODEX_REQUIRE_REAL_FIXTURES=1`.

use crate::common;

use std::path::{Path, PathBuf};

use common::{TestResult, bin, name, real_files, without_file_facts};

/// `bytes` cut into `count` chunks of (about) equal size, each compressed as a frame of its
/// own, concatenated.
fn frames(bytes: &[u8], count: usize) -> std::io::Result<Vec<u8>> {
    let mut out = Vec::new();
    for index in 0..count {
        let chunk = &bytes[bytes.len() * index / count..bytes.len() * (index + 1) / count];
        out.extend(zstd::encode_all(chunk, 3)?);
    }
    Ok(out)
}

/// Exit code and standard output of `codex-thread <args> <file>`, with `stdin` when given.
fn run(
    args: &[&str],
    file: &str,
    stdin: Option<&[u8]>,
) -> Result<(Option<i32>, String), Box<dyn std::error::Error>> {
    let mut command = bin()?;
    command.args(args).arg(file);
    if let Some(stdin) = stdin {
        command.write_stdin(stdin.to_vec());
    }
    let output = command.output()?;
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(!stderr.contains("panicked"), "{args:?} {file}: {stderr}");
    Ok((output.status.code(), String::from_utf8(output.stdout)?))
}

/// `validate --json` output with the `file` field (the only one naming the input) removed.
fn without_file(json: &str) -> Result<serde_json::Value, serde_json::Error> {
    let mut value: serde_json::Value = serde_json::from_str(json)?;
    if let Some(object) = value.as_object_mut() {
        object.remove("file");
    }
    Ok(value)
}

fn path_arg(path: &Path) -> String {
    path.to_string_lossy().into_owned()
}

/// A compressed copy: its path and its bytes.
type CompressedCopy = (PathBuf, Vec<u8>);

/// Writes `bytes` compressed in one frame and in three, as `<stem>.1.jsonl.zst` and
/// `<stem>.3.jsonl.zst` under `dir`.
fn compressed_copies(
    dir: &Path,
    stem: &str,
    bytes: &[u8],
) -> Result<Vec<CompressedCopy>, Box<dyn std::error::Error>> {
    let mut copies = Vec::new();
    for count in [1, 3] {
        let compressed = frames(bytes, count)?;
        let path = dir.join(format!("{stem}.{count}.jsonl.zst"));
        std::fs::write(&path, &compressed)?;
        copies.push((path, compressed));
    }
    Ok(copies)
}

#[test]
fn inspect_and_validate_of_compressed_real_files_equal_the_plain_ones() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    for file in &files {
        let bytes = std::fs::read(file)?;
        let plain_inspect = without_file(&run(&["inspect", "--json"], &path_arg(file), None)?.1)?;
        let (plain_code, plain_validate) = run(&["validate", "--json"], &path_arg(file), None)?;
        let plain_validate = without_file(&plain_validate)?;
        for (path, compressed) in compressed_copies(dir.path(), &name(file), &bytes)? {
            let label = name(&path);
            assert_eq!(
                without_file(&run(&["inspect", "--json"], &path_arg(&path), None)?.1)?,
                plain_inspect,
                "{label}"
            );
            assert_eq!(
                without_file(&run(&["inspect", "--json"], "-", Some(&compressed))?.1)?,
                plain_inspect,
                "{label} on stdin"
            );
            let (code, validate) = run(&["validate", "--json"], &path_arg(&path), None)?;
            assert_eq!(
                (code, without_file(&validate)?),
                (plain_code, plain_validate.clone()),
                "{label}"
            );
        }
    }
    Ok(())
}

#[test]
fn every_command_reads_a_compressed_sample_as_the_plain_one() -> TestResult {
    let dir = tempfile::tempdir()?;
    let plain = dir.path().join("sample.jsonl");
    std::fs::write(&plain, codex_thread::sample::SAMPLE_JSONL)?;
    let copies = compressed_copies(
        dir.path(),
        "sample",
        codex_thread::sample::SAMPLE_JSONL.as_bytes(),
    )?;
    for args in [
        &["inspect"][..],
        &["history", "--json"],
        &["prompt", "--json"],
        &["thread", "--json"],
        &["notifications", "--json"],
        &["export"],
        &["export", "--json"],
    ] {
        let expected = run(args, &path_arg(&plain), None)?;
        assert_eq!(expected.0, Some(0), "{args:?}");
        for (path, compressed) in &copies {
            let mut shown = expected.1.replace(&path_arg(&plain), &path_arg(path));
            if args == ["inspect"] {
                // The text report's first line is the file name, shortened to fit.
                shown = expected.1.lines().skip(1).collect::<Vec<_>>().join("\n");
                let (code, out) = run(args, &path_arg(path), None)?;
                let out: Vec<&str> = out.lines().skip(1).collect();
                assert_eq!((code, out.join("\n")), (Some(0), shown), "{args:?}");
                continue;
            }
            if args[0] == "thread" || args == ["export", "--json"] {
                // What the file itself is (its path and modification time) is not content.
                let (code, out) = run(args, &path_arg(path), None)?;
                assert_eq!(
                    (code, without_file_facts(&out)?),
                    (Some(0), without_file_facts(&shown)?),
                    "{args:?}"
                );
                let (code, out) = run(args, "-", Some(compressed))?;
                assert_eq!(
                    (code, without_file_facts(&out)?),
                    (expected.0, without_file_facts(&expected.1)?),
                    "{args:?} on stdin"
                );
                continue;
            }
            assert_eq!(
                run(args, &path_arg(path), None)?,
                (Some(0), shown),
                "{args:?}"
            );
            assert_eq!(
                run(args, "-", Some(compressed))?,
                expected,
                "{args:?} on stdin"
            );
        }
    }
    // A fork of a compressed file is a plain file with the same lines as a fork of the plain
    // one (the session meta aside, which names a new thread).
    let mut forks = Vec::new();
    for (index, source) in [&plain, &copies[1].0].into_iter().enumerate() {
        let out = dir.path().join(format!("fork{index}.jsonl"));
        let (code, _) = run(
            &["fork", "--drop-turns", "1", "-o", &path_arg(&out)],
            &path_arg(source),
            None,
        )?;
        assert_eq!(code, Some(0));
        let text = std::fs::read_to_string(&out)?;
        forks.push(text.lines().skip(1).map(str::to_string).collect::<Vec<_>>());
    }
    assert_eq!(forks[0], forks[1]);
    assert!(!forks[0].is_empty());
    Ok(())
}

#[test]
fn a_cut_compressed_file_is_an_error_naming_it_and_validate_lists_the_lines_before() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let mut checked = 0;
    for file in &files {
        let bytes = std::fs::read(file)?;
        // Sixteen frames, so that a cut keeps the frames before it.
        let compressed = frames(&bytes, 16)?;
        let (_, plain_validate) = run(&["validate", "--json"], &path_arg(file), None)?;
        let plain_problems = without_file(&plain_validate)?["problems"].clone();
        for point in [3, 7, 10] {
            let cut = compressed.len() * point / 11;
            let path = dir
                .path()
                .join(format!("{}.cut{point}.jsonl.zst", name(file)));
            std::fs::write(&path, &compressed[..cut])?;
            let shown = path_arg(&path);

            let output = bin()?.args(["inspect", "--json", &shown]).output()?;
            let stderr = String::from_utf8_lossy(&output.stderr);
            if output.status.code() != Some(1) || !stderr.contains(&format!("{shown} is damaged")) {
                return Err(format!("{shown}: {:?}: {stderr}", output.status.code()).into());
            }
            assert!(output.stdout.is_empty(), "{shown}");

            let (code, validate) = run(&["validate", "--json"], &shown, None)?;
            assert_eq!(code, Some(1), "{shown}");
            let report = without_file(&validate)?;
            let problems = report["problems"].as_array().ok_or("no problems")?;
            let (last, before) = problems.split_last().ok_or("no damage reported")?;
            assert_eq!(last["kind"], "damaged", "{shown}");
            let lines = report["lines"].as_u64().ok_or("no line count")?;
            assert_eq!(last["line"], lines + 1, "{shown}");
            // The problems before the damage are the plain file's problems on those lines.
            let expected: Vec<&serde_json::Value> = plain_problems
                .as_array()
                .ok_or("no plain problems")?
                .iter()
                .filter(|problem| problem["line"].as_u64().is_some_and(|line| line <= lines))
                .collect();
            assert_eq!(before.iter().collect::<Vec<_>>(), expected, "{shown}");
            checked += 1;
        }
    }
    assert!(checked > 0);
    Ok(())
}
