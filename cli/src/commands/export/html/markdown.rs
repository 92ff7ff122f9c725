//! Messages rendered from Markdown into HTML that can run nothing and load nothing.
//!
//! Two layers, each enough on its own for what it covers:
//! 1. pulldown-cmark renders with raw HTML disabled: every HTML block or inline tag in the
//!    source becomes text, and Markdown images become text naming their address (a page must
//!    not fetch anything);
//! 2. ammonia then cleans the result with an allow-list: no `img`, no `style`, no event
//!    handlers, links only to `http`, `https` and `mailto` (no relative links, which would
//!    resolve against the reader's disk), each with `rel="noopener noreferrer nofollow"`.
//!
//! The page's Content-Security-Policy (`super::page`) is the third: even a tag that slipped
//! through both could neither run nor fetch.
//!
//! The cleaner parses and writes the whole message again, which costs a tenth of an HTML
//! export, and on most messages (no link, no code block naming its language) returns what it
//! was given, byte for byte. So it is skipped when a byte test proves that it would
//! ([`cleaner_keeps`]: only bare tags of an allowed list, and only the text escapes its
//! serializer writes the same); the proof is tested against the cleaner itself on generated
//! Markdown and on every message of the real sessions.

use std::collections::HashSet;
use std::sync::OnceLock;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

use super::escape::visible;

/// `source` (Markdown from a session) as safe HTML.
pub(crate) fn render(source: &str) -> String {
    let html = markdown_html(source);
    if cleaner_keeps(&html) {
        return html;
    }
    cleaner().clean(&html).to_string()
}

/// `source` rendered by pulldown-cmark, raw HTML as text and images as their address.
fn markdown_html(source: &str) -> String {
    let source = visible(source);
    let options = Options::ENABLE_TABLES
        | Options::ENABLE_STRIKETHROUGH
        | Options::ENABLE_TASKLISTS
        | Options::ENABLE_GFM;
    let events = Parser::new_ext(&source, options).map(|event| match event {
        Event::Html(html) | Event::InlineHtml(html) => Event::Text(html),
        Event::Start(Tag::Image { dest_url, .. }) => {
            Event::Text(CowStr::from(format!("[image {dest_url}: ")))
        }
        Event::End(TagEnd::Image) => Event::Text(CowStr::from("]")),
        other => other,
    });
    let mut html = String::with_capacity(source.len() + source.len() / 4);
    pulldown_cmark::html::push_html(&mut html, events);
    html
}

/// Tags pulldown-cmark writes bare that the cleaner allows (and writes back as they are).
const BARE_TAGS: &[&[u8]] = &[
    b"p",
    b"h1",
    b"h2",
    b"h3",
    b"h4",
    b"h5",
    b"h6",
    b"blockquote",
    b"pre",
    b"code",
    b"ul",
    b"ol",
    b"li",
    b"em",
    b"strong",
    b"del",
    b"table",
    b"thead",
    b"tbody",
    b"tr",
    b"th",
    b"td",
];

/// True only when the cleaner would return `html` (pulldown-cmark's output, raw HTML
/// disabled, so every `<` opens a tag) unchanged: every tag is a bare opening or closing
/// tag of [`BARE_TAGS`] (no attribute, nothing self-closed), every `&` starts one of the
/// escapes the cleaner's serializer writes (`&amp;`, `&lt;`, `&gt;`), and no no-break space
/// (which it writes as `&nbsp;`) appears.
fn cleaner_keeps(html: &str) -> bool {
    let bytes = html.as_bytes();
    let mut at = 0;
    while let Some(found) = memchr::memchr3(b'<', b'&', 0xc2, &bytes[at..]) {
        let start = at + found;
        let rest = &bytes[start..];
        at = match rest[0] {
            b'<' => {
                let Some(end) = memchr::memchr(b'>', rest) else {
                    return false;
                };
                let name = rest[1..end].strip_prefix(b"/").unwrap_or(&rest[1..end]);
                if !BARE_TAGS.contains(&name) {
                    return false;
                }
                start + end + 1
            }
            b'&' => {
                let escape = [&b"&amp;"[..], b"&lt;", b"&gt;"]
                    .into_iter()
                    .find(|escape| rest.starts_with(escape));
                match escape {
                    Some(escape) => start + escape.len(),
                    None => return false,
                }
            }
            // `0xc2 0xa0` is U+00A0; another `0xc2` starts another character.
            _ if rest.get(1) == Some(&0xa0) => return false,
            _ => start + 1,
        };
    }
    true
}

fn cleaner() -> &'static ammonia::Builder<'static> {
    static CLEANER: OnceLock<ammonia::Builder<'static>> = OnceLock::new();
    CLEANER.get_or_init(|| {
        let mut builder = ammonia::Builder::default();
        builder
            .rm_tags(["img"])
            .add_tags(["input"])
            .add_tag_attributes("input", ["type", "checked", "disabled"])
            .url_schemes(HashSet::from(["http", "https", "mailto"]))
            .url_relative(ammonia::UrlRelative::Deny)
            .link_rel(Some("noopener noreferrer nofollow"));
        builder
    })
}

#[cfg(test)]
mod tests {
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
    fn every_real_message_renders_as_the_cleaner_writes_it()
    -> Result<(), Box<dyn std::error::Error>> {
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
        let html =
            render("![alt](https://example.com/x.png) [a](javascript:alert(1)) [b](rel.html)");
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
}
