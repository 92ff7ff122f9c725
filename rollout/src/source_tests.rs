use std::io::{self, Read};

use pretty_assertions::assert_eq;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

const TEXT: &[u8] = b"{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n";

/// Each chunk compressed as a frame of its own, the frames concatenated.
fn frames(chunks: &[&[u8]]) -> io::Result<Vec<u8>> {
    let mut out = Vec::new();
    for chunk in chunks {
        out.extend(zstd::encode_all(*chunk, 3)?);
    }
    Ok(out)
}

/// A reader that hands out one byte per call, like a slow pipe.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match (self.0.split_first(), buf.first_mut()) {
            (Some((byte, rest)), Some(slot)) => {
                *slot = *byte;
                self.0 = rest;
                Ok(1)
            }
            _ => Ok(0),
        }
    }
}

/// A reader that fails with `kind` once its bytes are used up.
struct FailsAfter<'a>(&'a [u8], io::ErrorKind);

impl Read for FailsAfter<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.0.is_empty() {
            return Err(io::Error::new(self.1, "the disk went away"));
        }
        let n = buf.len().min(self.0.len());
        buf[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

/// Reads `input` whole and checks the result: the decoded bytes, the storage, and the
/// damage's reason when there is one.
#[track_caller]
fn check(input: &[u8], bytes: &[u8], compression: Compression, damage: Option<&str>) {
    let decoded = read_rollout(input).unwrap_or_else(|err| panic!("read failed: {err}"));
    assert_eq!(decoded.bytes, bytes);
    assert_eq!(decoded.compression, compression);
    assert_eq!(
        decoded.damage.as_ref().map(|damage| damage.reason.as_str()),
        damage
    );
    if let Some(damage) = &decoded.damage {
        assert_eq!(damage.decoded_bytes, bytes.len() as u64);
    }
    // Memory, a one-byte-at-a-time pipe and the streaming reader agree.
    assert_eq!(decode_in_memory(input.to_vec()), decoded);
    let trickled = read_rollout(Trickle(input)).unwrap_or_else(|err| panic!("{err}"));
    assert_eq!(trickled, decoded);
}

#[test]
fn the_magic_number_decides() {
    assert_eq!(Compression::of_head(&ZSTD_MAGIC), Compression::Zstd);
    assert_eq!(
        Compression::of_head(b"\x28\xb5\x2f\xfd\x00"),
        Compression::Zstd
    );
    // A file cut inside the magic number is a truncated zstd file.
    assert_eq!(Compression::of_head(b"\x28\xb5"), Compression::Zstd);
    for plain in [&b""[..], b"{", b"{\"a\"", b"\x28\xb5\x2f\x00", b"\x28{"] {
        assert_eq!(Compression::of_head(plain), Compression::Plain, "{plain:?}");
    }
}

#[test]
fn plain_input_passes_through_unchanged() {
    check(TEXT, TEXT, Compression::Plain, None);
    check(b"{}", b"{}", Compression::Plain, None);
    check(b"", b"", Compression::Plain, None);
    // Not JSON, still plain: the loader reports its lines, the reader does not judge them.
    check(b"\xff\xfe\x00", b"\xff\xfe\x00", Compression::Plain, None);
}

#[test]
fn one_frame_and_several_frames_decode_to_the_same_bytes() -> TestResult {
    check(&frames(&[TEXT])?, TEXT, Compression::Zstd, None);
    let (first, rest) = TEXT.split_at(5);
    let (second, third) = rest.split_at(9);
    check(
        &frames(&[first, second, b"", third])?,
        TEXT,
        Compression::Zstd,
        None,
    );
    check(&frames(&[b""])?, b"", Compression::Zstd, None);
    Ok(())
}

#[test]
fn a_truncated_stream_keeps_what_was_decoded_and_says_why() -> TestResult {
    let (first, second) = TEXT.split_at(8);
    let whole = frames(&[first, second])?;
    let first_frame = zstd::encode_all(first, 3)?.len();
    let truncated = "the file ends inside a zstd frame (truncated)";
    // Cut inside the second frame: the first frame's bytes survive.
    check(
        &whole[..first_frame + 3],
        first,
        Compression::Zstd,
        Some(truncated),
    );
    // Cut inside the first frame's header, and inside the magic number itself.
    check(&whole[..5], b"", Compression::Zstd, Some(truncated));
    check(&whole[..2], b"", Compression::Zstd, Some(truncated));
    // Cut exactly between frames: a valid stream of one frame.
    check(&whole[..first_frame], first, Compression::Zstd, None);
    Ok(())
}

#[test]
fn garbage_after_a_frame_is_damage_after_the_frame() -> TestResult {
    let mut input = frames(&[TEXT])?;
    input.extend_from_slice(b"not a frame\n");
    let decoded = read_rollout(&input[..])?;
    assert_eq!(decoded.bytes, TEXT);
    let damage = decoded.damage.ok_or("no damage")?;
    assert_eq!(damage.decoded_bytes, TEXT.len() as u64);
    assert!(!damage.reason.is_empty());
    assert!(damage.to_string().starts_with(&format!(
        "the zstd stream is damaged after {} decoded byte(s): ",
        TEXT.len()
    )));
    Ok(())
}

#[test]
fn the_reader_keeps_reporting_the_damage() -> TestResult {
    let whole = frames(&[TEXT])?;
    let mut reader = RolloutReader::new(&whole[..whole.len() - 2])?;
    assert_eq!(reader.compression(), Compression::Zstd);
    let mut out = Vec::new();
    let first = reader.read_to_end(&mut out).err().ok_or("no error")?;
    let again = reader.read(&mut [0; 16]).err().ok_or("no error")?;
    assert_eq!(first.kind(), io::ErrorKind::InvalidData);
    assert_eq!(
        StreamDamage::of_io_error(&first),
        StreamDamage::of_io_error(&again)
    );
    assert!(StreamDamage::of_io_error(&first).is_some());
    Ok(())
}

#[test]
fn errors_of_the_reader_underneath_are_not_damage() -> TestResult {
    let compressed = frames(&[TEXT])?;
    for input in [&compressed[..compressed.len() / 2], TEXT] {
        let error = read_rollout(FailsAfter(input, io::ErrorKind::PermissionDenied))
            .err()
            .ok_or("no error")?;
        assert_eq!(error.kind(), io::ErrorKind::PermissionDenied);
        assert!(StreamDamage::of_io_error(&error).is_none());
    }
    // Failing before the magic number is read is the same.
    let error = RolloutReader::new(FailsAfter(b"", io::ErrorKind::BrokenPipe))
        .err()
        .ok_or("no error")?;
    assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
    Ok(())
}

#[test]
fn files_are_opened_by_content_not_by_name() -> TestResult {
    let dir = tempfile::tempdir()?;
    let misnamed = dir.path().join("plain-bytes.jsonl.zst");
    std::fs::write(&misnamed, TEXT)?;
    let compressed = dir.path().join("compressed-bytes.jsonl");
    std::fs::write(&compressed, frames(&[TEXT, TEXT])?)?;
    let plain = read_rollout_file(&misnamed)?;
    assert_eq!(
        (plain.bytes, plain.compression),
        (TEXT.to_vec(), Compression::Plain)
    );
    let decoded = read_rollout_file(&compressed)?;
    assert_eq!(decoded.bytes, [TEXT, TEXT].concat());
    assert_eq!(decoded.compression, Compression::Zstd);
    let mut streamed = String::new();
    open_rollout(&compressed)?.read_to_string(&mut streamed)?;
    assert_eq!(streamed.lines().count(), 6);
    let missing = read_rollout_file(&dir.path().join("missing.jsonl"));
    assert_eq!(
        missing.err().map(|err| err.kind()),
        Some(io::ErrorKind::NotFound)
    );
    Ok(())
}
