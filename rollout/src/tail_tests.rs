#![allow(clippy::unwrap_used)]

use pretty_assertions::assert_eq;

use super::reverse::ReverseLines;

fn backwards(bytes: &[u8]) -> Vec<(u64, Vec<u8>)> {
    let mut lines = ReverseLines::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut out = Vec::new();
    while let Some((offset, line)) = lines.prev_line().unwrap() {
        out.push((offset, line.to_vec()));
    }
    out
}

fn forwards(bytes: &[u8]) -> Vec<(u64, Vec<u8>)> {
    let mut lines: Vec<(u64, Vec<u8>)> = crate::load::lines::line_ranges(bytes)
        .map(|(_, range)| (range.start as u64, bytes[range].to_vec()))
        .collect();
    lines.reverse();
    lines
}

#[test]
fn reads_the_lines_of_the_loader_backwards() {
    for bytes in [
        &b""[..],
        b"\n",
        b"\n\n",
        b"a",
        b"a\n",
        b"a\nb",
        b"a\nb\n",
        b"\nabc\n\nd\r\n",
        b"{\"x\":1}\n{\"torn",
    ] {
        assert_eq!(
            backwards(bytes),
            forwards(bytes),
            "{:?}",
            String::from_utf8_lossy(bytes)
        );
    }
}

#[test]
fn reads_lines_longer_than_a_block_and_many_blocks() {
    let mut bytes = Vec::new();
    for index in 0..3000 {
        let len = if index % 1000 == 7 {
            3 * 1024 * 1024
        } else {
            index % 900
        };
        bytes.extend(std::iter::repeat_n(b'a' + (index % 26) as u8, len));
        bytes.push(b'\n');
    }
    bytes.extend_from_slice(b"last without newline");
    assert_eq!(backwards(&bytes), forwards(&bytes));
}
