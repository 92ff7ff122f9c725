//! Where two JSON values differ, each difference at a path like `$.turns[2].items[0].text`.
//!
//! The differential tests compare what this project computes with what the real Codex
//! answers; a failure must say where the two part, not print two screens of JSON.

use std::fmt;

use serde_json::Value;

/// One place where two values differ.
#[derive(Clone, Debug, PartialEq)]
pub struct Difference {
    /// Where: `$` is the root, `.key` or `["odd key"]` an object member, `[3]` an array
    /// element.
    pub path: String,
    /// How.
    pub kind: DifferenceKind,
}

/// How two values differ at one path.
#[derive(Clone, Debug, PartialEq)]
pub enum DifferenceKind {
    /// Different values (or types) with nothing to descend into.
    Value {
        /// Ours.
        ours: Value,
        /// Theirs.
        theirs: Value,
    },
    /// An object member or array element only ours has.
    OnlyOurs(Value),
    /// An object member or array element only theirs has.
    OnlyTheirs(Value),
    /// Arrays of different lengths; their common prefix is compared element by element and
    /// the extra elements are reported one by one as well.
    Length {
        /// Our length.
        ours: usize,
        /// Their length.
        theirs: usize,
    },
}

impl fmt::Display for Difference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.kind {
            DifferenceKind::Value { ours, theirs } => write!(
                f,
                "{}: ours {} != theirs {}",
                self.path,
                short(ours),
                short(theirs)
            ),
            DifferenceKind::OnlyOurs(value) => {
                write!(f, "{}: only ours: {}", self.path, short(value))
            }
            DifferenceKind::OnlyTheirs(value) => {
                write!(f, "{}: only theirs: {}", self.path, short(value))
            }
            DifferenceKind::Length { ours, theirs } => {
                write!(f, "{}: length ours {ours} != theirs {theirs}", self.path)
            }
        }
    }
}

/// Every difference between `ours` and `theirs`, in document order (object members in key
/// order); empty when they are equal.
pub fn json_differences(ours: &Value, theirs: &Value) -> Vec<Difference> {
    let mut differences = Vec::new();
    compare("$".to_owned(), ours, theirs, &mut differences);
    differences
}

/// The differences as lines of text, at most `limit` of them (then how many were left out).
pub fn describe_differences(differences: &[Difference], limit: usize) -> String {
    let mut text: String = differences
        .iter()
        .take(limit)
        .map(|difference| format!("{difference}\n"))
        .collect();
    if differences.len() > limit {
        text.push_str(&format!("... and {} more\n", differences.len() - limit));
    }
    text
}

/// Panics listing where `ours` and `theirs` differ, when they do.
///
/// # Panics
///
/// When the values differ; the message names `what` and lists up to 50 differences.
#[track_caller]
#[allow(clippy::panic)]
pub fn assert_same_json(what: &str, ours: &Value, theirs: &Value) {
    let differences = json_differences(ours, theirs);
    if !differences.is_empty() {
        panic!(
            "{what}: {} difference(s) between ours and theirs\n{}",
            differences.len(),
            describe_differences(&differences, 50)
        );
    }
}

fn compare(path: String, ours: &Value, theirs: &Value, out: &mut Vec<Difference>) {
    match (ours, theirs) {
        (Value::Object(ours), Value::Object(theirs)) => {
            let mut keys: Vec<&String> = ours.keys().chain(theirs.keys()).collect();
            keys.sort();
            keys.dedup();
            for key in keys {
                let member = format!("{path}{}", key_segment(key));
                match (ours.get(key), theirs.get(key)) {
                    (Some(ours), Some(theirs)) => compare(member, ours, theirs, out),
                    (Some(ours), None) => out.push(Difference {
                        path: member,
                        kind: DifferenceKind::OnlyOurs(ours.clone()),
                    }),
                    (None, Some(theirs)) => out.push(Difference {
                        path: member,
                        kind: DifferenceKind::OnlyTheirs(theirs.clone()),
                    }),
                    (None, None) => {}
                }
            }
        }
        (Value::Array(ours), Value::Array(theirs)) => {
            if ours.len() != theirs.len() {
                out.push(Difference {
                    path: path.clone(),
                    kind: DifferenceKind::Length {
                        ours: ours.len(),
                        theirs: theirs.len(),
                    },
                });
            }
            for index in 0..ours.len().max(theirs.len()) {
                let element = format!("{path}[{index}]");
                match (ours.get(index), theirs.get(index)) {
                    (Some(ours), Some(theirs)) => compare(element, ours, theirs, out),
                    (Some(ours), None) => out.push(Difference {
                        path: element,
                        kind: DifferenceKind::OnlyOurs(ours.clone()),
                    }),
                    (None, Some(theirs)) => out.push(Difference {
                        path: element,
                        kind: DifferenceKind::OnlyTheirs(theirs.clone()),
                    }),
                    (None, None) => {}
                }
            }
        }
        _ if ours == theirs => {}
        _ => out.push(Difference {
            path,
            kind: DifferenceKind::Value {
                ours: ours.clone(),
                theirs: theirs.clone(),
            },
        }),
    }
}

/// `.key` for identifier-like keys, else `["key"]` with the key JSON-quoted.
fn key_segment(key: &str) -> String {
    let plain = key
        .chars()
        .next()
        .is_some_and(|first| first.is_ascii_alphabetic() || first == '_')
        && key
            .chars()
            .all(|ch| ch.is_ascii_alphanumeric() || ch == '_');
    if plain {
        format!(".{key}")
    } else {
        format!("[{}]", Value::String(key.to_owned()))
    }
}

/// A value as compact JSON, cut to 200 characters.
fn short(value: &Value) -> String {
    let text = value.to_string();
    if text.chars().count() <= 200 {
        return text;
    }
    let cut: String = text.chars().take(200).collect();
    format!("{cut}...")
}

#[cfg(test)]
#[path = "json_diff_tests.rs"]
mod tests;
