//! How what a person typed becomes a question to the index.
//!
//! The texts are indexed by FTS5's trigram tokenizer, so a quoted string matches wherever it
//! appears inside a text, in any script (Chinese, Japanese and Korean have no spaces between
//! words; a word tokenizer only finds a run of such characters whole). Typed text
//! ([`Syntax::Text`]) is split at white space and every term must appear, as a substring,
//! case-insensitively: a term of three characters or more is a quoted FTS5 string (so `-`,
//! `:`, `*` or `"` in it are plain characters, never operators), and a shorter one, which no
//! trigram can hold, a `LIKE` over the stored texts (a scan: slower, still right).
//! [`Syntax::Fts`] passes the text to FTS5 as written, for phrases, `OR`, `NOT`, `NEAR` and
//! parentheses; its errors are reported as a bad query.

use super::{Result, SearchError};

/// How a query's text is read.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntax {
    /// Every white-space separated term must appear in the text (as a substring, any case).
    #[default]
    Text,
    /// FTS5 query syntax over trigrams: `"a phrase"`, `OR`, `NOT`, `NEAR(a b, 5)`,
    /// parentheses; every string needs three characters or more.
    Fts,
}

/// A query in the index's terms.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Plan {
    /// The FTS5 `MATCH` expression, when some term can use the trigram index.
    pub(crate) fts: Option<String>,
    /// `LIKE` patterns (escaped by `\`) every text must match too: terms too short for a
    /// trigram.
    pub(crate) likes: Vec<String>,
    /// The strings to highlight in a snippet.
    pub(crate) terms: Vec<String>,
}

/// The fewest characters FTS5's trigram tokenizer can match.
const TRIGRAM: usize = 3;

/// Reads `text` by `syntax`; a query with nothing to look for is an error.
pub(crate) fn plan(text: &str, syntax: Syntax) -> Result<Plan> {
    let empty = || SearchError::Query {
        query: text.to_string(),
        message: "nothing to search for".to_string(),
    };
    match syntax {
        Syntax::Text => {
            let terms: Vec<String> = text.split_whitespace().map(str::to_string).collect();
            if terms.is_empty() {
                return Err(empty());
            }
            let (long, short): (Vec<&String>, Vec<&String>) = terms
                .iter()
                .partition(|term| term.chars().count() >= TRIGRAM);
            let fts = (!long.is_empty()).then(|| {
                long.iter()
                    .map(|term| quoted(term))
                    .collect::<Vec<_>>()
                    .join(" AND ")
            });
            let likes = short
                .iter()
                .map(|term| format!("%{}%", like_escaped(term)))
                .collect();
            Ok(Plan { fts, likes, terms })
        }
        Syntax::Fts => {
            let terms = fts_strings(text);
            if terms.is_empty() {
                return Err(empty());
            }
            Ok(Plan {
                fts: Some(text.to_string()),
                likes: Vec::new(),
                terms,
            })
        }
    }
}

/// `term` as an FTS5 string: in double quotes, a quote inside doubled.
fn quoted(term: &str) -> String {
    format!("\"{}\"", term.replace('"', "\"\""))
}

/// `text` with LIKE's wildcards and the escape character escaped by `\`.
pub(crate) fn like_escaped(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for ch in text.chars() {
        if matches!(ch, '%' | '_' | '\\') {
            escaped.push('\\');
        }
        escaped.push(ch);
    }
    escaped
}

/// The strings of an FTS5 query, without its operators, quotes, prefix stars, `NEAR`
/// distances and column filters: what a snippet highlights.
fn fts_strings(query: &str) -> Vec<String> {
    let mut strings = Vec::new();
    let mut chars = query.chars().peekable();
    let mut bare = String::new();
    let flush = |bare: &mut String, strings: &mut Vec<String>| {
        let word = bare.trim_end_matches('*');
        let operator = matches!(word, "AND" | "OR" | "NOT" | "NEAR");
        let number = word.chars().all(|ch| ch.is_ascii_digit());
        if !word.is_empty() && !operator && !number {
            strings.push(word.to_string());
        }
        bare.clear();
    };
    while let Some(ch) = chars.next() {
        match ch {
            '"' => {
                flush(&mut bare, &mut strings);
                let mut string = String::new();
                while let Some(ch) = chars.next() {
                    if ch == '"' {
                        if chars.peek() == Some(&'"') {
                            chars.next();
                            string.push('"');
                            continue;
                        }
                        break;
                    }
                    string.push(ch);
                }
                if !string.is_empty() {
                    strings.push(string);
                }
            }
            ':' => bare.clear(),
            ch if ch.is_whitespace() || matches!(ch, '(' | ')' | ',' | '+' | '^' | '{' | '}') => {
                flush(&mut bare, &mut strings);
            }
            ch => bare.push(ch),
        }
    }
    flush(&mut bare, &mut strings);
    strings
}

#[cfg(test)]
#[path = "syntax_tests.rs"]
mod tests;
