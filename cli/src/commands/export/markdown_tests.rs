use super::*;

#[test]
fn fences_are_longer_than_any_backtick_run_inside() {
    assert_eq!(fenced("plain", "text"), "```text\nplain\n```");
    assert_eq!(fenced("a ```` b", "text"), "`````text\na ```` b\n`````");
}

#[test]
fn long_outputs_keep_head_and_tail_with_a_note() {
    let long: String = (0..100).map(|n| format!("line {n}\n")).collect();
    let shown = cut(&long);
    assert!(shown.starts_with("line 0\n"), "{shown}");
    assert!(shown.ends_with("line 99"), "{shown}");
    assert!(shown.contains("… (40 lines, "), "{shown}");
    assert_eq!(cut("short\n"), "short");
}

#[test]
fn code_spans_hold_any_backticks() {
    assert_eq!(code_span("ls"), "`ls`");
    assert_eq!(code_span("a`b"), "``a`b``");
    assert_eq!(code_span("`x`"), "`` `x` ``");
    assert_eq!(code_span("two\nlines"), "`two lines`");
}

#[test]
fn escaped_text_renders_as_itself() {
    assert_eq!(escape_text("snake_case *x*"), r"snake\_case \*x\*");
    assert_eq!(escape_text("<b>&amp;</b>"), r"\<b\>\&amp\;\<\/b\>");
    assert_eq!(escape_text("    indented"), "indented");
    assert_eq!(escape_text("one\ntwo"), "one\\\ntwo");
    assert_eq!(escape_text("one\n\ntwo"), "one\n\ntwo");
}

/// Rendered by pulldown-cmark, the escaped forms show the original characters.
#[test]
fn escaped_forms_round_trip_through_a_markdown_renderer() {
    let hostile = "a_b *c* `d` [e](javascript:x) <script>f</script> # g | h ~~i~~";
    let html = |md: &str| {
        let mut out = String::new();
        pulldown_cmark::html::push_html(&mut out, pulldown_cmark::Parser::new(md));
        out
    };
    let escaped = html(&escape_text(hostile));
    let expected = "a_b *c* `d` [e](javascript:x) &lt;script&gt;f&lt;/script&gt; # g | h ~~i~~";
    assert_eq!(escaped.trim(), format!("<p>{expected}</p>"));
    let spanned = html(&code_span("x`y_z"));
    assert_eq!(spanned.trim(), "<p><code>x`y_z</code></p>");
}
