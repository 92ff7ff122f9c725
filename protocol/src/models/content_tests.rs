//! Unit tests of message content: phases, image detail, image forms, text accessors.

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

#[test]
fn message_phase_spellings_round_trip() -> Result<(), serde_json::Error> {
    for (phase, wire) in [
        (MessagePhase::Commentary, "commentary"),
        (MessagePhase::PartialAnswer, "partial_answer"),
        (MessagePhase::FinalAnswer, "final_answer"),
        (MessagePhase::Unknown("output".to_string()), "output"),
    ] {
        assert_eq!(serde_json::to_value(&phase)?, json!(wire));
        assert_eq!(serde_json::from_value::<MessagePhase>(json!(wire))?, phase);
        assert_eq!(phase.as_str(), wire);
    }
    Ok(())
}

#[test]
fn image_detail_is_lowercase() -> Result<(), serde_json::Error> {
    assert_eq!(
        serde_json::to_value(ImageDetail::Original)?,
        json!("original")
    );
    assert_eq!(
        serde_json::from_value::<ImageDetail>(json!("auto"))?,
        ImageDetail::Auto
    );
    assert_eq!(DEFAULT_IMAGE_DETAIL, ImageDetail::High);
    Ok(())
}

#[test]
fn input_image_reads_url_file_and_null_forms() -> Result<(), serde_json::Error> {
    let url: ContentItem =
        serde_json::from_value(json!({"type": "input_image", "image_url": "https://x/y.png"}))?;
    assert_eq!(url, ContentItem::input_image_url("https://x/y.png", None));
    assert_eq!(url.image_url(), Some("https://x/y.png"));

    let file: ContentItem = serde_json::from_value(
        json!({"type": "input_image", "file_id": "file_123", "detail": "low"}),
    )?;
    assert_eq!(
        file,
        ContentItem::input_image_file("file_123", Some(ImageDetail::Low))
    );
    assert_eq!(
        serde_json::to_value(&file)?,
        json!({"type": "input_image", "file_id": "file_123", "detail": "low"})
    );

    let null: ContentItem = serde_json::from_value(
        json!({"type": "input_image", "image_url": null, "detail": "auto"}),
    )?;
    assert_eq!(null.image_url(), None);
    assert!(null.is_image());
    Ok(())
}

#[test]
fn output_text_keeps_empty_provider_metadata() -> Result<(), serde_json::Error> {
    let wire = json!({"type": "output_text", "text": "hi", "annotations": [], "logprobs": []});
    let item: ContentItem = serde_json::from_value(wire.clone())?;
    assert_eq!(serde_json::to_value(&item)?, wire);
    assert_eq!(
        serde_json::to_value(ContentItem::output_text("hi"))?,
        json!({"type": "output_text", "text": "hi"})
    );
    Ok(())
}

#[test]
fn text_accessor_covers_input_and_output_text() {
    assert_eq!(ContentItem::input_text("a").text(), Some("a"));
    assert_eq!(ContentItem::output_text("b").text(), Some("b"));
    assert_eq!(
        ContentItem::input_audio("data:audio/wav;base64,AA").text(),
        None
    );
    assert_eq!(
        ContentItem::input_audio("data:audio/wav;base64,AA").audio_url(),
        Some("data:audio/wav;base64,AA")
    );
}

#[test]
fn plaintext_agent_message_content_rules() {
    let text = |t: &str| AgentMessageInputContent::InputText {
        text: t.to_string(),
    };
    assert_eq!(
        plaintext_agent_message_content(&[text("a"), text("b")]).as_deref(),
        Some("a\nb")
    );
    assert_eq!(
        plaintext_agent_message_content(&[text(" "), text("")]),
        None
    );
    assert_eq!(plaintext_agent_message_content(&[]), None);
    let encrypted = AgentMessageInputContent::EncryptedContent {
        encrypted_content: "x".to_string(),
    };
    assert_eq!(
        plaintext_agent_message_content(&[text("a"), encrypted]),
        None
    );
}
