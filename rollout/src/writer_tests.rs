use std::io::{ErrorKind, Write};

use pretty_assertions::assert_eq;

use super::*;

/// Accepts at most `chunk` bytes per call and fails once `budget` bytes have been taken.
struct FlakyWriter {
    taken: Vec<u8>,
    chunk: usize,
    budget: usize,
}

impl Write for FlakyWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let room = self.budget - self.taken.len();
        if room == 0 {
            return Err(std::io::Error::new(ErrorKind::StorageFull, "disk full"));
        }
        let n = buf.len().min(self.chunk).min(room);
        self.taken.extend_from_slice(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn a_failed_write_keeps_exactly_the_unwritten_bytes_even_mid_line() {
    let lines = b"{\"line\":1}\n{\"line\":2}\n{\"line\":3}\n".to_vec();
    let mut pending = lines.clone();
    // The disk fills up in the middle of the second line.
    let mut out = FlakyWriter {
        taken: Vec::new(),
        chunk: 4,
        budget: 15,
    };
    let err = drain_into(&mut pending, &mut out).err();
    assert_eq!(err.map(|e| e.kind()), Some(ErrorKind::StorageFull));
    assert_eq!(out.taken, lines[..15].to_vec());
    assert_eq!(pending, lines[15..].to_vec());

    // Space is freed: the retry continues at the exact byte; nothing doubled, nothing torn.
    out.budget = usize::MAX;
    assert!(drain_into(&mut pending, &mut out).is_ok());
    assert!(pending.is_empty());
    assert_eq!(out.taken, lines);
}

#[test]
fn a_writer_that_accepts_nothing_is_an_error_not_a_loop() {
    let mut pending = b"x\n".to_vec();
    let mut out = FlakyWriter {
        taken: Vec::new(),
        chunk: 0,
        budget: usize::MAX,
    };
    let err = drain_into(&mut pending, &mut out).err();
    assert_eq!(err.map(|e| e.kind()), Some(ErrorKind::WriteZero));
    assert_eq!(pending, b"x\n".to_vec());
}

/// A real device that always fails writes (`ENOSPC`): the file is "materialized" but every
/// write fails; the error is returned and nothing is lost. Pointing the state at a writable
/// path then delivers header and items in order.
#[test]
fn a_full_device_reports_and_keeps_everything_for_the_next_pass()
-> Result<(), Box<dyn std::error::Error>> {
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        return Ok(());
    }
    let mut state = WriterState::deferred(full.to_path_buf(), b"{\"meta\":1}\n".to_vec());
    state.pending = b"{\"item\":1}\n".to_vec();
    let err = state.write_with_recovery(Create::Always).err();
    assert!(
        matches!(
            err,
            Some(RolloutError::Io {
                action: "write rollout file",
                ..
            })
        ),
        "{err:?}"
    );
    assert_eq!(state.pending, b"{\"meta\":1}\n{\"item\":1}\n".to_vec());

    let tmp = tempfile::tempdir()?;
    state.path = tmp.path().join("rollout.jsonl");
    state.file = None;
    state.write_with_recovery(Create::IfPending)?;
    assert_eq!(
        std::fs::read(&state.path)?,
        b"{\"meta\":1}\n{\"item\":1}\n".to_vec()
    );
    Ok(())
}
