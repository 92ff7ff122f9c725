//! Snippets: the first match with some context, every match highlighted, any case, any
//! script, a long text cut with `…`.

use pretty_assertions::assert_eq;

use super::*;

#[track_caller]
fn check(text: &str, terms: &[&str], expect: &str) {
    let terms: Vec<String> = terms.iter().map(|term| term.to_string()).collect();
    let highlight = ("[".to_string(), "]".to_string());
    assert_eq!(snippet(text, &terms, &highlight), expect);
}

#[test]
fn matches_are_highlighted_in_any_case_and_script() {
    check(
        "fix the Flaky parser",
        &["flaky", "pars"],
        "fix the [Flaky] [pars]er",
    );
    check(
        "请检查全局配置和当前项目",
        &["全局", "当前项目"],
        "请检查[全局]配置和[当前项目]",
    );
    check(
        "senior-level code review",
        &["senior-level"],
        "[senior-level] code review",
    );
    // Overlapping matches are one highlight.
    check("abcdef", &["abcd", "cdef"], "[abcdef]");
    // A text without the term (a diacritic folded by the index) starts at its beginning.
    check("café au lait", &["cafe"], "café au lait");
}

#[test]
fn a_long_text_is_cut_around_the_first_match() {
    let before = "word ".repeat(40);
    let after = " tail".repeat(40);
    let text = format!("{before}needle{after}");
    let got = {
        let highlight = ("[".to_string(), "]".to_string());
        snippet(&text, &["needle".to_string()], &highlight)
    };
    assert!(got.starts_with("…word "), "{got}");
    assert!(got.contains("[needle] tail"), "{got}");
    assert!(got.ends_with('…'), "{got}");
    assert!(got.chars().count() <= WIDTH + 4, "{got}");
}
