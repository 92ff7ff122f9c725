//! Where a typed re-serialization differs from the line as written, as JSON paths.
//!
//! Array indices are folded to `[]` so the same key in many lines aggregates into one row.

use std::collections::BTreeMap;

use serde_json::Value;

/// Lines per (line key, JSON path, kind of difference).
#[derive(Default)]
pub(crate) struct PathCounts(pub BTreeMap<(String, String, &'static str), usize>);

/// Records every difference between `original` and `typed` for one line.
pub(crate) fn record(key: &str, original: &Value, typed: &Value, counts: &mut PathCounts) {
    let mut paths = BTreeMap::new();
    walk("", original, typed, &mut paths);
    for (path, change) in paths {
        *counts.0.entry((key.to_string(), path, change)).or_default() += 1;
    }
}

fn walk(path: &str, original: &Value, typed: &Value, out: &mut BTreeMap<String, &'static str>) {
    match (original, typed) {
        (Value::Object(original), Value::Object(typed)) => {
            let original_tag = original.get("type");
            if typed.get("type").and_then(Value::as_str) == Some("other")
                && original_tag.and_then(Value::as_str) != Some("other")
            {
                out.insert(format!("{path} (kind unknown to the model)"), "fallback");
                return;
            }
            for (name, value) in original {
                let child = format!("{path}.{name}");
                match typed.get(name) {
                    Some(typed_value) => walk(&child, value, typed_value, out),
                    None => {
                        out.insert(child, "dropped");
                    }
                }
            }
            for name in typed.keys().filter(|name| !original.contains_key(*name)) {
                out.insert(format!("{path}.{name}"), "added");
            }
        }
        (Value::Array(original), Value::Array(typed)) if original.len() == typed.len() => {
            for (original, typed) in original.iter().zip(typed) {
                walk(&format!("{path}[]"), original, typed, out);
            }
        }
        _ if original == typed => {}
        _ => {
            out.insert(path.to_string(), "changed");
        }
    }
}
