use super::*;
use crate::session::media::test_images;
use codex_protocol::models::ContentItem;
use pretty_assertions::assert_eq;

fn content(item: &ResponseItem) -> Vec<ContentItem> {
    item.message_content()
        .map(<[_]>::to_vec)
        .unwrap_or_default()
}

#[test]
fn text_and_remote_image_keep_order_and_default_detail() {
    let inputs = vec![
        UserInput::text("first"),
        UserInput::Image {
            image_url: "https://example.com/cat.png".to_string(),
            detail: None,
        },
        UserInput::text("second"),
    ];
    let item = normalize_user_submission(&inputs, &InMemoryMediaFiles::new());
    assert_eq!(item.role(), Some("user"));
    assert_eq!(
        content(&item),
        vec![
            ContentItem::input_text("first"),
            ContentItem::input_image_url("https://example.com/cat.png", Some(ImageDetail::High)),
            ContentItem::input_text("second"),
        ]
    );
    assert!(matches!(
        item,
        ResponseItem::Message {
            phase: None,
            id: None,
            ..
        }
    ));
}

#[test]
fn local_image_is_read_and_inlined_between_label_tags() {
    let files = InMemoryMediaFiles::new().with_file("/tmp/shot.png", test_images::png(8, 8));
    let inputs = vec![UserInput::LocalImage {
        path: PathBuf::from("/tmp/shot.png"),
        detail: None,
    }];
    let parts = content(&normalize_user_submission(&inputs, &files));
    assert_eq!(parts.len(), 3);
    assert_eq!(
        parts[0].text(),
        Some("<image name=[Image #1] path=\"/tmp/shot.png\">")
    );
    assert!(
        parts[1]
            .image_url()
            .is_some_and(|url| url.starts_with("data:image/png;base64,"))
    );
    assert_eq!(parts[2].text(), Some("</image>"));
}

#[test]
fn missing_local_image_becomes_a_placeholder_naming_the_file() {
    let inputs = vec![
        UserInput::text("see attached"),
        UserInput::LocalImage {
            path: PathBuf::from("/nowhere/missing.png"),
            detail: None,
        },
    ];
    let parts = content(&normalize_user_submission(
        &inputs,
        &InMemoryMediaFiles::new(),
    ));
    assert_eq!(parts.len(), 2, "the message survives with a placeholder");
    assert_eq!(parts[0].text(), Some("see attached"));
    assert!(
        parts[1]
            .text()
            .is_some_and(|text| text.contains("/nowhere/missing.png"))
    );
}

#[test]
fn non_image_and_unsupported_formats_become_placeholders() {
    let files = InMemoryMediaFiles::new()
        .with_file("/tmp/notes.png", b"plain text".to_vec())
        .with_file("/tmp/old.bmp", b"BM....".to_vec());
    let inputs = vec![
        UserInput::LocalImage {
            path: PathBuf::from("/tmp/notes.png"),
            detail: None,
        },
        UserInput::LocalImage {
            path: PathBuf::from("/tmp/old.bmp"),
            detail: None,
        },
    ];
    let parts = content(&normalize_user_submission(&inputs, &files));
    assert!(
        parts[0]
            .text()
            .is_some_and(|t| t.contains("is invalid") && t.contains("/tmp/notes.png"))
    );
    assert!(
        parts[1]
            .text()
            .is_some_and(|t| t.contains("image/bmp") && t.contains("/tmp/old.bmp"))
    );
}

#[test]
fn local_audio_is_inlined_or_replaced() {
    let files = InMemoryMediaFiles::new().with_file("/tmp/voice.wav", vec![1, 2, 3]);
    let inputs = vec![
        UserInput::LocalAudio {
            path: PathBuf::from("/tmp/voice.wav"),
        },
        UserInput::LocalAudio {
            path: PathBuf::from("/tmp/voice.flac"),
        },
        UserInput::LocalAudio {
            path: PathBuf::from("/tmp/gone.mp3"),
        },
        UserInput::Audio {
            audio_url: "data:audio/ogg;base64,AAAA".to_string(),
        },
    ];
    let parts = content(&normalize_user_submission(&inputs, &files));
    assert_eq!(
        parts[0].text(),
        Some("<audio name=[Audio #1] path=\"/tmp/voice.wav\">")
    );
    assert_eq!(parts[1].audio_url(), Some("data:audio/wav;base64,AQID"));
    assert_eq!(parts[2].text(), Some("</audio>"));
    assert!(
        parts[3]
            .text()
            .is_some_and(|t| t.contains("/tmp/voice.flac"))
    );
    assert!(parts[4].text().is_some_and(|t| t.contains("/tmp/gone.mp3")));
    assert_eq!(parts[5].audio_url(), Some("data:audio/ogg;base64,AAAA"));
}
