//! `export` of a file is streamed (read more than once, written a turn at a time); standard
//! input and the sample are loaded whole. Both must write the same document, byte for byte:
//! every real file and the sample, as HTML, Markdown and `--json`, with and without
//! `--redact`.

mod common;

use std::path::Path;

use common::{TestResult, bin, name, real_files};

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
            assert!(
                streamed == loaded,
                "{} {args:?}: the streamed export differs from the loaded one",
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
        let (streamed, _) = both(&file, format)?;
        assert!(
            streamed == bundled.stdout,
            "{format:?}: the sample as a file differs from the bundled sample"
        );
    }
    Ok(())
}
