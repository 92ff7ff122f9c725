use std::collections::BTreeSet;

use pretty_assertions::assert_eq;
use serde_json::Value;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// The tags of the `oneOf` branches of a generated schema (`properties.type` as `const` or a
/// one-element `enum`, possibly inside an `allOf`).
fn schema_tags(schema: &Value) -> BTreeSet<String> {
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

/// True when the direct decoder knows `tag` (a payload of only the tag may still miss
/// required fields, but it must not be an unknown variant).
fn direct_knows<T: TypeFirst>(tag: &str) -> bool {
    let payload = serde_json::json!({ "type": tag }).to_string();
    match decode_direct::<T>(&payload) {
        Ok(_) => true,
        Err(err) => !err.to_string().starts_with("unknown variant"),
    }
}

/// Every tag the derives declare (read from the generated JSON schema, so a variant added to
/// either enum is in the list), and every alias, is decoded by the direct path; the only
/// tag it does not know is the `other` of the fallback variant.
#[test]
fn the_direct_decoder_covers_every_declared_tag() -> TestResult {
    let items = schema_tags(&serde_json::to_value(schemars::schema_for!(ResponseItem))?);
    let events = schema_tags(&serde_json::to_value(schemars::schema_for!(EventMsg))?);
    assert_eq!(items.len(), 18, "{items:?}");
    assert_eq!(events.len(), 60, "{events:?}");
    for tag in items
        .iter()
        .map(String::as_str)
        .chain(["compaction_summary"])
    {
        assert_eq!(direct_knows::<ResponseItem>(tag), tag != "other", "{tag}");
    }
    for tag in events
        .iter()
        .map(String::as_str)
        .chain(["turn_started", "turn_complete"])
    {
        assert_eq!(direct_knows::<EventMsg>(tag), tag != "other", "{tag}");
    }
    assert!(!direct_knows::<ResponseItem>("ghost_snapshot"));
    assert!(!direct_knows::<EventMsg>("not_an_event"));
    Ok(())
}

/// Both paths on one payload: equal values when the direct one decodes; when it does not, the
/// derived one is what [`decode`] returns.
fn both<T: TypeFirst + PartialEq + std::fmt::Debug>(
    payload: &str,
) -> (Result<T, String>, Result<T, String>) {
    let direct = decode_direct::<T>(payload).map_err(|err| err.to_string());
    let derived = serde_json::from_str::<T>(payload).map_err(|err| err.to_string());
    let decoded = decode::<T>(payload).map_err(|err| err.to_string());
    assert_eq!(
        decoded, derived,
        "decode must give the derive's result: {payload}"
    );
    if let Ok(direct) = &direct {
        assert_eq!(Ok(direct), derived.as_ref(), "{payload}");
    }
    (direct, derived)
}

#[test]
fn flattened_maps_do_not_see_the_tag() {
    let payload = r#"{"type":"collab_waiting_begin","call_id":"c1","nickname":"scout","n":[1,2]}"#;
    let (direct, _) = both::<EventMsg>(payload);
    let Ok(EventMsg::CollabWaitingBegin(begin)) = direct else {
        panic!("not decoded directly: {direct:?}");
    };
    assert_eq!(begin.call_id, "c1");
    assert_eq!(
        begin.extra.keys().map(String::as_str).collect::<Vec<_>>(),
        ["n", "nickname"]
    );
    let (direct, _) = both::<EventMsg>(r#"{"type":"auth_recovery_started","step":2}"#);
    assert!(matches!(direct, Ok(EventMsg::AuthRecoveryStarted(_))));
}

#[test]
fn aliases_unit_variants_and_empty_struct_variants_decode_as_the_derive() {
    let (direct, _) = both::<EventMsg>(r#"{"type":"turn_started","turn_id":"t1"}"#);
    assert!(matches!(direct, Ok(EventMsg::TurnStarted(_))), "{direct:?}");
    let (direct, _) = both::<EventMsg>(r#"{"type":"turn_complete","turn_id":"t1"}"#);
    assert!(
        matches!(direct, Ok(EventMsg::TurnComplete(_))),
        "{direct:?}"
    );
    let (direct, _) = both::<EventMsg>(r#"{"type":"shutdown_complete","extra":{"a":[1]}}"#);
    assert_eq!(direct, Ok(EventMsg::ShutdownComplete));
    let (direct, _) =
        both::<ResponseItem>(r#"{"type":"compaction_summary","encrypted_content":"e"}"#);
    assert!(
        matches!(direct, Ok(ResponseItem::Compaction { .. })),
        "{direct:?}"
    );
    let (direct, _) = both::<ResponseItem>(r#"{"type":"compaction_trigger","x":1}"#);
    assert_eq!(direct, Ok(ResponseItem::CompactionTrigger {}));
}

#[test]
fn the_tag_may_be_anywhere_and_escaped() {
    let payload = r#"{"role":"user","content":[],"type":"message"}"#;
    let (direct, _) = both::<ResponseItem>(payload);
    assert!(
        matches!(direct, Ok(ResponseItem::Message { .. })),
        "{direct:?}"
    );
    let payload = r#"{"typ\u0065":"mess\u0061ge","role":"user","content":[]}"#;
    let (direct, _) = both::<ResponseItem>(payload);
    assert!(
        matches!(direct, Ok(ResponseItem::Message { .. })),
        "{direct:?}"
    );
}

#[test]
fn what_the_direct_path_refuses_falls_back_to_the_derive() {
    // Unknown tags are the derive's `Other`.
    let (direct, derived) = both::<ResponseItem>(r#"{"type":"ghost_snapshot","commit":"abc"}"#);
    assert!(direct.is_err());
    assert_eq!(derived, Ok(ResponseItem::Other));
    let (direct, derived) = both::<EventMsg>(r#"{"type":"brand_new","x":1}"#);
    assert!(direct.is_err());
    assert_eq!(derived, Ok(EventMsg::Other));
    // Both refuse a repeated tag, a missing or non-string one, a non-object, a bad field.
    for payload in [
        r#"{"type":"message","role":"user","content":[],"type":"message"}"#,
        r#"{"role":"user","content":[],"type":"message","type":"message"}"#,
        r#"{"role":"user","content":[]}"#,
        r#"{"type":7,"role":"user","content":[]}"#,
        r#"["message"]"#,
        r#"{"type":"message","role":3,"content":[]}"#,
        r#"{"type":"message","role":"user","content":[]} x"#,
    ] {
        let (direct, derived) = both::<ResponseItem>(payload);
        assert!(
            direct.is_err() && derived.is_err(),
            "{payload}: {direct:?} {derived:?}"
        );
    }
    let (direct, derived) = both::<EventMsg>(r#"{"type":"task_started","type":"task_started"}"#);
    assert!(
        direct.is_err() && derived.is_err(),
        "{direct:?} {derived:?}"
    );
}
