//! Unit tests of `CallToolResult` and its conversion into a function output payload.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::models::FunctionCallOutputBody;

fn result(content: Vec<Value>) -> CallToolResult {
    CallToolResult {
        content,
        structured_content: None,
        is_error: None,
        meta: None,
    }
}

#[test]
fn wire_is_camel_case_with_underscore_meta() -> Result<(), serde_json::Error> {
    let value = CallToolResult {
        content: vec![json!({"type": "text", "text": "hi"})],
        structured_content: Some(json!({"n": 1})),
        is_error: Some(false),
        meta: Some(json!({"k": "v"})),
    };
    assert_eq!(
        serde_json::to_value(&value)?,
        json!({
            "content": [{"type": "text", "text": "hi"}],
            "structuredContent": {"n": 1},
            "isError": false,
            "_meta": {"k": "v"}
        })
    );
    assert_eq!(
        serde_json::to_value(result(vec![]))?,
        json!({"content": []}),
        "absent optionals are omitted"
    );
    Ok(())
}

#[test]
fn text_blocks_become_input_text_and_success_follows_is_error() {
    let payload =
        result(vec![json!({"type": "text", "text": "done"})]).into_function_call_output_payload();
    assert_eq!(
        payload.content_items(),
        Some(&[FunctionCallOutputContentItem::input_text("done")][..])
    );
    assert_eq!(payload.success, Some(true));

    let error = CallToolResult::from_error_text("boom").into_function_call_output_payload();
    assert_eq!(error.success, Some(false));
    assert_eq!(error.body.to_text().as_deref(), Some("boom"));
    assert!(!CallToolResult::from_result(Err("x".to_string())).success());
}

#[test]
fn encrypted_text_blocks_win_over_structured_content() {
    let mut value = result(vec![
        json!({"type": "text", "text": "enc", "_meta": {"codex/encryptedContent": true}}),
    ]);
    value.structured_content = Some(json!({"ignored": true}));
    let payload = value.into_function_call_output_payload();
    assert_eq!(
        payload.content_items(),
        Some(
            &[FunctionCallOutputContentItem::EncryptedContent {
                encrypted_content: "enc".to_string()
            }][..]
        )
    );
}

#[test]
fn structured_content_becomes_its_json_text() {
    let mut value = result(vec![json!({"type": "text", "text": "human"})]);
    value.structured_content = Some(json!({"answer": 42}));
    let payload = value.into_function_call_output_payload();
    assert_eq!(payload.text_content(), Some(r#"{"answer":42}"#));

    let mut null_structured = result(vec![json!({"type": "text", "text": "human"})]);
    null_structured.structured_content = Some(Value::Null);
    assert!(
        null_structured
            .into_function_call_output_payload()
            .content_items()
            .is_some(),
        "a null structuredContent is ignored"
    );
}

#[test]
fn images_become_data_urls_with_detail_from_meta() {
    let payload = result(vec![
        json!({"type": "image", "data": "AAAA", "mimeType": "image/png"}),
        json!({"type": "image", "data": "BBBB", "mime_type": "image/jpeg",
               "_meta": {"codex/imageDetail": "low"}}),
        json!({"type": "image", "data": "data:image/gif;base64,CCCC"}),
        json!({"type": "image", "data": "DDDD", "_meta": {"codex/imageDetail": "bogus"}}),
    ])
    .into_function_call_output_payload();
    let image = |url: &str, detail| FunctionCallOutputContentItem::InputImage {
        image_url: Some(url.to_string()),
        file_id: None,
        detail: Some(detail),
    };
    assert_eq!(
        payload.content_items(),
        Some(
            &[
                image("data:image/png;base64,AAAA", ImageDetail::High),
                image("data:image/jpeg;base64,BBBB", ImageDetail::Low),
                image("data:image/gif;base64,CCCC", ImageDetail::High),
                image(
                    "data:application/octet-stream;base64,DDDD",
                    ImageDetail::High
                ),
            ][..]
        )
    );
}

#[test]
fn audio_and_unknown_blocks() {
    let link = json!({"type": "resource_link", "uri": "file:///a"});
    let broken_audio = json!({"type": "audio"});
    let payload = result(vec![
        json!({"type": "audio", "data": "AAAA", "mimeType": "audio/wav"}),
        link.clone(),
        broken_audio.clone(),
    ])
    .into_function_call_output_payload();
    assert_eq!(
        payload.body,
        FunctionCallOutputBody::ContentItems(vec![
            FunctionCallOutputContentItem::InputAudio {
                audio_url: "data:audio/wav;base64,AAAA".to_string()
            },
            FunctionCallOutputContentItem::input_text(link.to_string()),
            FunctionCallOutputContentItem::input_text(broken_audio.to_string()),
        ])
    );
}
