use super::test_images::png_data_url;
use super::*;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ImageDetail;
use pretty_assertions::assert_eq;

fn texts(item: &ResponseItem) -> Vec<String> {
    item.message_content()
        .unwrap_or_default()
        .iter()
        .filter_map(|part| part.text().map(str::to_string))
        .collect()
}

#[test]
fn failed_images_become_placeholders_and_the_message_survives() {
    let mut items = vec![ResponseItem::message(
        "user",
        vec![
            ContentItem::input_text("look"),
            ContentItem::input_image_url("data:image/png;base64,not-base64!", None),
            ContentItem::input_image_url("https://example.com/a.png", None),
            ContentItem::input_image_url(png_data_url(32, 32), Some(ImageDetail::Low)),
            ContentItem::input_image_url(png_data_url(32, 32), None),
        ],
    )];
    let metadata = prepare_media_items(&mut items, &MediaSettings::default());
    assert_eq!(items.len(), 1);
    assert_eq!(
        texts(&items[0]),
        vec![
            "look".to_string(),
            ImagePreparationError::Unprocessable.to_string(),
            ImagePreparationError::RemoteUrlUnsupported.to_string(),
            ImagePreparationError::UnsupportedLowDetail.to_string(),
        ]
    );
    assert_eq!(metadata.len(), 1);
    assert_eq!(metadata[0].message_role.as_deref(), Some("user"));
}

#[test]
fn tool_output_images_and_audio_are_prepared_too() {
    let mut items = vec![ResponseItem::function_call_output(
        "call_1",
        FunctionCallOutputPayload::from_content_items(vec![
            FunctionCallOutputContentItem::input_image_url("data:image/png;base64,AAAA", None),
            FunctionCallOutputContentItem::InputAudio {
                audio_url: "data:audio/flac;base64,AAAA".to_string(),
            },
        ]),
    )];
    prepare_media_items(&mut items, &MediaSettings::default());
    let ResponseItem::FunctionCallOutput { output, .. } = &items[0] else {
        panic!("item kind changed");
    };
    assert_eq!(
        output.content_items().map(<[_]>::to_vec),
        Some(vec![
            FunctionCallOutputContentItem::input_text(
                ImagePreparationError::Unprocessable.to_string()
            ),
            FunctionCallOutputContentItem::input_text(
                AudioPreparationError::UnsupportedFormat.to_string()
            ),
        ])
    );
}

#[test]
fn audio_checks_format_size_and_decoding() {
    let settings = MediaSettings {
        max_audio_bytes: 4,
        ..MediaSettings::default()
    };
    let ok = "data:audio/wav;base64,AAAA";
    let too_big = "data:audio/mpeg;base64,AAAAAAAA";
    let broken = "data:audio/ogg;base64,***";
    assert_eq!(audio::prepare_audio(ok, &settings), Ok(()));
    assert_eq!(
        audio::prepare_audio(too_big, &settings),
        Err(AudioPreparationError::TooLarge)
    );
    assert_eq!(
        audio::prepare_audio(broken, &settings),
        Err(AudioPreparationError::Unprocessable)
    );
    assert_eq!(audio::prepare_audio("https://x/a.wav", &settings), Ok(()));
}

#[derive(Debug)]
struct HalvingResizer;

impl ImageResizer for HalvingResizer {
    fn resize(
        &self,
        _: &[u8],
        _: ImageInfo,
        width: u32,
        height: u32,
    ) -> Result<(String, Vec<u8>), String> {
        Ok(("image/png".to_string(), test_images::png(width, height)))
    }
}

#[test]
fn resized_images_get_a_notice_after_their_item() {
    let settings = MediaSettings {
        resize_notice: true,
        resizer: Some(Arc::new(HalvingResizer)),
        ..MediaSettings::default()
    };
    let mut items = vec![
        ResponseItem::message(
            "user",
            vec![ContentItem::input_image_url(png_data_url(4096, 4096), None)],
        ),
        ResponseItem::user_text("next"),
    ];
    let metadata = prepare_media_items(&mut items, &settings);
    assert_eq!(items.len(), 3);
    assert_eq!(items[1].role(), Some("developer"));
    assert!(texts(&items[1])[0].starts_with("<image_resize_notice>"));
    assert_eq!(texts(&items[2]), vec!["next".to_string()]);
    assert!(metadata[0].resized);
    assert_eq!((metadata[0].source_width, metadata[0].width), (4096, 1600));
}

#[test]
fn over_budget_image_without_resizer_is_kept() {
    let url = png_data_url(4096, 4096);
    let mut items = vec![ResponseItem::message(
        "user",
        vec![ContentItem::input_image_url(url.clone(), None)],
    )];
    let metadata = prepare_media_items(&mut items, &MediaSettings::default());
    assert_eq!(
        items[0].message_content().and_then(|c| c[0].image_url()),
        Some(url.as_str())
    );
    assert!(!metadata[0].resized);
}

#[test]
fn mode_for_model_needs_feature_and_capability() {
    assert_eq!(
        ImagePreparationMode::for_model(true, true, false),
        ImagePreparationMode::UnifiedBudget
    );
    assert_eq!(
        ImagePreparationMode::for_model(true, false, true),
        ImagePreparationMode::UnifiedBudget
    );
    assert_eq!(
        ImagePreparationMode::for_model(true, false, false),
        ImagePreparationMode::DetailBased
    );
    assert_eq!(
        ImagePreparationMode::for_model(false, true, true),
        ImagePreparationMode::DetailBased
    );
}
