//! The fresh Cargo project: a downstream crate that depends on `codex-rollout` and
//! `codex-protocol` as crates.io would deliver them, the `.crate` files `cargo package` just
//! wrote, unpacked (a `[patch.crates-io]` stands in for the registry, so every dependency
//! between our crates resolves through the packaged manifests, not through this workspace).
//! Its `main.rs` is `rollout/README.md`'s example, taken from the README, so the example a
//! user copies is the one that runs; it runs on real session files and must report the user
//! turns `codex-thread inspect` reports.

use std::path::Path;

use anyhow::{Context, Result, bail, ensure};

use super::{crate_file, fixtures, run_captured, target_dir};
use crate::log;

/// The packaged crates the example needs, directly or through `codex-rollout`.
const NEEDED: &[&str] = &["codex-protocol", "codex-core", "codex-rollout"];

/// Builds the project in `dir` (created) and runs the README example on every session file.
pub(super) fn run(root: &Path, dir: &Path) -> Result<()> {
    let crates = dir.join("crates");
    std::fs::create_dir_all(dir.join("src"))
        .with_context(|| format!("creating {}", dir.display()))?;
    std::fs::create_dir_all(&crates).with_context(|| format!("creating {}", crates.display()))?;
    let mut patches = String::new();
    for name in NEEDED {
        let file = crate_file(root, name).to_string_lossy().into_owned();
        let into = crates.to_string_lossy().into_owned();
        run_captured(dir, "tar", &["-xzf", &file, "-C", &into])?;
        let unpacked = crates.join(format!("{name}-{}", crate::codegen::npm::VERSION));
        ensure!(
            unpacked.join("Cargo.toml").is_file(),
            "{file} did not unpack into {}",
            unpacked.display()
        );
        patches.push_str(&format!(
            "{name} = {{ path = {:?} }}\n",
            unpacked.to_string_lossy()
        ));
    }
    let version = crate::codegen::npm::VERSION;
    let manifest = format!(
        "[package]\nname = \"readme-example\"\nversion = \"0.0.0\"\nedition = \"2024\"\n\
         publish = false\n\n[dependencies]\ncodex-rollout = \"{version}\"\n\
         codex-protocol = \"{version}\"\n\n[patch.crates-io]\n{patches}\n[workspace]\n"
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).context("writing Cargo.toml")?;
    // Pin third-party versions to the workspace's lock, so the build reuses what CI built.
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).context("copying Cargo.lock")?;
    let readme = std::fs::read_to_string(root.join("rollout/README.md"))
        .context("reading rollout/README.md")?;
    std::fs::write(dir.join("src/main.rs"), readme_example(&readme)?)
        .context("writing src/main.rs")?;

    let target = target_dir(root).to_string_lossy().into_owned();
    let codex_thread = fixtures::codex_thread(root)?.to_string_lossy().into_owned();
    for session in fixtures::sessions(root)? {
        let session = session.to_string_lossy().into_owned();
        let args = ["run", "--quiet", "--target-dir", &target, "--", &session];
        let output = run_captured(dir, "cargo", &args)?;
        let turns = output
            .lines()
            .find_map(|line| line.strip_prefix("user turns: "))
            .with_context(|| format!("the example printed no `user turns:` line for {session}"))?;
        let inspect = run_captured(root, &codex_thread, &["--json", "inspect", &session]);
        // `inspect` exits 1 when a file has content problems; its JSON is printed all the same.
        let inspect = match inspect {
            Ok(text) => text,
            Err(error) => {
                inspect_output_despite_problems(root, &codex_thread, &session).ok_or(error)?
            }
        };
        let value: serde_json::Value =
            serde_json::from_str(&inspect).context("inspect --json is not JSON")?;
        let expected = value["user_messages"].to_string();
        if turns != expected {
            bail!(
                "{session}: the README example found {turns} user turns, codex-thread inspect {expected}"
            );
        }
        let name = Path::new(&session)
            .file_name()
            .map_or_else(|| session.clone(), |n| n.to_string_lossy().into_owned());
        log(&format!(
            "{name}: README example ran, {turns} user turns (inspect agrees)"
        ));
    }
    Ok(())
}

/// The first ```` ```rust ```` block of a README (the program the README shows).
pub(super) fn readme_example(readme: &str) -> Result<String> {
    let mut lines = readme.lines();
    lines
        .by_ref()
        .find(|line| line.starts_with("```rust"))
        .context("the README has no rust code block")?;
    let mut code = String::new();
    for line in lines {
        if line.starts_with("```") {
            return Ok(code);
        }
        code.push_str(line);
        code.push('\n');
    }
    bail!("the README's rust code block is not closed")
}

fn inspect_output_despite_problems(root: &Path, binary: &str, session: &str) -> Option<String> {
    let output = std::process::Command::new(binary)
        .args(["--json", "inspect", session])
        .current_dir(root)
        .output()
        .ok()?;
    (output.status.code() == Some(1)).then(|| String::from_utf8_lossy(&output.stdout).into_owned())
}
