//! The HTML export is safe to open: a session whose every text field holds script,
//! event-handler attributes, `javascript:` links, `</details>` and CSS breakouts renders, in a
//! real headless browser, to a DOM with no script but the page's own, no handler, nothing
//! embedded, and no request for anything. A deliberately unsafe page shows the checks catch
//! each of those.

#![allow(clippy::print_stderr)] // The tables and skip notices are the tests' log.

use crate::common;

use std::path::Path;

use common::browser::{Rendered, chromium, render, violations};
use common::{TestResult, bin};
use serde_json::Value;

/// Ends every context a string could sit in, then tries each way to run or load something.
/// A script that runs marks the document (`data-pwned`), which the DOM check looks for.
const HOSTILE: &str = concat!(
    "</details></section></main></style></textarea></title></code></pre>]]>-->",
    "<script>document.documentElement.setAttribute('data-pwned-script','1')</script>",
    "<img src=\"http://127.0.0.1:9/img\" onerror=\"document.documentElement.setAttribute('data-pwned-onerror','1')\">",
    "<a href=\"javascript:document.documentElement.setAttribute('data-pwned-link','1')\">js link</a>",
    "<div onmouseover=\"alert(1)\" style=\"position:fixed;inset:0\">cover</div>",
    "<style>body{background:url(http://127.0.0.1:9/css)}</style>",
    "<link rel=stylesheet href=\"http://127.0.0.1:9/link.css\">",
    "<iframe src=\"http://127.0.0.1:9/frame\"></iframe>",
    "<svg onload=\"document.documentElement.setAttribute('data-pwned-svg','1')\"></svg>",
    "<meta http-equiv=refresh content=\"0;url=http://127.0.0.1:9/refresh\">",
    "<form action=\"http://127.0.0.1:9/form\"><input name=q></form>\n\n",
    "![md image](http://127.0.0.1:9/md-img.png) [md link](javascript:alert(1)) ",
    "[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) ",
    "<http://127.0.0.1:9/autolink> `code` _u_ *b* \"quote\" 'apos' &amp; \u{1b}[31m\u{202e}\n\n",
    "```html\n</pre><script>document.documentElement.setAttribute('data-pwned-fence','1')</script>\n```\n",
);

/// Keys whose values give a line its shape (a hostile value there would only make the line
/// unreadable, which tests nothing).
const STRUCTURAL: &[&str] = &[
    "type",
    "role",
    "timestamp",
    "id",
    "session_id",
    "call_id",
    "turn_id",
    "phase",
    "status",
    "source",
    "originator",
    "model_provider",
    "approval_policy",
    "effort",
    "summary",
    "reason",
    "collaboration_mode_kind",
    "arguments",
];

fn poison(value: &mut Value, key: Option<&str>) {
    match value {
        Value::String(text) if !key.is_some_and(|key| STRUCTURAL.contains(&key)) => {
            *text = format!("{HOSTILE}{text}");
        }
        Value::String(text) if key == Some("arguments") => {
            // Arguments stay JSON, with hostile text in every string inside.
            if let Ok(mut inner) = serde_json::from_str::<Value>(text) {
                poison(&mut inner, None);
                *text = inner.to_string();
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| poison(item, None)),
        Value::Object(map) => {
            for (key, value) in map.iter_mut() {
                poison(value, Some(key));
            }
        }
        _ => {}
    }
}

/// The bundled sample with every text field poisoned, plus images a page must not fetch or
/// run (a data URL that holds script, a remote URL, a `javascript:` URL) and a hostile
/// tool name, web query and command end event.
fn hostile_session() -> Result<String, Box<dyn std::error::Error>> {
    let mut lines = Vec::new();
    for line in codex_thread::sample::SAMPLE_JSONL.lines() {
        let mut value: Value = serde_json::from_str(line)?;
        let is_meta = value["type"] == "session_meta";
        let id = value["payload"]["id"].clone();
        poison(&mut value, None);
        if is_meta {
            // Thread ids must stay ids for the file to have a session.
            value["payload"]["id"] = id.clone();
            value["payload"]["session_id"] = id;
        }
        lines.push(value.to_string());
    }
    let images = serde_json::json!({
        "timestamp": "2025-06-02T09:00:05.500Z",
        "type": "response_item",
        "payload": {"type": "message", "role": "user", "content": [
            {"type": "input_text", "text": HOSTILE},
            {"type": "input_image", "image_url": "data:image/png;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg=="},
            {"type": "input_image", "image_url": "http://127.0.0.1:9/remote.png"},
            {"type": "input_image", "image_url": format!("javascript:alert(1)//{HOSTILE}")}
        ]}
    });
    let call = serde_json::json!({
        "timestamp": "2025-06-02T09:00:05.600Z",
        "type": "response_item",
        "payload": {"type": "function_call", "name": HOSTILE, "call_id": "call_hostile",
            "arguments": serde_json::json!({"cmd": HOSTILE}).to_string()}
    });
    let output = serde_json::json!({
        "timestamp": "2025-06-02T09:00:05.700Z",
        "type": "response_item",
        "payload": {"type": "function_call_output", "call_id": "call_hostile", "output": [
            {"type": "input_text", "text": HOSTILE},
            {"type": "input_image", "image_url": "http://127.0.0.1:9/output.png"}
        ]}
    });
    let search = serde_json::json!({
        "timestamp": "2025-06-02T09:00:05.800Z",
        "type": "response_item",
        "payload": {"type": "web_search_call", "status": "completed",
            "action": {"type": "search", "query": HOSTILE}}
    });
    // After the first user message, so all of it lands in turn 1.
    let at = lines
        .iter()
        .position(|line| line.contains("\"user_message\""))
        .map_or(lines.len(), |at| at + 1);
    for (offset, line) in [images, call, output, search].iter().enumerate() {
        lines.insert(at + offset, line.to_string());
    }
    Ok(lines.join("\n") + "\n")
}

fn check(
    browser: &Path,
    page: &Path,
    scratch: &Path,
    marker: &str,
) -> Result<(Rendered, Vec<String>), Box<dyn std::error::Error>> {
    let rendered = render(browser, page, scratch)?;
    let found = violations(&rendered, marker);
    Ok((rendered, found))
}

#[test]
fn a_hostile_session_renders_to_a_page_that_runs_and_loads_nothing() -> TestResult {
    let Some(browser) = chromium()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let session = dir.path().join("hostile.jsonl");
    std::fs::write(&session, hostile_session()?)?;
    let page = dir.path().join("hostile.html");
    let output = bin()?
        .args(["export", "--format", "html", "-o"])
        .arg(&page)
        .arg(&session)
        .output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let html = std::fs::read_to_string(&page)?;
    // The hostile text is on the page, as text, many times over.
    let shown = html
        .matches("&lt;script&gt;document.documentElement")
        .count();
    assert!(shown >= 20, "hostile text shown only {shown} times");
    let scratch = dir.path().join("browser");
    std::fs::create_dir_all(&scratch)?;
    let (rendered, found) = check(&browser, &page, &scratch, "<h1>Codex session")?;
    assert_eq!(found, Vec::<String>::new(), "unsafe page");
    // The page's own script did run (so a hostile one would have been seen running).
    assert!(rendered.dom.contains("Collapse all") || rendered.dom.contains("Expand all"));
    assert!(
        !rendered.dom.contains("09:00:00 UTC</time>"),
        "the page's script did not run: times are still UTC"
    );
    Ok(())
}

/// The checks catch each unsafe thing: a page that does all of them fails every check.
#[test]
fn the_browser_check_catches_an_unsafe_page() -> TestResult {
    let Some(browser) = chromium()? else {
        return Ok(());
    };
    let dir = tempfile::tempdir()?;
    let page = dir.path().join("unsafe.html");
    // Without the refresh, which would replace the page (checked on its own below).
    let hostile = HOSTILE.replace("\n\n", "").replace(
        "<meta http-equiv=refresh content=\"0;url=http://127.0.0.1:9/refresh\">",
        "",
    );
    let unsafe_page = format!(
        "<!DOCTYPE html><html><head><meta charset=utf-8><title>unsafe</title><style>p{{}}</style></head><body><p>{hostile}</p><p>MARKER</p><script>1</script></body></html>"
    );
    std::fs::write(&page, unsafe_page)?;
    let scratch = dir.path().join("browser");
    std::fs::create_dir_all(&scratch)?;
    let (_, found) = check(&browser, &page, &scratch, "MARKER")?;
    let all = found.join("\n");
    for expected in [
        "script elements",
        "hostile script ran: data-pwned-script",
        "onerror",
        "javascript:",
        "style elements",
        "a <iframe> element",
        "a <svg> element",
        "a <link> element",
        "a <form> element",
        "a request for http://127.0.0.1:9/",
    ] {
        assert!(
            all.contains(expected),
            "not caught: {expected}\nfound:\n{all}"
        );
    }
    let page = dir.path().join("refresh.html");
    std::fs::write(
        &page,
        "<!DOCTYPE html><title>r</title><meta http-equiv=refresh content=\"0;url=http://127.0.0.1:9/away\"><p>MARKER</p>",
    )?;
    let scratch = dir.path().join("browser-refresh");
    std::fs::create_dir_all(&scratch)?;
    let (_, found) = check(&browser, &page, &scratch, "MARKER")?;
    let all = found.join("\n");
    assert!(
        all.contains("navigated away"),
        "not caught: navigation\nfound:\n{all}"
    );
    assert!(
        all.contains("a request for http://127.0.0.1:9/away"),
        "{all}"
    );
    Ok(())
}
