//! `cargo xtask bench-input`: the benchmarks' large inputs, written where a person can run
//! the commands on them by hand, from the one generator the benchmarks use
//! (`rollout/benches/support/generate.rs`): real lines of `../shared/fixtures/real` repeated
//! to the size asked, in every hard shape real files have (`generate::named_shapes`).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};

#[path = "../../rollout/benches/support/generate.rs"]
mod generate;

/// Writes `DIR/<shape>-<MIB>mib.jsonl` for each shape named in `only` (every shape when it is
/// empty), `mib` MiB each; prints each file with its size and lines.
#[allow(clippy::print_stdout)] // The command's answer (the files written) goes to stdout.
pub(crate) fn run(dir: &Path, mib: u64, only: &[String]) -> Result<()> {
    let Some(lines) = generate::real_lines() else {
        bail!("the real session fixtures are missing: ../shared/fixtures/real beside the checkout");
    };
    let shapes = generate::named_shapes(mib * 1024 * 1024);
    let known: Vec<&str> = shapes.iter().map(|(name, _, _)| *name).collect();
    if let Some(unknown) = only.iter().find(|name| !known.contains(&name.as_str())) {
        bail!("no shape `{unknown}`; the shapes: {}", known.join(", "));
    }
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let without_rollbacks = lines.without_rollbacks();
    for (name, shape, real_rollbacks) in shapes {
        if !only.is_empty() && !only.iter().any(|wanted| wanted == name) {
            continue;
        }
        let path: PathBuf = dir.join(format!("{name}-{mib}mib.jsonl"));
        let source = if real_rollbacks {
            &lines
        } else {
            &without_rollbacks
        };
        let written = generate::write_rollout(&path, source, &shape)
            .with_context(|| format!("writing {}", path.display()))?;
        println!(
            "{}\t{} bytes\t{} lines",
            path.display(),
            written.bytes,
            written.lines
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shape is written at its size, with what makes it hard: a torn last line, the
    /// compactions and rollbacks it names. Without the real fixtures the command fails loudly.
    #[test]
    fn writes_every_shape_with_its_marks() -> Result<()> {
        if generate::real_lines().is_none() {
            assert!(run(Path::new("unused"), 1, &[]).is_err());
            return Ok(());
        }
        let dir = tempfile::tempdir()?;
        run(dir.path(), 1, &[])?;
        for (name, shape, _) in generate::named_shapes(1 << 20) {
            let path = dir.path().join(format!("{name}-1mib.jsonl"));
            let bytes = std::fs::read(&path)?;
            assert!(bytes.len() as u64 >= shape.bytes, "{name}");
            assert_eq!(bytes.last() != Some(&b'\n'), shape.torn_last_line, "{name}");
            let text = String::from_utf8_lossy(&bytes);
            let compactions = text.matches(r#""type":"compacted""#).count();
            assert!(compactions >= shape.compactions.len(), "{name}");
            let generated = text.matches("generated compaction").count();
            let expected = if shape.real_compactions {
                0
            } else {
                shape.compactions.len()
            };
            assert_eq!(generated, expected, "{name}");
        }
        assert!(run(dir.path(), 1, &["no-such-shape".to_owned()]).is_err());
        Ok(())
    }
}
