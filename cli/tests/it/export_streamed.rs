//! `export` of a file and of the same bytes on standard input (spooled into a temporary file
//! first) must write the same document: every real file and the sample, as HTML and Markdown
//! byte for byte, and as `--json` but for what the file itself is (its path and modification
//! time), with and without `--redact`.

use crate::common;

use std::path::Path;

use common::{TestResult, bin, name, real_files, without_file_facts};

const FORMATS: &[&[&str]] = &[
    &["--format", "html"],
    &["--format", "markdown"],
    &["--json"],
];

/// The export of `file` named on the command line (streamed) and fed on standard input
/// (loaded), with `args`.
fn both(file: &Path, args: &[&str]) -> Result<(Vec<u8>, Vec<u8>), Box<dyn std::error::Error>> {
    let streamed = bin()?
        .env("HOSTNAME", "devbox-17")
        .arg("export")
        .args(args)
        .arg(file)
        .output()?;
    assert!(
        streamed.status.success(),
        "export {args:?} {}: {}",
        file.display(),
        String::from_utf8_lossy(&streamed.stderr)
    );
    let loaded = bin()?
        .env("HOSTNAME", "devbox-17")
        .arg("export")
        .args(args)
        .arg("-")
        .write_stdin(std::fs::read(file)?)
        .output()?;
    assert!(
        loaded.status.success(),
        "export {args:?} - < {}: {}",
        file.display(),
        String::from_utf8_lossy(&loaded.stderr)
    );
    Ok((streamed.stdout, loaded.stdout))
}

fn check(file: &Path) -> TestResult {
    for format in FORMATS {
        for redact in [false, true] {
            let mut args = format.to_vec();
            if redact {
                args.push("--redact");
            }
            let (streamed, loaded) = both(file, &args)?;
            assert!(
                !streamed.is_empty(),
                "{} {args:?}: empty export",
                name(file)
            );
            let same = match args.contains(&"--json") {
                true => {
                    without_file_facts(&String::from_utf8(streamed)?)?
                        == without_file_facts(&String::from_utf8(loaded)?)?
                }
                false => streamed == loaded,
            };
            assert!(
                same,
                "{} {args:?}: the export of the file differs from the one of its bytes",
                name(file)
            );
        }
    }
    Ok(())
}

#[test]
fn streamed_export_equals_the_loaded_export_on_every_real_file() -> TestResult {
    let Some(files) = real_files()? else {
        return Ok(());
    };
    for file in &files {
        check(file)?;
    }
    Ok(())
}

#[test]
fn streamed_export_of_the_sample_equals_the_bundled_sample_export() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("sample.jsonl");
    std::fs::write(&file, codex_thread::sample::SAMPLE_JSONL)?;
    check(&file)?;
    for format in FORMATS {
        let bundled = bin()?.arg("export").args(*format).output()?;
        assert!(bundled.status.success());
        let (_, loaded) = both(&file, format)?;
        assert!(
            loaded == bundled.stdout,
            "{format:?}: the sample as a file differs from the bundled sample"
        );
    }
    Ok(())
}
