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
#[path = "markdown_tests.rs"]
mod tests;
