//! The type-first payload decoder knows every tag the derives declare: read from the
//! generated JSON schema, so a variant added to either enum is checked by itself.

use crate::common;

use codex_protocol::event::EventMsg;
use codex_protocol::models::ResponseItem;
use codex_protocol::type_first::{TypeFirst, decode_direct};
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

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
    let items = common::schema_tags(&serde_json::to_value(schemars::schema_for!(ResponseItem))?);
    let events = common::schema_tags(&serde_json::to_value(schemars::schema_for!(EventMsg))?);
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
