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

use std::collections::HashSet;
use std::sync::OnceLock;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

use super::escape::visible;

/// `source` (Markdown from a session) as safe HTML.
pub fn render(source: &str) -> String {
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
    cleaner().clean(&html).to_string()
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
