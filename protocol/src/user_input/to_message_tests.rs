//! Unit tests of the `UserInput` -> user message conversion, including the seed test
//! `serializes_image_user_input_without_tags`.

use std::path::Path;
use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;
use crate::models::ResponseItem;
use crate::user_input::ByteRange;
use crate::user_input::TextElement;

type TestResult = Result<(), Box<dyn std::error::Error>>;

/// A resolver that "reads" every path as a fixed data URL and records what it was asked.
#[derive(Default)]
struct FakeReader {
    requested: Vec<PathBuf>,
    fail_on: Option<PathBuf>,
}

impl LocalMediaResolver for FakeReader {
    fn resolve_image(
        &mut self,
        path: &Path,
        detail: Option<ImageDetail>,
    ) -> Result<ResolvedImage, MediaUnavailable> {
        self.requested.push(path.to_path_buf());
        if self.fail_on.as_deref() == Some(path) {
            return Err(MediaUnavailable::unreadable_image(
                path,
                "permission denied",
            ));
        }
        Ok(ResolvedImage {
            image_url: format!("data:image/png;base64,{}", path.display()),
            detail: detail.unwrap_or(DEFAULT_IMAGE_DETAIL),
        })
    }

    fn resolve_audio(&mut self, path: &Path) -> Result<String, MediaUnavailable> {
        self.requested.push(path.to_path_buf());
        match audio_mime_type_for_path(path) {
            Some(mime) => Ok(format!("data:{mime};base64,AAAA")),
            None => Err(MediaUnavailable::unsupported_audio(path)),
        }
    }
}

#[test]
fn serializes_image_user_input_without_tags() -> TestResult {
    let inputs = vec![UserInput::Image {
        image_url: "https://example.com/cat.png".to_string(),
        detail: None,
    }];
    let message: ResponseItem = user_input_message(&inputs, &mut RejectLocalMedia).into();
    let json = serde_json::to_value(&message)?;
    assert_eq!(
        json,
        json!({
            "type": "message",
            "role": "user",
            "content": [
                {"type": "input_image", "image_url": "https://example.com/cat.png", "detail": "high"}
            ]
        })
    );
    let content = json["content"]
        .as_array()
        .ok_or("content is not an array")?;
    assert_eq!(
        content.len(),
        1,
        "a remote image gets no <image> label texts"
    );
    assert!(
        !serde_json::to_string(&json)?.contains("<image"),
        "no wrapper tag anywhere in the message"
    );
    Ok(())
}

#[test]
fn remote_image_keeps_requested_detail() {
    let inputs = vec![UserInput::Image {
        image_url: "https://example.com/a.png".to_string(),
        detail: Some(ImageDetail::Low),
    }];
    let content = user_message_content(&inputs, &mut RejectLocalMedia).content;
    assert_eq!(
        content,
        vec![ContentItem::input_image_url(
            "https://example.com/a.png",
            Some(ImageDetail::Low)
        )]
    );
}

#[test]
fn text_becomes_input_text_and_drops_text_elements() {
    let inputs = vec![UserInput::Text {
        text: "hello [paste]".to_string(),
        text_elements: vec![TextElement::new(
            ByteRange::from(6..13),
            Some("[paste]".to_string()),
        )],
    }];
    let content = user_message_content(&inputs, &mut RejectLocalMedia).content;
    assert_eq!(content, vec![ContentItem::input_text("hello [paste]")]);
}

#[test]
fn local_image_is_framed_and_numbered_across_all_images() {
    let inputs = vec![
        UserInput::text("look"),
        UserInput::Image {
            image_url: "https://example.com/1.png".to_string(),
            detail: None,
        },
        UserInput::LocalImage {
            path: PathBuf::from("/tmp/a&\"<b>.png"),
            detail: Some(ImageDetail::Original),
        },
    ];
    let mut reader = FakeReader::default();
    let out = user_message_content(&inputs, &mut reader);
    assert_eq!(
        out.content,
        vec![
            ContentItem::input_text("look"),
            ContentItem::input_image_url("https://example.com/1.png", Some(ImageDetail::High)),
            ContentItem::input_text("<image name=[Image #2] path=\"/tmp/a&\"<b>.png\">"),
            ContentItem::input_image_url(
                "data:image/png;base64,/tmp/a&\"<b>.png",
                Some(ImageDetail::Original)
            ),
            ContentItem::input_text("</image>"),
        ]
    );
    assert_eq!(out.image_slots, vec![(1, 1), (2, 3)]);
    assert_eq!(reader.requested, vec![PathBuf::from("/tmp/a&\"<b>.png")]);
}

#[test]
fn unreadable_local_image_becomes_one_placeholder_and_the_message_survives() {
    let inputs = vec![
        UserInput::LocalImage {
            path: PathBuf::from("/tmp/gone.png"),
            detail: None,
        },
        UserInput::text("after"),
    ];
    let mut reader = FakeReader {
        fail_on: Some(PathBuf::from("/tmp/gone.png")),
        ..FakeReader::default()
    };
    let out = user_message_content(&inputs, &mut reader);
    assert_eq!(
        out.content,
        vec![
            ContentItem::input_text(
                "Codex could not read the local image at `/tmp/gone.png`: permission denied"
            ),
            ContentItem::input_text("after"),
        ]
    );
    assert!(out.image_slots.is_empty());
}

#[test]
fn reject_local_media_never_reads_and_keeps_the_rest() {
    let inputs = vec![
        UserInput::LocalAudio {
            path: PathBuf::from("/tmp/a.wav"),
        },
        UserInput::text("hi"),
    ];
    let content = user_message_content(&inputs, &mut RejectLocalMedia).content;
    assert_eq!(content.len(), 2);
    assert_eq!(
        content[0].text(),
        Some(
            "Codex could not read the local audio at `/tmp/a.wav`: local files are not available here"
        )
    );
}

#[test]
fn audio_inputs_are_numbered_and_local_audio_is_framed() {
    let inputs = vec![
        UserInput::Audio {
            audio_url: "data:audio/wav;base64,UklG".to_string(),
        },
        UserInput::LocalAudio {
            path: PathBuf::from("/tmp/voice.MP3"),
        },
        UserInput::LocalAudio {
            path: PathBuf::from("/tmp/voice.flac"),
        },
    ];
    let content = user_message_content(&inputs, &mut FakeReader::default()).content;
    assert_eq!(
        content,
        vec![
            ContentItem::input_audio("data:audio/wav;base64,UklG"),
            ContentItem::input_text("<audio name=[Audio #2] path=\"/tmp/voice.MP3\">"),
            ContentItem::input_audio("data:audio/mpeg;base64,AAAA"),
            ContentItem::input_text("</audio>"),
            ContentItem::input_text(
                "Codex cannot attach audio at `/tmp/voice.flac`: unsupported audio format; use \
                 wav, mp3, m4a, webm, or ogg."
            ),
        ]
    );
}

#[test]
fn skills_and_mentions_add_nothing_to_the_model_message() {
    let inputs = vec![
        UserInput::Skill {
            name: "demo".to_string(),
            path: PathBuf::from("skills/demo/SKILL.md"),
        },
        UserInput::Mention {
            name: "drive".to_string(),
            path: "app://drive".to_string(),
        },
    ];
    let message = user_input_message(&inputs, &mut RejectLocalMedia);
    assert_eq!(
        message,
        ResponseInputItem::Message {
            role: "user".to_string(),
            content: Vec::new(),
            phase: None,
        }
    );
}

#[test]
fn audio_mime_types_follow_the_extension() {
    let cases = [
        ("a.wav", Some("audio/wav")),
        ("a.mp3", Some("audio/mpeg")),
        ("a.m4a", Some("audio/mp4")),
        ("a.WEBM", Some("audio/webm")),
        ("a.ogg", Some("audio/ogg")),
        ("a.flac", None),
        ("noext", None),
    ];
    for (path, expected) in cases {
        assert_eq!(
            audio_mime_type_for_path(Path::new(path)),
            expected,
            "{path}"
        );
    }
}

#[test]
fn placeholder_texts_match_upstream_wording() {
    let path = Path::new("/x.png");
    assert_eq!(
        MediaUnavailable::invalid_image(path, "bad header").placeholder,
        "Image located at `/x.png` is invalid: bad header"
    );
    assert_eq!(
        MediaUnavailable::unsupported_image(path, "image/tiff").placeholder,
        "Codex cannot attach image at `/x.png`: unsupported image `image/tiff`."
    );
}

mod numbering {
    use proptest::prelude::*;

    use super::*;

    fn any_input() -> impl Strategy<Value = UserInput> {
        prop_oneof![
            "[a-z ]{0,8}".prop_map(UserInput::text),
            "[a-z]{1,6}".prop_map(|name| UserInput::Image {
                image_url: format!("https://example.com/{name}.png"),
                detail: None,
            }),
            "[a-z]{1,6}".prop_map(|name| UserInput::LocalImage {
                path: PathBuf::from(format!("/tmp/{name}.png")),
                detail: None,
            }),
            "[a-z]{1,6}".prop_map(|name| UserInput::LocalAudio {
                path: PathBuf::from(format!("/tmp/{name}.wav")),
            }),
            Just(UserInput::Mention {
                name: "m".to_string(),
                path: "app://m".to_string(),
            }),
        ]
    }

    proptest! {
        /// The k-th image input (remote or local) is `[Image #k]`, every local image gets
        /// exactly one open label and one close tag, and every image lands in a slot that
        /// holds an `input_image`.
        #[test]
        fn local_image_labels_count_every_image_input(inputs in prop::collection::vec(any_input(), 0..12)) {
            let out = user_message_content(&inputs, &mut FakeReader::default());
            let mut expected_labels = Vec::new();
            let mut image_number = 0;
            for input in &inputs {
                match input {
                    UserInput::Image { .. } => image_number += 1,
                    UserInput::LocalImage { path, .. } => {
                        image_number += 1;
                        expected_labels.push(format!(
                            "<image name=[Image #{image_number}] path=\"{}\">",
                            path.display()
                        ));
                    }
                    _ => {}
                }
            }
            let labels: Vec<String> = out
                .content
                .iter()
                .filter_map(ContentItem::text)
                .filter(|text| text.starts_with("<image name="))
                .map(str::to_string)
                .collect();
            prop_assert_eq!(labels, expected_labels);
            let closes = out.content.iter().filter(|item| item.text() == Some("</image>")).count();
            prop_assert_eq!(closes, inputs.iter().filter(|input| matches!(input, UserInput::LocalImage { .. })).count());
            prop_assert_eq!(out.image_slots.len(), image_number);
            for (input_index, content_index) in &out.image_slots {
                prop_assert!(inputs[*input_index].is_image());
                prop_assert!(out.content[*content_index].is_image());
            }
        }
    }
}
