use pretty_assertions::assert_eq;

use super::*;
use crate::commands::view::line::plain;

/// The plain text of `markdown`'s lines.
#[track_caller]
fn check(markdown: &str, expect: &[&str]) {
    let got: Vec<String> = markdown_lines(markdown).iter().map(plain).collect();
    assert_eq!(got, expect);
}

#[test]
fn code_blocks_are_kept_line_for_line() {
    check(
        "Run:\n\n```sh\ncargo test\n  --all\n```\n\nDone.",
        &[
            "Run:",
            "",
            "```sh",
            "  cargo test",
            "    --all",
            "```",
            "",
            "Done.",
        ],
    );
}

#[test]
fn headings_lists_quotes_and_links_keep_their_shape() {
    check(
        "# Title\n\n- one\n- two\n  1. nested\n\n> quoted\n\nsee [docs](https://x.test)",
        &[
            "# Title",
            "",
            "- one",
            "- two",
            "  1. nested",
            "",
            "> quoted",
            "",
            "see docs (https://x.test)",
        ],
    );
}

#[test]
fn nesting_indents_no_deeper_than_the_cap() {
    let lines = markdown_lines(&format!("{}deep", "> ".repeat(50)));
    let widest = lines
        .iter()
        .map(|line| plain(line).len())
        .max()
        .unwrap_or(0);
    assert!(widest <= 2 * MAX_DEPTH + "deep".len(), "{widest}");
}

#[test]
fn escapes_in_markdown_are_shown_not_sent() {
    check("a \u{1b}[2J b", &["a \\x1b[2J b"]);
}
