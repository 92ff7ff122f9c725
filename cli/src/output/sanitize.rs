//! Making file contents safe to print on a terminal.
//!
//! Session files hold whatever a model, a tool or a person produced: command output with ANSI
//! colour codes, a stray `ESC ] 52` that would write the clipboard, a carriage return that
//! overwrites the line before it, a right-to-left override that reorders what a reader sees.
//! Printed raw, any of these lets a file drive the reader's terminal. So every character a
//! terminal may interpret is replaced by a visible escape before it is printed:
//! - C0 controls except newline and tab, DEL, and C1 controls (U+0080 to U+009F, which some
//!   terminals accept as 8-bit escape introducers);
//! - the bidirectional formatting characters (U+202A to U+202E, U+2066 to U+2069).
//!
//! Human text gets Rust-like escapes (`\x1b`, `\u{202e}`); JSON text gets JSON escapes
//! (`\u001b`), so it stays valid JSON that decodes to the original string.

use std::borrow::Cow;
use std::io::{self, Write};

/// True for a character a terminal may act on (see the module docs). Newline and tab are not.
pub(crate) fn is_terminal_control(c: char) -> bool {
    match c {
        '\n' | '\t' => false,
        '\u{0}'..='\u{1f}' | '\u{7f}'..='\u{9f}' => true,
        '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' => true,
        _ => false,
    }
}

/// `text` with every terminal control replaced by a visible escape (`\x1b`, `\r`,
/// `\u{202e}`). Borrowed when nothing needed escaping.
pub(crate) fn sanitize_text(text: &str) -> Cow<'_, str> {
    escape_with(text, |c, out| match c {
        '\r' => out.push_str("\\r"),
        c if u32::from(c) <= 0xff => out.push_str(&format!("\\x{:02x}", u32::from(c))),
        c => out.push_str(&format!("\\u{{{:x}}}", u32::from(c))),
    })
}

/// Serialized JSON with the terminal controls that JSON allows raw (DEL, C1, bidi) replaced
/// by `\uXXXX` escapes; the C0 controls are escaped by every JSON serializer already. Only
/// valid inside JSON text: these characters can only occur inside strings there.
pub(crate) fn escape_json_text(json: &str) -> Cow<'_, str> {
    escape_with(json, |c, out| {
        out.push_str(&format!("\\u{:04x}", u32::from(c)));
    })
}

/// A writer of serialized JSON that escapes as [`escape_json_text`] does on the way through,
/// so a large document is written as it is serialized instead of being held as a string
/// first. Writes may split a character anywhere: its first bytes wait for the rest.
#[derive(Debug)]
pub(crate) struct JsonTextWriter<W: Write> {
    inner: W,
    /// The bytes of a character that a write cut (at most three).
    pending: Vec<u8>,
}

impl<W: Write> JsonTextWriter<W> {
    /// A writer into `inner`.
    pub(crate) fn new(inner: W) -> Self {
        Self {
            inner,
            pending: Vec::new(),
        }
    }

    /// Everything written, checked whole: fails when the text ended inside a character.
    /// `inner` is not flushed: a writer of many documents into one buffered sink flushes it
    /// once at the end.
    pub(crate) fn into_checked(self) -> io::Result<W> {
        if !self.pending.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "serialized JSON ended inside a UTF-8 character",
            ));
        }
        Ok(self.inner)
    }
}

impl<W: Write> Write for JsonTextWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let joined;
        let bytes = if self.pending.is_empty() {
            buf
        } else {
            joined = [std::mem::take(&mut self.pending).as_slice(), buf].concat();
            &joined
        };
        let (text, rest) = match std::str::from_utf8(bytes) {
            Ok(text) => (text, &[][..]),
            // A character cut at the end: the rest of it comes with the next write.
            Err(err) if err.error_len().is_none() => {
                let (valid, rest) = bytes.split_at(err.valid_up_to());
                (std::str::from_utf8(valid).unwrap_or_default(), rest)
            }
            Err(err) => return Err(io::Error::new(io::ErrorKind::InvalidData, err)),
        };
        self.inner.write_all(escape_json_text(text).as_bytes())?;
        self.pending = rest.to_vec();
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// Whether `text` holds a terminal control ([`is_terminal_control`]), told from its bytes
/// without decoding a character: every control is a byte below `0x20` (newline and tab
/// aside), DEL, a C1 control (`0xc2 0x80` to `0xc2 0x9f`) or a bidirectional format
/// character (`0xe2 0x80 0xaa` to `0xae`, `0xe2 0x81 0xa6` to `0xa9`). Exact, so text
/// with none (nearly all of it) is never looked at again.
pub(crate) fn holds_terminal_control(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Blocks of 64 bytes, each tested with the two bytes after it (a control's encoding is
    // up to three bytes) and without early exit, which the compiler turns into vector
    // instructions; the last bytes one at a time. Common text (`—`, `’`, `→`, box drawing
    // all start with `0xe2`) is no longer sent to a byte-by-byte look.
    let mut at = 0;
    while let Some(window) = bytes
        .get(at..at + BLOCK + 2)
        .and_then(|window| <&[u8; BLOCK + 2]>::try_from(window).ok())
    {
        if block_holds_control(window) {
            return true;
        }
        at += BLOCK;
    }
    (at..bytes.len()).any(|at| control_at(bytes, at))
}

/// Bytes [`holds_terminal_control`] tests at a time.
const BLOCK: usize = 64;

/// Whether a terminal control starts in the first [`BLOCK`] bytes of `window`.
fn block_holds_control(window: &[u8; BLOCK + 2]) -> bool {
    let mut seen = false;
    for at in 0..BLOCK {
        let (first, second, third) = (window[at], window[at + 1], window[at + 2]);
        let c0 = (first < 0x20) & (first != b'\n') & (first != b'\t');
        let c1 = (first == 0xc2) & (second.wrapping_sub(0x80) < 0x20);
        let embedding = (second == 0x80) & (third.wrapping_sub(0xaa) < 5);
        let isolate = (second == 0x81) & (third.wrapping_sub(0xa6) < 4);
        let bidi = (first == 0xe2) & (embedding | isolate);
        seen |= c0 | (first == 0x7f) | c1 | bidi;
    }
    seen
}

/// Whether a terminal control starts at byte `at` of `bytes`.
fn control_at(bytes: &[u8], at: usize) -> bool {
    match bytes.get(at) {
        Some(0x00..=0x08 | 0x0b..=0x1f | 0x7f) => true,
        Some(0xc2) => matches!(bytes.get(at + 1), Some(0x80..=0x9f)),
        Some(0xe2) => matches!(
            (bytes.get(at + 1), bytes.get(at + 2)),
            (Some(0x80), Some(0xaa..=0xae)) | (Some(0x81), Some(0xa6..=0xa9))
        ),
        _ => false,
    }
}

fn escape_with(text: &str, escape: impl Fn(char, &mut String)) -> Cow<'_, str> {
    if !holds_terminal_control(text) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        if is_terminal_control(c) {
            escape(c, &mut out);
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// `text` on one line in at most `max` terminal columns: newlines and tabs become spaces,
/// and a cut text ends with `…`. Columns are display widths (a Chinese, Japanese or Korean
/// character takes two), so previews line up in 80-column listings.
pub(crate) fn one_line(text: &str, max: usize) -> String {
    use unicode_width::UnicodeWidthChar;
    let flat: String = text
        .chars()
        .map(|c| if c == '\n' || c == '\t' { ' ' } else { c })
        .collect();
    let flat = flat.trim();
    let width = |c: char| c.width().unwrap_or(0);
    if flat.chars().map(width).sum::<usize>() <= max {
        return flat.to_string();
    }
    let mut cut = String::new();
    let mut used = 0;
    for c in flat.chars() {
        if used + width(c) > max.saturating_sub(1) {
            break;
        }
        used += width(c);
        cut.push(c);
    }
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The byte test says what decoding every character says, wherever in a block (or
        /// across two) one control, or none, falls among near misses (`…`, `—`, `\u{2065}`,
        /// `\u{202f}`, `\u{a0}`: the bytes around the controls' own).
        #[test]
        fn the_byte_test_finds_exactly_the_controls(
            pieces in proptest::collection::vec(
                prop_oneof![
                    Just("a"), Just("\n"), Just("\t"), Just("\u{a0}"), Just("\u{c0}"),
                    Just("\u{2026}"), Just("\u{2014}"), Just("\u{2029}"), Just("\u{202f}"),
                    Just("\u{2065}"), Just("\u{206a}"), Just("\u{2592}"), Just("é"),
                    Just("ok plain words "),
                ],
                0..200,
            ),
            control in proptest::option::of(prop_oneof![
                Just("\r"), Just("\u{0}"), Just("\u{1b}"), Just("\u{1f}"), Just("\u{7f}"),
                Just("\u{80}"), Just("\u{9f}"), Just("\u{202a}"), Just("\u{202e}"),
                Just("\u{2066}"), Just("\u{2069}"),
            ]),
            at in any::<prop::sample::Index>(),
        ) {
            let mut pieces = pieces;
            if let Some(control) = control {
                pieces.insert(at.index(pieces.len() + 1), control);
            }
            let text = pieces.concat();
            prop_assert_eq!(
                holds_terminal_control(&text),
                text.chars().any(is_terminal_control)
            );
        }
    }

    #[test]
    fn human_text_escapes_controls_but_keeps_newlines_and_tabs() {
        let text = "ok\tline\n\u{1b}[31mred\u{1b}[0m\r\u{7}\u{9b}x\u{202e}cba";
        assert_eq!(
            sanitize_text(text),
            "ok\tline\n\\x1b[31mred\\x1b[0m\\r\\x07\\x9bx\\u{202e}cba"
        );
        assert!(matches!(sanitize_text("plain é ✓"), Cow::Borrowed(_)));
    }

    #[test]
    fn json_escapes_stay_valid_json_and_decode_to_the_original() -> Result<(), serde_json::Error> {
        let original = "a\u{1b}b\u{7f}c\u{85}d\u{2066}e";
        let json = serde_json::to_string(original)?;
        let escaped = escape_json_text(&json);
        assert!(!escaped.chars().any(is_terminal_control), "{escaped}");
        let decoded: String = serde_json::from_str(&escaped)?;
        assert_eq!(decoded, original);
        Ok(())
    }

    #[test]
    fn the_json_writer_escapes_as_the_text_function_whatever_the_cuts() -> io::Result<()> {
        let original = "a\u{1b}b\u{7f}c\u{85}d\u{2066}e é ✓ 𝄞";
        let json = serde_json::to_string(original)?;
        let expected = escape_json_text(&json).into_owned();
        for piece in 1..=5 {
            let mut writer = JsonTextWriter::new(Vec::new());
            for chunk in json.as_bytes().chunks(piece) {
                writer.write_all(chunk)?;
            }
            let written = String::from_utf8(writer.into_checked()?).map_err(io::Error::other)?;
            assert_eq!(written, expected, "pieces of {piece} byte(s)");
        }
        let mut cut = JsonTextWriter::new(Vec::new());
        cut.write_all(&"é".as_bytes()[..1])?;
        assert!(
            cut.into_checked().is_err(),
            "a text that ends inside a character"
        );
        Ok(())
    }

    #[test]
    fn the_byte_test_never_misses_a_control() {
        for code in (0..0x3000).chain(0xfdd0..0xfdf0).chain(0xfff0..0x10000) {
            let Some(c) = char::from_u32(code) else {
                continue;
            };
            let text = format!("a{c}b");
            assert_eq!(
                holds_terminal_control(&text),
                is_terminal_control(c),
                "U+{code:04X}"
            );
        }
        assert!(!holds_terminal_control("plain text\n\twith é and 漢字"));
        for at in [0, 1, 62, 63, 64, 65, 127, 128, 200] {
            for control in ["\u{1b}", "\u{85}", "\u{202e}", "\u{2069}"] {
                let mut text = "x".repeat(at);
                text.push_str(control);
                text.push_str(&"y".repeat(70));
                assert!(holds_terminal_control(&text), "{control:?} at {at}");
                let mut near = "x".repeat(at);
                near.push_str("\u{b7}\u{2019}\n\t");
                assert!(!holds_terminal_control(&near), "near misses at {at}");
            }
        }
    }

    #[test]
    fn one_line_flattens_and_cuts() {
        assert_eq!(one_line("  a\nb\tc  ", 10), "a b c");
        assert_eq!(one_line("abcdefghij", 5), "abcd…");
        // By display width: two columns per CJK character.
        assert_eq!(one_line("请把全局配置改成", 7), "请把全…");
        assert_eq!(one_line("请把全局", 8), "请把全局");
    }
}
