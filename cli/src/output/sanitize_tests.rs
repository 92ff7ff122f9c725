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
    let mut pending = Vec::new();
    for piece in 1..=5 {
        let mut writer = JsonTextWriter::new(Vec::new(), &mut pending);
        for chunk in json.as_bytes().chunks(piece) {
            writer.write_all(chunk)?;
        }
        let written = String::from_utf8(writer.into_checked()?).map_err(io::Error::other)?;
        assert_eq!(written, expected, "pieces of {piece} byte(s)");
    }
    let mut cut = JsonTextWriter::new(Vec::new(), &mut pending);
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
