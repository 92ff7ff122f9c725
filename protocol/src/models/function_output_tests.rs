//! Unit tests of `FunctionCallOutputPayload`: written body, every historical read form.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

fn read(value: Value) -> Result<FunctionCallOutputPayload, serde_json::Error> {
    serde_json::from_value(value)
}

#[test]
fn serializes_text_as_a_string_and_items_as_an_array() -> Result<(), serde_json::Error> {
    assert_eq!(
        serde_json::to_value(FunctionCallOutputPayload::from_text("done"))?,
        json!("done")
    );
    let items = FunctionCallOutputPayload::from_content_items(vec![
        FunctionCallOutputContentItem::input_text("caption"),
        FunctionCallOutputContentItem::input_image_url("data:image/png;base64,AA", None),
    ]);
    assert_eq!(
        serde_json::to_value(items)?,
        json!([
            {"type": "input_text", "text": "caption"},
            {"type": "input_image", "image_url": "data:image/png;base64,AA"}
        ])
    );
    Ok(())
}

#[test]
fn serializes_failure_as_string() -> Result<(), serde_json::Error> {
    let failed = FunctionCallOutputPayload::from_text("exit 1").with_success(false);
    assert_eq!(serde_json::to_string(&failed)?, "\"exit 1\"");
    Ok(())
}

#[test]
fn reads_string_and_array_without_success() -> Result<(), serde_json::Error> {
    let text = read(json!("ok"))?;
    assert_eq!(text, FunctionCallOutputPayload::from_text("ok"));
    assert_eq!(text.success, None);

    let items = read(json!([{"type": "encrypted_content", "encrypted_content": "enc_opaque"}]))?;
    assert_eq!(
        items.content_items(),
        Some(
            &[FunctionCallOutputContentItem::EncryptedContent {
                encrypted_content: "enc_opaque".to_string()
            }][..]
        )
    );
    Ok(())
}

#[test]
fn reads_a_json_encoded_string_verbatim() -> Result<(), serde_json::Error> {
    let raw = r#"{"output":"hi\n","metadata":{"exit_code":0}}"#;
    assert_eq!(read(json!(raw))?.text_content(), Some(raw));
    Ok(())
}

#[test]
fn reads_the_older_object_form() -> Result<(), serde_json::Error> {
    let text = read(json!({"content": "done", "success": false}))?;
    assert_eq!(
        text,
        FunctionCallOutputPayload::from_text("done").with_success(false)
    );

    let items = read(json!({
        "content": "[...]",
        "content_items": [{"type": "input_text", "text": "a"}],
        "success": true
    }))?;
    assert_eq!(
        items,
        FunctionCallOutputPayload::from_content_items(vec![
            FunctionCallOutputContentItem::input_text("a")
        ])
        .with_success(true)
    );
    assert_eq!(
        serde_json::to_value(&items)?,
        json!([{"type": "input_text", "text": "a"}])
    );
    Ok(())
}

#[test]
fn reads_a_single_content_item_object_as_a_list_of_one() -> Result<(), serde_json::Error> {
    let payload = read(json!({"type": "input_text", "text": "a.txt\n", "image_url": null}))?;
    assert_eq!(
        payload.content_items(),
        Some(&[FunctionCallOutputContentItem::input_text("a.txt\n")][..])
    );
    Ok(())
}

#[test]
fn keeps_unknown_content_items_as_text() -> Result<(), serde_json::Error> {
    let array = json!([{"type": "output_video", "url": "v"}]);
    let payload = read(array.clone())?;
    assert_eq!(payload.text_content(), Some(array.to_string().as_str()));
    Ok(())
}

#[test]
fn rejects_scalars_with_a_readable_error() {
    for value in [json!(null), json!(3), json!(true), json!({"unexpected": 1})] {
        let err = read(value.clone())
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(err.contains("tool output must be"), "{value}: {err}");
    }
}

#[test]
fn to_text_joins_non_blank_text_items() {
    let body = FunctionCallOutputBody::ContentItems(vec![
        FunctionCallOutputContentItem::input_text("one"),
        FunctionCallOutputContentItem::input_text("  "),
        FunctionCallOutputContentItem::input_image_url("u", None),
        FunctionCallOutputContentItem::input_text("two"),
    ]);
    assert_eq!(body.to_text().as_deref(), Some("one\ntwo"));
    let images_only =
        FunctionCallOutputBody::ContentItems(vec![FunctionCallOutputContentItem::input_image_url(
            "u", None,
        )]);
    assert_eq!(images_only.to_text(), None);
    assert_eq!(
        FunctionCallOutputBody::default().to_text().as_deref(),
        Some("")
    );
}

#[test]
fn display_prints_text_or_the_json_array() {
    assert_eq!(
        FunctionCallOutputPayload::from_text("plain").to_string(),
        "plain"
    );
    let items = FunctionCallOutputPayload::from_content_items(vec![
        FunctionCallOutputContentItem::input_text("a"),
    ]);
    assert_eq!(items.to_string(), r#"[{"type":"input_text","text":"a"}]"#);
}

#[test]
fn mutable_items_allow_in_place_edits() {
    let mut payload = FunctionCallOutputPayload::from_content_items(vec![
        FunctionCallOutputContentItem::input_image_url("u", Some(ImageDetail::Low)),
    ]);
    if let Some(items) = payload.content_items_mut() {
        items[0] = FunctionCallOutputContentItem::input_text("omitted");
    }
    assert_eq!(payload.body.to_text().as_deref(), Some("omitted"));
    assert!(
        FunctionCallOutputPayload::from_text("t")
            .content_items_mut()
            .is_none()
    );
}
