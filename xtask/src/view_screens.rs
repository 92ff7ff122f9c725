//! tmux for the terminal UI tests, and `cargo xtask view-screens`: the captured screens of
//! `docs/view.md`, regenerated.
//!
//! `cargo xtask ci` makes sure tmux is there ([`ensure_tmux`], installing it with apt-get when
//! it is missing): the tests in `cli/tests/it/view_tmux.rs` fail without it, never skip.
//! `view-screens` builds `codex-thread`, drives `codex-thread view` in a detached tmux session
//! of a fixed size (the bundled sample for the thread screens, a home made of the real
//! fixtures for the list and the search) and writes each screen as text into
//! `docs/view.md`, between the markers of each screen.

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, Result, bail};
use codex_test_support::{Tmux, tmux_bin};

/// The tmux binary, installed with apt-get first when it is missing.
pub(crate) fn ensure_tmux() -> Result<PathBuf> {
    if let Ok(path) = tmux_bin() {
        return Ok(path);
    }
    crate::ci::banner("tmux: apt-get install -y tmux (the terminal UI tests need it)");
    let installed = Command::new("apt-get")
        .args(["install", "-y", "--no-install-recommends", "tmux"])
        .env("DEBIAN_FRONTEND", "noninteractive")
        .status();
    match (installed, tmux_bin()) {
        (Ok(status), Ok(path)) if status.success() => Ok(path),
        (Ok(status), _) => bail!(
            "could not install tmux (apt-get install tmux: {status}); the terminal UI tests \
             (cli/tests/it/view_tmux.rs) need it: install it as root"
        ),
        (Err(err), _) => bail!(
            "could not run apt-get to install tmux ({err}); the terminal UI tests \
             (cli/tests/it/view_tmux.rs) need it: install it"
        ),
    }
}

/// One captured screen: its marker name in `docs/view.md` and how to reach it.
struct Screen {
    name: &'static str,
    /// Arguments of `codex-thread view` (`{sample}`, `{home}` and `{index}` replaced).
    args: &'static [&'static str],
    /// Keys sent, each then waited for: (keys, text the screen shows when ready).
    steps: &'static [(&'static [&'static str], &'static str)],
}

const SCREENS: &[Screen] = &[
    Screen {
        name: "list",
        args: &["--home", "{home}", "--index", "{index}"],
        steps: &[(&[], "live session(s)")],
    },
    Screen {
        name: "search",
        args: &["--home", "{home}", "--index", "{index}"],
        steps: &[
            (&[], "live session(s)"),
            (&["/", "-l:implementation", "Enter"], "hit(s)"),
        ],
    },
    Screen {
        name: "thread",
        args: &["{sample}"],
        steps: &[(&[], "thread 0197a2c4")],
    },
    Screen {
        name: "unfolded",
        args: &["{sample}"],
        steps: &[
            (&[], "thread 0197a2c4"),
            (&["j", "Enter", "j", "Enter"], "│ README.md"),
        ],
    },
    Screen {
        name: "end",
        args: &["{sample}"],
        steps: &[(&[], "thread 0197a2c4"), (&["G"], "turn 4 completed")],
    },
    Screen {
        name: "help",
        args: &["{sample}"],
        steps: &[
            (&[], "thread 0197a2c4"),
            (&["?"], "codex-thread view: keys"),
        ],
    },
];

/// Regenerates the screens of `docs/view.md`.
pub(crate) fn run() -> Result<()> {
    ensure_tmux()?;
    let root = crate::ci::workspace_root()?;
    let status = Command::new("cargo")
        .args(["build", "-p", "codex-thread", "--bin", "codex-thread"])
        .current_dir(&root)
        .status()
        .context("could not start cargo build")?;
    if !status.success() {
        bail!("cargo build -p codex-thread failed ({status})");
    }
    let binary = root.join("target/debug/codex-thread");
    let fixtures = root.join("../shared/fixtures/real");
    if !fixtures.is_dir() {
        bail!("no real fixtures at {} (see README.md)", fixtures.display());
    }
    let scratch = tempfile::tempdir()?;
    let home = scratch.path().join("home");
    place_fixtures(&fixtures, &home)?;
    let index = scratch.path().join("index.sqlite");
    let sample = root.join("cli/sample/session.jsonl");
    let doc_path = root.join("docs/view.md");
    let mut doc = std::fs::read_to_string(&doc_path)
        .with_context(|| format!("cannot read {}", doc_path.display()))?;
    for screen in SCREENS {
        let args: Vec<String> = screen
            .args
            .iter()
            .map(|arg| {
                arg.replace("{home}", &home.display().to_string())
                    .replace("{index}", &index.display().to_string())
                    .replace("{sample}", &sample.display().to_string())
            })
            .collect();
        let mut argv: Vec<&OsStr> = vec![OsStr::new("view")];
        argv.extend(args.iter().map(OsStr::new));
        let tmux = Tmux::start(
            100,
            28,
            &[("CODEX_HOME", home.as_os_str())],
            binary.as_os_str(),
            &argv,
        )
        .map_err(anyhow::Error::from)?;
        for (keys, ready) in screen.steps {
            for key in *keys {
                match key.strip_prefix("-l:") {
                    Some(text) => tmux.type_text(text)?,
                    None => tmux.keys(&[key])?,
                }
            }
            tmux.wait_for_text(ready)?;
        }
        // One more moment for the last redraw, then the screen.
        std::thread::sleep(std::time::Duration::from_millis(300));
        let captured = tmux.capture()?;
        doc = replace_screen(&doc, screen.name, &captured)?;
        crate::ci::banner(&format!("captured {}", screen.name));
    }
    std::fs::write(&doc_path, doc)?;
    crate::ci::banner(&format!("wrote {}", doc_path.display()));
    Ok(())
}

/// `doc` with the block between `<!-- screen:NAME -->` and `<!-- /screen -->` replaced.
fn replace_screen(doc: &str, name: &str, captured: &str) -> Result<String> {
    let open = format!("<!-- screen:{name} -->\n");
    let close = "<!-- /screen -->";
    let start = doc
        .find(&open)
        .with_context(|| format!("docs/view.md has no marker {open:?}"))?
        + open.len();
    let end = doc[start..]
        .find(close)
        .with_context(|| format!("docs/view.md: marker {name} is not closed"))?
        + start;
    let body: Vec<&str> = captured.lines().map(str::trim_end).collect();
    let block = format!("```text\n{}\n```\n", body.join("\n").trim_end());
    Ok(format!("{}{block}{}", &doc[..start], &doc[end..]))
}

/// Copies each real fixture with a rollout name into `home/sessions/YYYY/MM/DD/`.
fn place_fixtures(fixtures: &Path, home: &Path) -> Result<()> {
    for entry in std::fs::read_dir(fixtures)? {
        let path = entry?.path();
        let Some(name) = path.file_name().and_then(|name| name.to_str()) else {
            continue;
        };
        let Some(at) = name.find("rollout-") else {
            continue;
        };
        let rollout = &name[at..];
        let Some(date) = rollout.get(8..18) else {
            continue;
        };
        if !date
            .bytes()
            .all(|byte| byte.is_ascii_digit() || byte == b'-')
        {
            continue;
        }
        let day = home.join("sessions").join(date.replace('-', "/"));
        std::fs::create_dir_all(&day)?;
        std::fs::copy(&path, day.join(rollout))?;
    }
    Ok(())
}
