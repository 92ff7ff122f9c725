//! The one write Codex makes to a placed file when it registers it: resuming a paginated
//! thread that an older release wrote (0.151 to 0.159, seen with Codex 0.171), it appends a
//! `thread_settings_applied` event recording the settings it resumes with, and nothing else.
//! The file's own bytes stay whole before it, so the copy still holds everything its source
//! does: an import accepts that line where the file was placed, and a later import finds the
//! file already there. The digests that hold placed bytes to what they were live here.

use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::Path;

use codex_protocol::event::EventMsg;
use codex_protocol::rollout::{RolloutItem, parse_rollout_line};

/// The digest of the first `len` bytes of the file at `path`, for [`settings_appended_after`].
pub(super) fn digest_of_prefix(path: &Path, len: u64) -> io::Result<[u8; 32]> {
    digest(File::open(path)?.take(len))
}

/// Whether the file at `path` holds bytes whose digest is `prefix` (`prefix_len` of them),
/// followed by nothing but whole `thread_settings_applied` lines, at least one.
pub(super) fn settings_appended_after(
    path: &Path,
    prefix_len: u64,
    prefix: &[u8; 32],
) -> io::Result<bool> {
    let file = File::open(path)?;
    if file.metadata()?.len() <= prefix_len {
        return Ok(false);
    }
    let mut reader = BufReader::new(file);
    if digest((&mut reader).take(prefix_len))? != *prefix {
        return Ok(false);
    }
    only_settings_lines(reader)
}

/// Whether the file at `grown` is the file at `original` followed only by
/// `thread_settings_applied` lines.
pub(super) fn grown_by_settings(original: &Path, grown: &Path) -> io::Result<bool> {
    let len = std::fs::metadata(original)?.len();
    settings_appended_after(grown, len, &digest_of_prefix(original, len)?)
}

/// The SHA-256 of what `reader` reads.
pub(super) fn digest(mut reader: impl io::Read) -> io::Result<[u8; 32]> {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    let mut buffer = vec![0u8; 1 << 16];
    loop {
        match reader.read(&mut buffer)? {
            0 => return Ok(hasher.finalize().into()),
            read => hasher.update(&buffer[..read]),
        }
    }
}

/// Whether what `reader` has left is one or more whole lines, each a `thread_settings_applied`
/// event.
fn only_settings_lines(mut reader: impl BufRead) -> io::Result<bool> {
    let mut line = Vec::new();
    let mut lines = 0;
    loop {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            return Ok(lines > 0);
        }
        let Some(text) = line.strip_suffix(b"\n") else {
            return Ok(false);
        };
        let applies_settings = parse_rollout_line(text).is_ok_and(|parsed| {
            matches!(
                parsed.item(),
                Some(RolloutItem::EventMsg(EventMsg::ThreadSettingsApplied(_)))
            )
        });
        if !applies_settings {
            return Ok(false);
        }
        lines += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const META: &str = r#"{"timestamp":"2026-09-01T00:00:00.000Z","ordinal":0,"type":"session_meta","payload":{"id":"0199a2c4-5e00-7c3a-9d41-2f6b8e1c0a01","timestamp":"2026-09-01T00:00:00.000Z","cwd":"/w","originator":"codex_exec","cli_version":"0.159.0","history_mode":"paginated"}}"#;
    const SETTINGS: &str = r#"{"timestamp":"2026-12-05T02:01:36.118Z","ordinal":1,"type":"event_msg","payload":{"type":"thread_settings_applied","thread_id":"0199a2c4-5e00-7c3a-9d41-2f6b8e1c0a01","thread_settings":{"model":"gpt-5.5","model_provider_id":"mock"}}}"#;
    const MESSAGE: &str = r#"{"timestamp":"2026-12-05T02:01:36.118Z","ordinal":1,"type":"event_msg","payload":{"type":"agent_message","message":"hi"}}"#;

    #[test]
    fn only_whole_settings_lines_after_the_untouched_bytes_count() -> io::Result<()> {
        let dir = tempfile::tempdir()?;
        let original = dir.path().join("original.jsonl");
        std::fs::write(&original, format!("{META}\n"))?;
        let cases = [
            (format!("{META}\n{SETTINGS}\n"), true),
            (format!("{META}\n{SETTINGS}\n{SETTINGS}\n"), true),
            (format!("{META}\n"), false),
            (format!("{META}\n{MESSAGE}\n"), false),
            (format!("{META}\n{SETTINGS}"), false),
            (
                format!("{}\n{SETTINGS}\n", META.replace("0.159.0", "0.159.1")),
                false,
            ),
        ];
        for (index, (text, expected)) in cases.into_iter().enumerate() {
            let grown = dir.path().join(format!("grown-{index}.jsonl"));
            std::fs::write(&grown, text)?;
            assert_eq!(
                grown_by_settings(&original, &grown)?,
                expected,
                "case {index}"
            );
        }
        Ok(())
    }
}
