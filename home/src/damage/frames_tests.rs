use std::io::Cursor;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn a_whole_stream_is_whole_and_every_cut_of_it_is_not() -> TestResult {
    let text: String = (0..3000)
        .map(|index| {
            format!(
                "{{\"line\":{index},\"text\":\"{}\"}}\n",
                "x".repeat(index % 97)
            )
        })
        .collect();
    for level in [1, 19] {
        let mut compressed = zstd::encode_all(text.as_bytes(), level)?;
        assert!(frames_whole(Cursor::new(&compressed))?);
        for cut in [1, 4, 5, 9, compressed.len() / 3, compressed.len() - 1] {
            assert!(
                !frames_whole(Cursor::new(&compressed[..cut]))?,
                "cut at {cut}"
            );
        }
        // Two frames, as an appending writer leaves them, are whole; garbage after is not.
        let second = zstd::encode_all(&b"{}\n"[..], level)?;
        compressed.extend_from_slice(&second);
        assert!(frames_whole(Cursor::new(&compressed))?);
        compressed.extend_from_slice(b"\0\0\0\0");
        assert!(!frames_whole(Cursor::new(&compressed))?);
    }
    assert!(!frames_whole(Cursor::new(&b""[..]))?);
    Ok(())
}
