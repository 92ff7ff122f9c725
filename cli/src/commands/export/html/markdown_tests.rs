use super::*;

/// What the cleaner makes of `source`'s HTML, which [`render`] must equal.
fn always_cleaned(source: &str) -> String {
    cleaner().clean(&markdown_html(source)).to_string()
}

/// Pieces of Markdown (and of what messages hold) to build messages from.
const PIECES: &[&str] = &[
    "word",
    "déjà ’ — …",
    "한국어 文字",
    "\u{1f600}",
    "**bold**",
    "_em_",
    "`code`",
    "~~gone~~",
    "# Title",
    "## Sub",
    "- item",
    "* item",
    "1. first",
    "3. third",
    "- [ ] task",
    "- [x] done",
    "> quoted",
    "```\ncode <b> & \"x\"\n```",
    "```rust\nfn main() {}\n```",
    "    indented",
    "| a | b |\n|---|:-:|\n| c | d |",
    "| h |\n|---|",
    "[link](https://example.com)",
    "<https://example.com>",
    "www.example.com",
    "[rel](docs/a.md)",
    "![alt](x.png)",
    "<b>raw</b>",
    "<br>",
    "&amp;",
    "&copy;",
    "&quot;",
    "&#65;",
    "&nbsp;",
    "\u{a0}",
    "a & b",
    "1 < 2 > 0",
    "\"quoted\"",
    "it's",
    "***",
    "---",
    "line  \nbreak",
    "\\*",
    "[^1]",
    "<!-- c -->",
    "term\n: def",
    "$x$",
];
const JOINS: &[&str] = &[" ", "\n", "\n\n", ""];

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2_000))]
    #[test]
    fn skipping_the_cleaner_changes_no_byte(
        parts in proptest::collection::vec((0..PIECES.len(), 0..JOINS.len()), 1..12),
    ) {
        let source: String = parts
            .iter()
            .map(|&(piece, join)| format!("{}{}", PIECES[piece], JOINS[join]))
            .collect();
        proptest::prop_assert_eq!(render(&source), always_cleaned(&source), "{:?}", source);
    }
}

#[test]
fn the_cleaner_is_skipped_for_plain_messages_only() {
    let kept = [
        "plain",
        "# T\n\n- a\n- b\n\n```\nx & y\n```",
        "| a |\n|---|\n| b |",
    ];
    for source in kept {
        assert!(cleaner_keeps(&markdown_html(source)), "{source}");
    }
    let cleaned = [
        "[l](https://x.y)",
        "```rust\nx\n```",
        "a  \nb",
        "\u{a0}",
        "---",
    ];
    for source in cleaned {
        let html = markdown_html(source);
        assert!(!cleaner_keeps(&html), "{source}: {html}");
    }
}

#[test]
fn every_real_message_renders_as_the_cleaner_writes_it() -> Result<(), Box<dyn std::error::Error>> {
    use codex_protocol::models::{ContentItem, ResponseItem};
    use codex_protocol::rollout::RolloutItem;
    let Some(files) = codex_test_support::real_jsonl_files()? else {
        return Ok(());
    };
    let (mut messages, mut skipped) = (0, 0);
    for file in &files {
        let bytes = std::fs::read(file)?;
        let mut texts = Vec::new();
        codex_rollout::RolloutStream::new(&bytes[..])?.for_each_line(|line| {
            if let Some(RolloutItem::ResponseItem(ResponseItem::Message { content, .. })) =
                line.line().map(|line| &line.item)
            {
                for item in content {
                    if let ContentItem::OutputText { text, .. }
                    | ContentItem::InputText { text, .. } = item
                    {
                        texts.push(text.clone());
                    }
                }
            }
        })?;
        for text in texts {
            let rendered = render(&text);
            assert_eq!(
                rendered,
                always_cleaned(&text),
                "{}: {text:?}",
                file.display()
            );
            messages += 1;
            skipped += usize::from(cleaner_keeps(&markdown_html(&text)));
        }
    }
    assert!(
        skipped * 2 > messages,
        "the cleaner was skipped for {skipped} of {messages}"
    );
    Ok(())
}

#[test]
fn markdown_renders() {
    assert_eq!(
        render("**bold** `code`").trim(),
        "<p><strong>bold</strong> <code>code</code></p>"
    );
    let code = render("```rust\nfn main() {}\n```");
    assert!(code.contains("<pre><code"), "{code}");
}

#[test]
fn raw_html_is_text() {
    let html = render("<script>alert(1)</script>\n\nhi <img src=x onerror=alert(1)>");
    assert!(!html.contains("<script"), "{html}");
    assert!(!html.contains("<img"), "{html}");
    assert!(html.contains("&lt;script&gt;"), "{html}");
}

#[test]
fn images_are_not_fetched_and_bad_links_are_dropped() {
    let html = render("![alt](https://example.com/x.png) [a](javascript:alert(1)) [b](rel.html)");
    assert!(!html.contains("<img"), "{html}");
    assert!(
        html.contains("[image https://example.com/x.png: alt]"),
        "{html}"
    );
    assert!(!html.contains("javascript:"), "{html}");
    assert!(!html.contains("rel.html\""), "{html}");
    let link = render("[c](https://example.com)");
    assert!(
        link.contains(r#"rel="noopener noreferrer nofollow""#),
        "{link}"
    );
}
