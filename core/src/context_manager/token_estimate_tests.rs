use codex_protocol::models::AgentMessageInputContent;
use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::test_support::*;

fn json_len(item: &ResponseItem) -> usize {
    serde_json::to_string(item)
        .map(|json| json.len())
        .unwrap_or_default()
}

fn tokens(bytes: usize) -> i64 {
    i64::try_from(bytes.div_ceil(4)).unwrap_or(i64::MAX)
}

fn image_message(url: &str) -> ResponseItem {
    ResponseItem::message("user", vec![ContentItem::input_image_url(url, None)])
}

fn output_with(parts: Vec<FunctionCallOutputContentItem>, custom: bool) -> ResponseItem {
    let output = FunctionCallOutputPayload::from_content_items(parts);
    if custom {
        ResponseItem::CustomToolCallOutput {
            id: None,
            call_id: "c".to_string(),
            name: None,
            output,
            internal_chat_message_metadata_passthrough: None,
        }
    } else {
        ResponseItem::FunctionCallOutput {
            id: None,
            call_id: Some("c".to_string()),
            name: None,
            namespace: None,
            output,
            internal_chat_message_metadata_passthrough: None,
        }
    }
}

const PAYLOAD_LEN: usize = 40_000;

fn png_url() -> String {
    format!("data:image/png;base64,{}", "A".repeat(PAYLOAD_LEN))
}

#[test]
fn text_only_items_unchanged() {
    let item = user("just some words");
    assert_eq!(estimate_item_token_count(&item), tokens(json_len(&item)));
}

#[test]
fn image_data_url_payload_does_not_dominate_message_estimate() {
    let item = image_message(&png_url());
    let expected = json_len(&item) - PAYLOAD_LEN + INLINE_IMAGE_BYTE_COST;
    assert_eq!(estimate_item_token_count(&item), tokens(expected));
}

#[test]
fn image_data_url_payload_does_not_dominate_function_call_output_estimate() {
    let item = output_with(
        vec![FunctionCallOutputContentItem::input_image_url(
            png_url(),
            None,
        )],
        false,
    );
    let expected = json_len(&item) - PAYLOAD_LEN + INLINE_IMAGE_BYTE_COST;
    assert_eq!(estimate_item_token_count(&item), tokens(expected));
}

#[test]
fn image_data_url_payload_does_not_dominate_custom_tool_call_output_estimate() {
    let item = output_with(
        vec![FunctionCallOutputContentItem::input_image_url(
            png_url(),
            None,
        )],
        true,
    );
    let expected = json_len(&item) - PAYLOAD_LEN + INLINE_IMAGE_BYTE_COST;
    assert_eq!(estimate_item_token_count(&item), tokens(expected));
}

#[test]
fn audio_data_url_is_charged_by_its_fallback_estimate() {
    let url = format!("data:audio/wav;base64,{}", "B".repeat(1_000));
    let item = ResponseItem::message("user", vec![ContentItem::input_audio(url.clone())]);
    let expected = json_len(&item) - 1_000 + 4 * url.len().div_ceil(4);
    assert_eq!(estimate_item_token_count(&item), tokens(expected));
}

#[test]
fn non_base64_image_urls_are_unchanged() {
    let item = image_message("https://example.com/cat.png");
    assert_eq!(estimate_item_token_count(&item), tokens(json_len(&item)));
}

#[test]
fn data_url_without_base64_marker_is_unchanged() {
    let item = image_message("data:image/svg+xml,<svg></svg>");
    assert_eq!(estimate_item_token_count(&item), tokens(json_len(&item)));
}

#[test]
fn non_image_base64_data_url_is_unchanged() {
    let item = image_message("data:text/plain;base64,SGVsbG8=");
    assert_eq!(estimate_item_token_count(&item), tokens(json_len(&item)));
}

#[test]
fn mixed_case_data_url_markers_are_adjusted() {
    let url = format!("DATA:IMAGE/PNG;BASE64,{}", "A".repeat(PAYLOAD_LEN));
    let item = image_message(&url);
    let expected = json_len(&item) - PAYLOAD_LEN + INLINE_IMAGE_BYTE_COST;
    assert_eq!(estimate_item_token_count(&item), tokens(expected));
}

#[test]
fn multiple_inline_images_apply_multiple_fixed_costs() {
    let item = ResponseItem::message(
        "user",
        vec![
            ContentItem::input_image_url(png_url(), None),
            ContentItem::input_image_url(png_url(), None),
        ],
    );
    let expected = json_len(&item) - 2 * PAYLOAD_LEN + 2 * INLINE_IMAGE_BYTE_COST;
    assert_eq!(estimate_item_token_count(&item), tokens(expected));
}

#[test]
fn encrypted_function_output_uses_plaintext_byte_estimate() {
    let blob = "e".repeat(1_600);
    let item = output_with(
        vec![FunctionCallOutputContentItem::EncryptedContent {
            encrypted_content: blob.clone(),
        }],
        false,
    );
    assert_eq!(
        estimate_item_token_count(&item),
        tokens(json_len(&item) - 1_600 + 900)
    );
    let agent = ResponseItem::AgentMessage {
        id: None,
        author: "/root".to_string(),
        recipient: "/root/a".to_string(),
        content: vec![AgentMessageInputContent::EncryptedContent {
            encrypted_content: blob,
        }],
        internal_chat_message_metadata_passthrough: None,
    };
    assert_eq!(
        estimate_item_token_count(&agent),
        tokens(json_len(&agent) - 1_600 + 900)
    );
}

#[test]
fn encrypted_reasoning_and_compaction_use_the_blob_estimate() {
    let compaction = ResponseItem::Compaction {
        id: None,
        encrypted_content: "c".repeat(2_000),
        internal_chat_message_metadata_passthrough: None,
    };
    // 2000 * 3 / 4 - 650 = 850 bytes -> 213 tokens.
    assert_eq!(estimate_item_token_count(&compaction), 213);
    let small = ResponseItem::ContextCompaction {
        id: None,
        encrypted_content: Some("c".repeat(100)),
        internal_chat_message_metadata_passthrough: None,
    };
    assert_eq!(estimate_item_token_count(&small), 0);
}

#[test]
fn model_generated_items_are_what_the_model_wrote() {
    assert!(is_model_generated_item(&assistant("a")));
    assert!(is_model_generated_item(&function_call("c")));
    assert!(is_model_generated_item(&reasoning("r")));
    assert!(!is_model_generated_item(&user("u")));
    assert!(!is_model_generated_item(&function_output("c", "o")));
}
