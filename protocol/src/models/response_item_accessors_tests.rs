//! Unit tests of the `ResponseItem` accessors, including the seed test
//! `response_item_id_getter_and_setter` and the never-overwrite stamping rules.

use serde_json::Number;

use super::super::test_support::fixed_id;
use super::super::test_support::one_of_each_variant;
use super::*;

#[test]
fn response_item_id_getter_and_setter() {
    let expected_prefixes = [
        Some("at"),
        Some("msg"),
        Some("amsg"),
        Some("rs"),
        Some("lsh"),
        Some("fc"),
        Some("tsc"),
        Some("fco"),
        Some("ctc"),
        Some("ctco"),
        Some("tso"),
        Some("ws"),
        Some("ig"),
        Some("cmp"),
        None,
        None,
        Some("cmp"),
        None,
    ];
    let items = one_of_each_variant();
    assert_eq!(items.len(), expected_prefixes.len());
    for (mut item, expected_prefix) in items.into_iter().zip(expected_prefixes) {
        let kind = item.item_type();
        assert_eq!(item.id_prefix(), expected_prefix, "{kind}");
        assert_eq!(item.id(), None, "{kind} starts without id");

        let id = fixed_id(expected_prefix.unwrap_or("none"));
        item.set_id(Some(id.clone()));
        match expected_prefix {
            Some(_) => {
                assert_eq!(item.id(), Some(&id), "{kind} keeps the id it was given");
                item.set_id(None);
                assert_eq!(item.id(), None, "{kind}: set_id(None) clears");
            }
            None => assert_eq!(item.id(), None, "{kind} has no id slot"),
        }
    }
}

#[test]
fn minted_ids_use_the_variant_prefix() {
    for mut item in one_of_each_variant() {
        let Some(prefix) = item.id_prefix() else {
            continue;
        };
        item.set_id(Some(ResponseItemId::new(prefix)));
        let id = item.id().map(ToString::to_string).unwrap_or_default();
        assert!(id.starts_with(&format!("{prefix}_")), "{id}");
    }
}

#[test]
fn item_type_matches_the_serialized_tag() -> Result<(), serde_json::Error> {
    for item in one_of_each_variant() {
        let json = serde_json::to_value(&item)?;
        assert_eq!(json["type"], item.item_type());
    }
    Ok(())
}

#[test]
fn set_turn_id_if_missing_never_overwrites() {
    let mut item = ResponseItem::user_text("hi");
    item.set_turn_id_if_missing("");
    assert_eq!(item.metadata(), None, "empty turn id is ignored");
    item.set_turn_id_if_missing("turn-1");
    assert_eq!(item.turn_id(), Some("turn-1"));
    item.set_turn_id_if_missing("turn-2");
    assert_eq!(item.turn_id(), Some("turn-1"), "present turn id is kept");
}

#[test]
fn set_turn_id_if_missing_replaces_an_empty_one() {
    let mut item = ResponseItem::user_text("hi");
    if let Some(slot) = item.metadata_mut() {
        *slot = Some(InternalChatMessageMetadataPassthrough {
            turn_id: Some(String::new()),
            ..Default::default()
        });
    }
    assert_eq!(item.turn_id(), None);
    item.set_turn_id_if_missing("turn-9");
    assert_eq!(item.turn_id(), Some("turn-9"));
}

#[test]
fn set_turn_id_if_missing_applies_to_every_variant_with_metadata() {
    for mut item in one_of_each_variant() {
        let has_slot = item.metadata_mut().is_some();
        item.set_turn_id_if_missing("turn-1");
        let expected = if has_slot { Some("turn-1") } else { None };
        assert_eq!(item.turn_id(), expected, "{}", item.item_type());
    }
}

#[test]
fn metadata_slot_is_missing_only_on_control_and_unknown_variants() {
    let without: Vec<&str> = one_of_each_variant()
        .into_iter()
        .filter_map(|mut item| item.metadata_mut().is_none().then(|| item.item_type()))
        .collect();
    assert_eq!(
        without,
        vec![
            "additional_tools",
            "configuration_update",
            "compaction_trigger",
            "other"
        ]
    );
}

#[test]
fn set_create_time_if_missing_applies_to_harness_authored_items_only() {
    let time = Number::from(1_788_214_171_u64);
    let mut stamped = Vec::new();
    for mut item in one_of_each_variant().into_iter().chain([
        ResponseItem::developer_text("d"),
        ResponseItem::assistant_text("a", None),
    ]) {
        item.set_create_time_if_missing(time.clone());
        if item.create_time().is_some() {
            stamped.push(format!(
                "{}:{}",
                item.item_type(),
                item.role().unwrap_or("-")
            ));
        }
    }
    assert_eq!(
        stamped,
        vec![
            "message:user",
            "agent_message:-",
            "function_call_output:-",
            "custom_tool_call_output:-",
            "tool_search_output:-",
            "message:developer",
        ]
    );
}

#[test]
fn set_create_time_if_missing_keeps_the_first_time() -> Result<(), serde_json::Error> {
    let first: Number = serde_json::from_str("1788214171.128268")?;
    let mut item = ResponseItem::function_call_output("c", "ok");
    item.set_create_time_if_missing(first.clone());
    item.set_create_time_if_missing(Number::from(5));
    assert_eq!(item.create_time(), Some(&first));
    let json = serde_json::to_string(&item)?;
    assert!(json.contains("\"create_time\":1788214171.128268"), "{json}");
    Ok(())
}

#[test]
fn is_user_message_checks_the_role() {
    assert!(ResponseItem::user_text("u").is_user_message());
    assert!(!ResponseItem::developer_text("d").is_user_message());
    assert!(!ResponseItem::assistant_text("a", None).is_user_message());
    assert!(!ResponseItem::Other.is_user_message());
}

#[test]
fn clearing_metadata_and_encrypted_content() {
    let mut item = ResponseItem::user_text("u");
    item.set_turn_id_if_missing("t");
    item.clear_internal_chat_message_metadata_passthrough();
    assert_eq!(item.metadata(), None);

    for mut item in one_of_each_variant() {
        item.clear_encrypted_content();
        match item {
            ResponseItem::Reasoning {
                encrypted_content, ..
            } => assert_eq!(encrypted_content, None),
            ResponseItem::Compaction {
                encrypted_content, ..
            } => assert_eq!(encrypted_content, ""),
            _ => {}
        }
    }
}
