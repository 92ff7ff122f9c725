use pretty_assertions::assert_eq;

use super::*;
use crate::event::EventMsg;
use crate::models::ResponseItem;

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
