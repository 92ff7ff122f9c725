//! The `<hook_prompt hook_run_id="...">text</hook_prompt>` text form of one hook fragment.
//!
//! A small, strict reader and writer for exactly this element: text and attribute values
//! are XML-escaped (`&`, `<`, `>`, `"`, `'`), the run id must not be blank, and anything
//! else (nested markup, an unknown entity, a missing close tag) means "not a hook prompt",
//! never an error: the text is then simply something else.

const OPEN: &str = "<hook_prompt";
const CLOSE: &str = "</hook_prompt>";
const RUN_ID_ATTRIBUTE: &str = "hook_run_id";

/// The `(text, hook_run_id)` of one hook prompt element, unescaped; `None` if `text` is not
/// exactly one such element (surrounding whitespace aside) with a non-blank run id.
pub(crate) fn parse_hook_prompt_xml(text: &str) -> Option<(String, String)> {
    let trimmed = text.trim();
    let rest = trimmed.strip_prefix(OPEN)?;
    if !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
        return None;
    }
    let (run_id, rest) = parse_attributes(rest)?;
    let body = rest.strip_suffix(CLOSE)?;
    if body.contains('<') {
        return None;
    }
    let body = unescape(body)?;
    let run_id = run_id?;
    if run_id.trim().is_empty() {
        return None;
    }
    Some((body, run_id))
}

/// Render one hook fragment as its element, escaping text and run id.
pub(crate) fn render_hook_prompt_xml(text: &str, hook_run_id: &str) -> String {
    format!(
        "{OPEN} {RUN_ID_ATTRIBUTE}=\"{}\">{}{CLOSE}",
        escape(hook_run_id),
        escape(text)
    )
}

/// Reads attributes up to and including the `>` that ends the start tag. Returns the run
/// id (if present) and the text after `>`. Unknown attributes are tolerated, a repeated
/// run id or a self-closing tag is not.
fn parse_attributes(mut rest: &str) -> Option<(Option<String>, &str)> {
    let mut run_id = None;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace());
        if let Some(after) = rest.strip_prefix('>') {
            return Some((run_id, after));
        }
        let name_len = rest
            .find(|c: char| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | ':' | '.')))
            .unwrap_or(rest.len());
        if name_len == 0 {
            return None;
        }
        let (name, after_name) = rest.split_at(name_len);
        let after_eq = after_name
            .trim_start_matches(|c: char| c.is_ascii_whitespace())
            .strip_prefix('=')?
            .trim_start_matches(|c: char| c.is_ascii_whitespace());
        let quote = after_eq
            .chars()
            .next()
            .filter(|c| matches!(c, '"' | '\''))?;
        let value_and_rest = &after_eq[quote.len_utf8()..];
        let end = value_and_rest.find(quote)?;
        let raw_value = &value_and_rest[..end];
        if raw_value.contains('<') {
            return None;
        }
        if name == RUN_ID_ATTRIBUTE {
            if run_id.is_some() {
                return None;
            }
            run_id = Some(unescape(raw_value)?);
        }
        rest = &value_and_rest[end + quote.len_utf8()..];
        if !rest.starts_with(|c: char| c.is_ascii_whitespace() || c == '>') {
            return None;
        }
    }
}

fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

/// Replaces the five named entities and numeric character references; `None` on an unknown
/// or unterminated entity.
fn unescape(text: &str) -> Option<String> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        let semi = after.find(';')?;
        let entity = &after[..semi];
        out.push(decode_entity(entity)?);
        rest = &after[semi + 1..];
    }
    out.push_str(rest);
    Some(out)
}

fn decode_entity(entity: &str) -> Option<char> {
    match entity {
        "amp" => Some('&'),
        "lt" => Some('<'),
        "gt" => Some('>'),
        "quot" => Some('"'),
        "apos" => Some('\''),
        _ => {
            let number = entity.strip_prefix('#')?;
            let code = match number.strip_prefix(['x', 'X']) {
                Some(hex) => u32::from_str_radix(hex, 16).ok()?,
                None => number.parse::<u32>().ok()?,
            };
            char::from_u32(code)
        }
    }
}
