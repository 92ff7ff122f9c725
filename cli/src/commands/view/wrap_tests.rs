//! Wrapping at spaces, cutting only words longer than a row, in display columns.

use pretty_assertions::assert_eq;

use super::*;

#[track_caller]
fn check(spans: &[(&str, Tone)], width: usize, expect: &[&str]) {
    let line: Line = spans
        .iter()
        .map(|(text, tone)| Span {
            text: (*text).to_string(),
            tone: *tone,
        })
        .collect();
    let rows: Vec<String> = wrap(line, width)
        .into_iter()
        .map(|row| row.into_iter().map(|span| span.text).collect())
        .collect();
    assert_eq!(rows, expect);
}

#[test]
fn words_are_not_cut() {
    check(
        &[("the parser reads past the end", Tone::Plain)],
        12,
        &["the parser ", "  reads past", "  the end"],
    );
    // Across spans of different tones.
    check(
        &[("error: ", Tone::Dim), ("unexpected token", Tone::Plain)],
        12,
        &["error: ", "  unexpected", "  token"],
    );
}

#[test]
fn a_word_longer_than_a_row_is_cut() {
    check(
        &[("see abcdefghijklmnop", Tone::Plain)],
        8,
        &["see abcd", "  efghij", "  klmnop"],
    );
}

#[test]
fn wide_characters_count_two_columns() {
    check(
        &[("全局 配置 当前项目", Tone::Plain)],
        10,
        &["全局 配置 ", "  当前项目"],
    );
}
