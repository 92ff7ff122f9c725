//! What the `view` tests share: a hostile session (terminal escapes, a huge line, deep
//! nesting) made from the bundled sample.

use std::path::{Path, PathBuf};

use std::io::Read;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

type Failure = Box<dyn std::error::Error>;

/// How long a follow test waits for output.
pub(crate) const WAIT: Duration = Duration::from_secs(60);

/// The bundled sample session.
pub(crate) const SAMPLE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/sample/session.jsonl");

/// A line longer than any screen.
pub(crate) const HUGE_LINE_CHARS: usize = 200_000;

/// The sample with hostile text put into its items: the first user message carries a
/// clear-screen, a window-title OSC and a bidi override; the first command's output colour
/// codes, an OSC 52 clipboard write, a carriage return and a 200,000-character line; the first
/// agent message 2,000 nested quotes and lists.
pub(crate) fn hostile_session() -> Result<String, Failure> {
    let mut out = String::new();
    let mut seen = std::collections::HashSet::new();
    for line in std::fs::read_to_string(SAMPLE)?.lines() {
        let mut value: Value = serde_json::from_str(line)?;
        if let Some(item) = value.pointer_mut("/payload/item") {
            let kind = item["type"].as_str().unwrap_or_default().to_owned();
            if seen.insert(kind.clone()) {
                match kind.as_str() {
                    "UserMessage" => {
                        item["content"][0]["text"] = Value::from(
                            "clear \u{1b}[2J\u{1b}[H title \u{1b}]0;pwned\u{7} bidi \u{202e}txt.exe",
                        );
                    }
                    "CommandExecution" => {
                        item["aggregated_output"] = Value::from(format!(
                            "\u{1b}[31mred\u{1b}[0m\n\u{1b}]52;c;cHduZWQ=\u{7}clip\nover\rwrite\n{}\n",
                            "x".repeat(HUGE_LINE_CHARS)
                        ));
                    }
                    "AgentMessage" => {
                        let nested = format!("{}deep", "> - ".repeat(2000));
                        item["content"][0]["text"] =
                            Value::from(format!("{nested}\n\n```sh\necho \u{1b}[5mblink\n```\n"));
                    }
                    _ => {}
                }
            }
        }
        out.push_str(&serde_json::to_string(&value)?);
        out.push('\n');
    }
    Ok(out)
}

/// Writes [`hostile_session`] into `dir`; its path.
pub(crate) fn write_hostile(dir: &Path) -> Result<PathBuf, Failure> {
    let path = dir.join("rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl");
    std::fs::write(&path, hostile_session()?)?;
    Ok(path)
}

/// A child whose standard output is gathered as it comes; killed on drop.
pub(crate) struct Follow {
    child: Child,
    output: Arc<Mutex<String>>,
}

impl Follow {
    pub(crate) fn start(file: &std::path::Path) -> Result<Follow, Failure> {
        let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("codex-thread"))
            .args(["view", "--follow", "--poll-ms", "50"])
            .arg(file)
            .env_remove("CODEX_HOME")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()?;
        let mut stdout = child.stdout.take().ok_or("no stdout")?;
        let output = Arc::new(Mutex::new(String::new()));
        let sink = Arc::clone(&output);
        std::thread::spawn(move || {
            let mut buffer = [0u8; 8192];
            while let Ok(read) = stdout.read(&mut buffer) {
                if read == 0 {
                    break;
                }
                if let Ok(mut text) = sink.lock() {
                    text.push_str(&String::from_utf8_lossy(&buffer[..read]));
                }
            }
        });
        Ok(Follow { child, output })
    }

    pub(crate) fn text(&self) -> String {
        self.output
            .lock()
            .map(|text| text.clone())
            .unwrap_or_default()
    }

    pub(crate) fn wait_for(
        &self,
        what: &str,
        ready: impl Fn(&str) -> bool,
    ) -> Result<String, Failure> {
        let start = Instant::now();
        loop {
            let text = self.text();
            if ready(&text) {
                return Ok(text);
            }
            if start.elapsed() > WAIT {
                return Err(format!("follow output never showed {what}:\n{text}").into());
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for Follow {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A session of at least `bytes` bytes in `dir`: the sample's session meta, then its first
/// turn again and again (`turn-N`, and the question numbered N); its path and turn count.
pub(crate) fn write_large(dir: &Path, bytes: usize) -> Result<(PathBuf, usize), Failure> {
    let sample = std::fs::read_to_string(SAMPLE)?;
    let lines: Vec<&str> = sample.lines().collect();
    let (meta, block) = (lines[0], &lines[1..22]);
    let mut out = String::with_capacity(bytes + 16 * 1024);
    out.push_str(meta);
    out.push('\n');
    let mut turns = 0;
    while out.len() < bytes {
        turns += 1;
        for line in block {
            out.push_str(&line.replace("turn-1", &format!("turn-{turns}")).replace(
                "What does this project build with?",
                &format!("Question {turns}: what does this project build with?"),
            ));
            out.push('\n');
        }
    }
    let path = dir.join("rollout-2025-06-02T09-00-00-0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55.jsonl");
    std::fs::write(&path, out)?;
    Ok((path, turns))
}
