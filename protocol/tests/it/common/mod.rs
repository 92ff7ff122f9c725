//! Helpers shared by the integration tests of `codex-protocol`.

use std::collections::BTreeSet;

use serde_json::Value;

/// The `type` tags of every branch of an internally tagged enum's generated JSON schema,
/// found wherever schemars put the tag (a `const` or one-element `enum` in the branch's
/// properties, or in an `allOf` part). Read from the schema, not from a hand-written list, so
/// a new variant shows up by itself.
pub(crate) fn schema_tags(schema: &Value) -> BTreeSet<String> {
    fn tag_of(branch: &Value) -> Option<String> {
        let tag = &branch["properties"]["type"];
        let direct = tag["const"]
            .as_str()
            .or_else(|| tag["enum"].get(0).and_then(Value::as_str));
        match direct {
            Some(tag) => Some(tag.to_string()),
            None => branch["allOf"].as_array()?.iter().find_map(tag_of),
        }
    }
    schema["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(tag_of)
        .collect()
}
