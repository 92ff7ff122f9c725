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

/// Bytes of serialized JSON gathered before [`JsonTextWriter`] escapes them.
pub(crate) const JSON_CHUNK_BYTES: usize = 64 * 1024;

/// A writer of serialized JSON that escapes as [`escape_json_text`] does on the way through,
/// so a large document is written as it is serialized instead of being held as a string
/// first. Serde writes a token at a time: the writer gathers them into chunks of up to
/// [`JSON_CHUNK_BYTES`] in a buffer its caller lends (so that a stream of documents
/// allocates it once), and escapes a chunk at a time. Writes may split a character anywhere:
/// its first bytes wait for the rest.
#[derive(Debug)]
pub(crate) struct JsonTextWriter<'b, W: Write> {
    inner: W,
    /// What is written and not yet escaped.
    pending: &'b mut Vec<u8>,
}

impl<'b, W: Write> JsonTextWriter<'b, W> {
    /// A writer into `inner`, gathering in `pending` (emptied first).
    pub(crate) fn new(inner: W, pending: &'b mut Vec<u8>) -> Self {
        pending.clear();
        Self { inner, pending }
    }

    /// Everything written, escaped into `inner` and checked whole: fails when the text
    /// ended inside a character. `inner` is not flushed: a writer of many documents into
    /// one buffered sink flushes it once at the end.
    pub(crate) fn into_checked(mut self) -> io::Result<W> {
        self.drain()?;
        if !self.pending.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "serialized JSON ended inside a UTF-8 character",
            ));
        }
        Ok(self.inner)
    }

    /// Escapes what is gathered into `inner`, but the first bytes of a character cut at its
    /// end.
    fn drain(&mut self) -> io::Result<()> {
        let escaped = escape_into(&mut self.inner, self.pending)?;
        self.pending.drain(..escaped);
        Ok(())
    }
}

/// Escapes the longest whole UTF-8 text that `bytes` starts with into `inner`; returns its
/// length (what follows is a character cut at the end).
fn escape_into(inner: &mut impl Write, bytes: &[u8]) -> io::Result<usize> {
    let text = match std::str::from_utf8(bytes) {
        Ok(text) => text,
        // A character cut at the end: the rest of it comes with the next write.
        Err(err) if err.error_len().is_none() => {
            std::str::from_utf8(&bytes[..err.valid_up_to()]).unwrap_or_default()
        }
        Err(err) => return Err(io::Error::new(io::ErrorKind::InvalidData, err)),
    };
    inner.write_all(escape_json_text(text).as_bytes())?;
    Ok(text.len())
}

impl<W: Write> Write for JsonTextWriter<'_, W> {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        if self.pending.len() + bytes.len() > JSON_CHUNK_BYTES {
            self.drain()?;
        }
        // A large write is escaped where it is, not copied into the chunk first.
        if bytes.len() >= JSON_CHUNK_BYTES && self.pending.is_empty() {
            let escaped = escape_into(&mut self.inner, bytes)?;
            self.pending.extend_from_slice(&bytes[escaped..]);
        } else {
            self.pending.extend_from_slice(bytes);
        }
        Ok(bytes.len())
    }

    // Every write takes all it is given: no loop.
    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        self.write(bytes).map(drop)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.drain()?;
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

/// `text` cut to `width` characters, the last of them `…` when it was cut.
pub(crate) fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(width.saturating_sub(1)).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
#[path = "sanitize_tests.rs"]
mod tests;
