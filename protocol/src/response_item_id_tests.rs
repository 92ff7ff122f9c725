//! Unit tests of `ResponseItemId`: minted shape, deterministic suffixes, any string read.

use super::*;

#[test]
fn new_ids_are_prefix_underscore_uuid_v7() -> Result<(), Box<dyn std::error::Error>> {
    let id = ResponseItemId::new("msg");
    let suffix = id.strip_prefix("msg_").ok_or("missing msg_ prefix")?;
    let uuid = Uuid::parse_str(suffix)?;
    assert_eq!(uuid.get_version_num(), 7);
    assert_eq!(suffix, uuid.hyphenated().to_string());
    assert!(id.is_prefixed());
    Ok(())
}

#[test]
fn new_ids_are_unique() {
    assert_ne!(ResponseItemId::new("fc"), ResponseItemId::new("fc"));
}

#[test]
fn with_suffix_joins_with_underscore() {
    assert_eq!(
        ResponseItemId::with_suffix("ws", "partial").as_str(),
        "ws_partial"
    );
    assert_eq!(
        ResponseItemId::with_suffix("msg", "test").as_str(),
        "msg_test"
    );
}

#[test]
fn is_prefixed_needs_text_on_both_sides_of_the_first_underscore() {
    for (raw, expected) in [
        ("msg_stable", true),
        ("msg_abc_def", true),
        ("rs_0a993efe", true),
        ("server-item-id", false),
        ("_leading", false),
        ("trailing_", false),
        ("", false),
        ("019a93b9-f380-7600-98ff-940e6b99603c", false),
    ] {
        assert_eq!(
            ResponseItemId::from_server(raw).is_prefixed(),
            expected,
            "{raw}"
        );
    }
}

#[test]
fn serializes_as_a_bare_string_and_reads_any_string() -> Result<(), Box<dyn std::error::Error>> {
    let id = ResponseItemId::from_server("server-item-id");
    assert_eq!(serde_json::to_string(&id)?, "\"server-item-id\"");
    let back: ResponseItemId = serde_json::from_str("\"anything goes\"")?;
    assert_eq!(back, "anything goes");
    Ok(())
}

#[test]
fn string_views_agree() {
    let id = ResponseItemId::with_suffix("fc", 1);
    let as_ref: &str = id.as_ref();
    let borrowed: &str = id.borrow();
    assert_eq!(as_ref, "fc_1");
    assert_eq!(borrowed, "fc_1");
    assert_eq!(&*id, "fc_1");
    assert_eq!(id.to_string(), "fc_1");
    assert_eq!(String::from(id), "fc_1");
}
