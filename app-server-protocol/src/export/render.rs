//! Deterministic JSON text: keys sorted at every level whatever serde_json's map
//! implementation is, so generated files do not change with Cargo feature unification.

use std::collections::BTreeMap;

use serde_json::{Map, Value};

use super::ExportError;

/// Pretty JSON (two-space indent) with sorted keys and a trailing newline.
pub fn render_pretty(value: &Value) -> Result<String, ExportError> {
    let mut text = serde_json::to_string_pretty(&sorted(value)).map_err(ExportError::Json)?;
    text.push('\n');
    Ok(text)
}

/// One-line JSON with sorted keys, no trailing newline (for JSONL).
pub fn render_compact(value: &Value) -> Result<String, ExportError> {
    serde_json::to_string(&sorted(value)).map_err(ExportError::Json)
}

/// A copy of `value` whose objects have their keys in sorted order.
pub fn sorted(value: &Value) -> Value {
    match value {
        Value::Object(map) => {
            let ordered: BTreeMap<&String, Value> = map
                .iter()
                .map(|(key, value)| (key, sorted(value)))
                .collect();
            let mut out = Map::new();
            for (key, value) in ordered {
                out.insert(key.clone(), value);
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(sorted).collect()),
        other => other.clone(),
    }
}
