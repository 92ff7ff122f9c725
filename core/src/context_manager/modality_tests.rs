use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ResponseItem;
use pretty_assertions::assert_eq;

use super::*;
use crate::context_manager::test_support::*;

fn media_message() -> ResponseItem {
    ResponseItem::message(
        "user",
        vec![
            ContentItem::input_text("look"),
            ContentItem::input_image_url("data:image/png;base64,AAAA", None),
            ContentItem::input_audio("data:audio/wav;base64,BBBB"),
        ],
    )
}

fn media_output(custom: bool) -> ResponseItem {
    let payload = FunctionCallOutputPayload::from_content_items(vec![
        FunctionCallOutputContentItem::input_text("caption"),
        FunctionCallOutputContentItem::input_image_url("https://example.com/a.png", None),
        FunctionCallOutputContentItem::InputAudio {
            audio_url: "data:audio/wav;base64,CCCC".to_string(),
        },
    ]);
    if custom {
        custom_output("m", "").clone_with_output(payload)
    } else {
        function_output("m", "").clone_with_output(payload)
    }
}

trait WithOutput {
    fn clone_with_output(self, payload: FunctionCallOutputPayload) -> ResponseItem;
}

impl WithOutput for ResponseItem {
    fn clone_with_output(mut self, payload: FunctionCallOutputPayload) -> ResponseItem {
        if let ResponseItem::FunctionCallOutput { output, .. }
        | ResponseItem::CustomToolCallOutput { output, .. } = &mut self
        {
            *output = payload;
        }
        self
    }
}

#[test]
fn for_prompt_strips_media_when_model_does_not_support_it() {
    let items = vec![
        media_message(),
        function_call("m"),
        media_output(false),
        custom_call("m"),
        media_output(true),
    ];

    let text_only = project(items.clone(), TEXT_ONLY);
    assert_eq!(
        text_only[0],
        ResponseItem::message(
            "user",
            vec![
                ContentItem::input_text("look"),
                ContentItem::input_text(IMAGE_OMITTED_PLACEHOLDER),
                ContentItem::input_text(AUDIO_OMITTED_PLACEHOLDER),
            ],
        )
    );
    let stripped_parts = vec![
        FunctionCallOutputContentItem::input_text("caption"),
        FunctionCallOutputContentItem::input_text(IMAGE_OMITTED_PLACEHOLDER),
        FunctionCallOutputContentItem::input_text(AUDIO_OMITTED_PLACEHOLDER),
    ];
    for index in [2, 4] {
        match &text_only[index] {
            ResponseItem::FunctionCallOutput { output, .. }
            | ResponseItem::CustomToolCallOutput { output, .. } => {
                assert_eq!(output.content_items(), Some(stripped_parts.as_slice()));
            }
            other => panic!("unexpected item {other:?}"),
        }
    }

    assert_eq!(project(items.clone(), ALL), items);

    let image_only = project(items.clone(), &[InputModality::Text, InputModality::Image]);
    assert_eq!(
        image_only[0]
            .message_content()
            .map(|parts| parts[1].is_image()),
        Some(true)
    );
    assert_eq!(
        image_only[0]
            .message_content()
            .and_then(|parts| parts[2].text()),
        Some(AUDIO_OMITTED_PLACEHOLDER)
    );

    let audio_ok = project(items, &[InputModality::Text, InputModality::Audio]);
    assert_eq!(
        audio_ok[0]
            .message_content()
            .map(|parts| parts[2].is_audio()),
        Some(true)
    );
}

fn image_generation(result: &str) -> ResponseItem {
    ResponseItem::ImageGenerationCall {
        encrypted_content: None,
        id: Some("ig_1".into()),
        status: "completed".to_string(),
        revised_prompt: Some("a cat".to_string()),
        result: result.to_string(),
        internal_chat_message_metadata_passthrough: None,
    }
}

#[test]
fn for_prompt_preserves_image_generation_calls_when_images_are_supported() {
    let items = vec![image_generation("iVBORw0KGgo=")];
    assert_eq!(project(items.clone(), ALL), items);
}

#[test]
fn for_prompt_clears_image_generation_result_when_images_are_unsupported() {
    let projected = project(vec![image_generation("iVBORw0KGgo=")], TEXT_ONLY);
    assert_eq!(projected, vec![image_generation("")]);
}
