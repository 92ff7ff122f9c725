use super::*;

#[test]
fn the_byte_test_changes_nothing() {
    let mut samples: Vec<String> = (0..0x3000)
        .chain(0xfdc0..0xfe00)
        .chain(0xfff0..0x10000)
        .chain([0x1fffe, 0x1ffff, 0x10fffd, 0x10ffff, 0x1f600])
        .filter_map(char::from_u32)
        .map(|c| format!("a{c}b"))
        .collect();
    samples.extend(
        [
            "",
            "plain",
            "a\r\nb",
            "a\rb",
            "<b>&'\"",
            "déjà vu ’ — …",
            "\u{202e}x",
        ]
        .map(String::from),
    );
    let long: Vec<String> = samples
        .iter()
        .map(|sample| format!("{}{sample}{}", "x".repeat(63), "y".repeat(64)))
        .collect();
    samples.extend(long);
    for sample in &samples {
        assert_eq!(
            text(sample).to_string(),
            escaped_text_by_characters(sample),
            "{sample:?}"
        );
        assert_eq!(visible(sample), visible_by_characters(sample), "{sample:?}");
    }
}

#[test]
fn markup_and_quotes_are_escaped() {
    assert_eq!(
        text(r#"</details><img src=x onerror='a()'>"#).to_string(),
        "&lt;/details&gt;&lt;img src=x onerror=&#39;a()&#39;&gt;"
    );
    assert_eq!(text(r#"" &"#).to_string(), "&quot; &amp;");
}

#[test]
fn invisible_and_rejected_characters_become_visible() {
    let text = |raw: &str| text(raw).to_string();
    assert_eq!(text("a\u{1b}[31mb"), r"a\x1b[31mb");
    assert_eq!(text("x\r\ny"), "x\ny");
    assert_eq!(text("\u{202e}"), r"\u{202e}");
    assert_eq!(text("\u{fdd0}\u{ffff}"), "\u{fffd}\u{fffd}");
    assert_eq!(text("\u{0}"), r"\x00");
}

#[test]
fn times_written_field_by_field_are_chronos_text() -> Result<(), chrono::ParseError> {
    for at in [
        "2025-09-24T19:22:20.123Z",
        "2025-09-24T19:22:20Z",
        "2025-09-24T19:22:20.123456789Z",
        "2025-12-31T23:30:00.5-02:00",
        "0001-01-01T00:00:00.001+14:00",
        "9999-12-31T23:59:59.999Z",
        "0000-01-01T00:30:00Z",
    ] {
        let utc = chrono::DateTime::parse_from_rfc3339(at)?.with_timezone(&chrono::Utc);
        let machine = utc.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
        let shown = utc.format("%Y-%m-%d %H:%M:%S UTC");
        let mut out = String::new();
        time(&mut out, utc, "at");
        assert_eq!(
            out,
            format!(r#"<time class="at" datetime="{machine}" title="{shown}">{shown}</time>"#),
            "{at}"
        );
    }
    Ok(())
}
