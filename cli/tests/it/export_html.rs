//! `export --format html` (and the Markdown export on the same model): a snapshot of a small
//! session's page, every real file exported to a page an HTML5 parser reads without error
//! (one section per turn, every image present), and `--redact` in both formats.

#![allow(clippy::print_stderr)] // The tables and skip notices are the tests' log.

use crate::common;

use std::path::Path;

use common::{TestResult, bin, name, real_files};
use scraper::{Html, Selector};

/// A 1×1 PNG.
const PNG_1X1: &str = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

/// The bundled sample, with an image in the first message (in the model's item and in the
/// client's, as Codex writes both) and an `exec_command_end` for the first command (the
/// sample has neither).
fn small_session() -> String {
    let first = r#"{"type":"input_text","text":"What does this project build with? List the files first."}"#;
    let with_image = format!(
        r#"{first},{{"type":"input_image","image_url":"data:image/png;base64,{PNG_1X1}"}}"#
    );
    let first_item = r#"{"type":"text","text":"What does this project build with? List the files first.","text_elements":[]}"#;
    let item_with_image =
        format!(r#"{first_item},{{"type":"image","image_url":"data:image/png;base64,{PNG_1X1}"}}"#);
    let end = r#"{"timestamp":"2025-06-02T09:00:09.900Z","type":"event_msg","payload":{"type":"exec_command_end","call_id":"call_ls","turn_id":"turn-1","command":["bash","-lc","ls -a"],"cwd":"/home/dev/todo-cli","aggregated_output":"","exit_code":0,"duration":{"secs":0,"nanos":420000000}}}"#;
    let mut lines: Vec<String> = Vec::new();
    for line in codex_thread::sample::SAMPLE_JSONL.lines() {
        let line = line
            .replacen(first, &with_image, 1)
            .replacen(first_item, &item_with_image, 1);
        let is_ls_output =
            line.contains(r#""type":"function_call_output""#) && line.contains("call_ls");
        if is_ls_output {
            lines.push(end.to_string());
        }
        lines.push(line);
    }
    lines.join("\n") + "\n"
}

fn export(args: &[&str], input: &Path) -> Result<(String, String), Box<dyn std::error::Error>> {
    let output = bin()?.arg("export").args(args).arg(input).output()?;
    assert!(
        output.status.success(),
        "export {args:?} {}: {}",
        input.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    Ok((
        String::from_utf8(output.stdout)?,
        String::from_utf8(output.stderr)?,
    ))
}

/// The page's body (the style and the script are constants, tested elsewhere).
fn body(page: &str) -> &str {
    let start = page.find("<main>").unwrap_or(0);
    let end = page
        .find("</main>")
        .map_or(page.len(), |end| end + "</main>".len());
    page.get(start..end).unwrap_or(page)
}

#[test]
fn small_session_page() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("small.jsonl");
    std::fs::write(&file, small_session())?;
    let (page, _) = export(&["--format", "html"], &file)?;
    let parsed = Html::parse_document(&page);
    assert_eq!(parsed.errors, Vec::<std::borrow::Cow<'_, str>>::new());
    insta::assert_snapshot!("small_session_page", body(&page));
    let (markdown, _) = export(&[], &file)?;
    insta::assert_snapshot!("small_session_markdown", markdown);
    Ok(())
}

#[test]
fn output_file_is_written_and_the_input_is_never_overwritten() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("small.jsonl");
    std::fs::write(&file, small_session())?;
    let out = dir.path().join("page.html");
    let output = bin()?
        .args(["export", "--format", "html", "-o"])
        .arg(&out)
        .arg(&file)
        .output()?;
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(output.stdout.is_empty());
    assert!(std::fs::read_to_string(&out)?.starts_with("<!DOCTYPE html>"));
    let refused = bin()?
        .args(["export", "--format", "html", "-o"])
        .arg(&file)
        .arg(&file)
        .output()?;
    assert_eq!(refused.status.code(), Some(2));
    assert_eq!(std::fs::read_to_string(&file)?, small_session());
    Ok(())
}

/// One section per turn of the JSON export (the thread's complete transcript), and every
/// image its items hold: shown inline when it is a `data:` URL of an image, else said missing.
fn check_page(file: &Path) -> TestResult {
    let (json, _) = export(&["--json"], file)?;
    let thread: serde_json::Value = serde_json::from_str(&json)?;
    let turns = thread["turns"].as_array().ok_or("no turns")?;
    let mut images = 0;
    let mut data_urls = 0;
    let items = turns
        .iter()
        .flat_map(|turn| turn["items"].as_array().into_iter().flatten());
    for item in items {
        let parts = match item["type"].as_str() {
            Some("userMessage") => item["content"].as_array(),
            Some("dynamicToolCall") => item["contentItems"].as_array(),
            Some("imageView") => {
                images += 1;
                continue;
            }
            _ => None,
        };
        for part in parts.into_iter().flatten() {
            let url = match part["type"].as_str() {
                Some("image") => part["url"].as_str(),
                Some("inputImage") => part["imageUrl"].as_str(),
                Some("localImage") => Some(""),
                _ => continue,
            };
            images += 1;
            data_urls += usize::from(url.is_some_and(|url| url.starts_with("data:image/")));
        }
    }
    let (page, _) = export(&["--format", "html"], file)?;
    let parsed = Html::parse_document(&page);
    assert_eq!(
        parsed.errors,
        Vec::<std::borrow::Cow<'_, str>>::new(),
        "{}: HTML5 parse errors",
        name(file)
    );
    let select = |css: &str| -> Result<usize, Box<dyn std::error::Error>> {
        let selector = Selector::parse(css).map_err(|err| format!("{css}: {err:?}"))?;
        Ok(parsed.select(&selector).count())
    };
    assert_eq!(select("section.turn")?, turns.len(), "{}", name(file));
    let inline = select("figure img[src^='data:image/']")?;
    let missing = select("p.missing-image")?;
    assert_eq!(inline + missing, images, "{}", name(file));
    assert!(inline <= data_urls, "{}", name(file));
    assert_eq!(select("script")?, 1, "{}", name(file));
    eprintln!(
        "{:<60} {:>5} turns {:>3} images inline {:>3} not shown {:>9} bytes",
        name(file).chars().take(60).collect::<String>(),
        turns.len(),
        inline,
        missing,
        page.len()
    );
    Ok(())
}

#[test]
fn every_real_file_exports_to_a_valid_page_with_every_turn_and_image() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("small.jsonl");
    std::fs::write(&file, small_session())?;
    check_page(&file)?;
    let Some(files) = real_files()? else {
        return Ok(());
    };
    for file in &files {
        check_page(file)?;
    }
    Ok(())
}

/// A session seeded with one sample of each redaction pattern.
fn seeded_session() -> String {
    let secrets = "mail bob.smith@example.org, key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx, \
                   gh ghp_0123456789abcdefghijABCDEFGHIJ012345, aws AKIAIOSFODNN7EXAMPLE, \
                   home /home/alice/project, host build7.corp.internal, ticket ACME-1234";
    codex_thread::sample::SAMPLE_JSONL.replace("Run the whole test suite.", secrets)
}

#[test]
fn redact_masks_each_pattern_in_both_formats_and_counts_them() -> TestResult {
    let dir = tempfile::tempdir()?;
    let file = dir.path().join("seeded.jsonl");
    std::fs::write(&file, seeded_session())?;
    let args = ["--redact", "--redact-pattern", r"ACME-\d+"];
    for format in ["markdown", "html"] {
        let mut all = vec!["--format", format];
        all.extend(args);
        let (document, stderr) = export(&all, &file)?;
        for secret in [
            "bob.smith",
            "sk-proj-",
            "ghp_",
            "AKIAIOSFODNN7EXAMPLE",
            "alice",
            "build7",
            "ACME-1234",
            "/home/dev",
        ] {
            assert!(!document.contains(secret), "{format}: {secret} left");
        }
        for mask in ["[email]", "[token]", "[host]", "[redacted]"] {
            assert!(document.contains(mask), "{format}: {mask} missing");
        }
        assert!(
            stderr.contains(
                "redacted: 1 OpenAI API key(s), 1 GitHub token(s), 1 AWS access key(s), 1 email(s),"
            ),
            "{format}: {stderr}"
        );
        assert!(stderr.contains("1 custom match(s)"), "{stderr}");
        assert!(document.contains("Redacted"), "{format}: no redaction line");
    }
    let (plain, stderr) = export(&[], &file)?;
    assert!(plain.contains("bob.smith@example.org"));
    assert!(!stderr.contains("redacted"));
    Ok(())
}

/// A session whose first tool output does not parse (its output is a number) and whose call
/// is answered again in the next turn.
fn session_with_an_unreadable_output() -> String {
    let meta = codex_thread::sample::SAMPLE_JSONL
        .lines()
        .next()
        .unwrap_or_default();
    let line = |at: &str, kind: &str, payload: &str| {
        format!(
            r#"{{"timestamp":"2025-06-02T09:00:{at}.000Z","type":"{kind}","payload":{payload}}}"#
        )
    };
    let user = |text: &str| {
        format!(
            r#"{{"type":"message","role":"user","content":[{{"type":"input_text","text":"{text}"}}]}}"#
        )
    };
    let event = |text: &str| format!(r#"{{"type":"user_message","message":"{text}","images":[]}}"#);
    let lines = [
        meta.to_string(),
        line("01", "response_item", &user("first question")),
        line("01", "event_msg", &event("first question")),
        line(
            "02",
            "response_item",
            r#"{"type":"function_call","name":"shell","arguments":"{\"command\":[\"ls\"]}","call_id":"call_1"}"#,
        ),
        line(
            "03",
            "response_item",
            r#"{"type":"function_call_output","call_id":"call_1","output":42}"#,
        ),
        line("04", "response_item", &user("second question")),
        line("04", "event_msg", &event("second question")),
        line(
            "05",
            "response_item",
            r#"{"type":"function_call_output","call_id":"call_1","output":"late answer"}"#,
        ),
    ];
    lines.join("\n") + "\n"
}

/// An unreadable line is reported and left out; the call stays in the turn it was made in,
/// without an output (a call is completed in its own turn), in every format, as `thread`
/// shows it.
#[test]
fn an_unreadable_output_is_reported_and_the_call_stays_in_its_turn() -> TestResult {
    let dir = tempfile::tempdir()?;
    let input = dir.path().join("rollout-unreadable-output.jsonl");
    std::fs::write(&input, session_with_an_unreadable_output())?;
    let (json, stderr) = export(&["--json"], &input)?;
    assert!(stderr.contains("1 unreadable line"), "{stderr}");
    let thread = bin()?
        .args(["--json", "thread", "--complete"])
        .arg(&input)
        .output()?;
    assert_eq!(
        json,
        String::from_utf8(thread.stdout)?,
        "export --json is thread --json --complete"
    );
    let json: serde_json::Value = serde_json::from_str(&json)?;
    let first_turn = &json["turns"][0]["items"];
    let call = first_turn
        .as_array()
        .into_iter()
        .flatten()
        .find(|item| item["id"] == "call_1")
        .ok_or("no call in the first turn")?;
    assert_eq!(call["aggregatedOutput"], serde_json::Value::Null, "{call}");
    for format in ["html", "markdown"] {
        let (page, stderr) = export(&["--format", format], &input)?;
        let call = page.find("ls");
        let second = page.find("second question");
        assert!(
            call.is_some() && call < second,
            "{format}: the call is shown in the first turn\n{page}"
        );
        assert!(stderr.contains("1 unreadable line"), "{format}: {stderr}");
    }
    Ok(())
}
