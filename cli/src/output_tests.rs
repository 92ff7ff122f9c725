use std::cell::RefCell;
use std::rc::Rc;

use super::sanitize::JSON_CHUNK_BYTES;
use super::*;

/// A writer whose bytes the test reads back after the output is dropped.
#[derive(Clone, Default)]
pub(super) struct Shared(pub(super) Rc<RefCell<Vec<u8>>>);

impl Write for Shared {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// Documents small and larger than a chunk, one after the other through the one kept
/// buffer, come out as their serialization with terminal controls escaped, a line each:
/// characters and controls cut by a chunk's edge included.
#[test]
fn json_lines_are_each_document_escaped_whatever_its_size() -> Result<(), Failure> {
    let piece = "é\u{1b}[31m\u{85}ok\u{202e}—";
    let large = piece.repeat(3 * JSON_CHUNK_BYTES / piece.len() + 7);
    let documents = [
        serde_json::json!({"a": "short"}),
        serde_json::json!({"text": large, "n": 1}),
        serde_json::json!(["small", piece]),
        serde_json::json!({"text": large.chars().take(JSON_CHUNK_BYTES / 3).collect::<String>()}),
    ];
    let sink = Shared::default();
    let mut output = Output::to_writer(true, Box::new(sink.clone()));
    for document in &documents {
        output.json_line(document)?;
    }
    drop(output);
    let written = String::from_utf8(sink.0.borrow().clone()).map_err(io::Error::other)?;
    let expected: String = documents
        .iter()
        .map(|document| {
            let json = serde_json::to_string(document).unwrap_or_default();
            format!("{}\n", escape_json_text(&json))
        })
        .collect();
    assert!(written == expected, "the JSON lines differ");
    assert!(!written.contains('\u{1b}') && !written.contains('\u{85}'));
    for (line, document) in written.lines().zip(&documents) {
        let read: serde_json::Value = serde_json::from_str(line)?;
        assert_eq!(&read, document);
    }
    Ok(())
}

/// A pretty document larger than a chunk is written as it is serialized, and comes out
/// as `to_string_pretty` with terminal controls escaped.
#[test]
fn a_pretty_document_is_its_pretty_serialization_escaped() -> Result<(), Failure> {
    let piece = "é\u{1b}[31m\u{85}ok\u{202e}—";
    let large = piece.repeat(3 * JSON_CHUNK_BYTES / piece.len() + 7);
    let document = serde_json::json!({"items": [{"text": large}, {"n": 1, "more": [piece]}]});
    let sink = Shared::default();
    let mut output = Output::to_writer(false, Box::new(sink.clone()));
    output.json_document(&document)?;
    output.json_document(&serde_json::json!({"second": true}))?;
    drop(output);
    let written = String::from_utf8(sink.0.borrow().clone()).map_err(io::Error::other)?;
    let pretty = |value: &serde_json::Value| {
        let json = serde_json::to_string_pretty(value).unwrap_or_default();
        format!("{}\n", escape_json_text(&json))
    };
    let expected = pretty(&document) + &pretty(&serde_json::json!({"second": true}));
    assert!(written == expected, "the pretty documents differ");
    assert!(!written.contains('\u{1b}') && !written.contains('\u{85}'));
    Ok(())
}
