//! Unit tests of `UserInput`: wire spellings and text-element handling.

use std::path::PathBuf;

use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

#[test]
fn text_input_always_writes_text_elements() -> TestResult {
    let json = serde_json::to_value(UserInput::text("hello"))?;
    assert_eq!(
        json,
        json!({"type": "text", "text": "hello", "text_elements": []})
    );
    Ok(())
}

#[test]
fn text_input_reads_without_text_elements() -> TestResult {
    let input: UserInput = serde_json::from_value(json!({"type": "text", "text": "hi"}))?;
    assert_eq!(input, UserInput::text("hi"));
    Ok(())
}

#[test]
fn every_user_input_variant_round_trips_with_its_wire_tag() -> TestResult {
    let cases = vec![
        (
            UserInput::Image {
                image_url: "https://example.com/a.png".to_string(),
                detail: None,
            },
            json!({"type": "image", "image_url": "https://example.com/a.png"}),
        ),
        (
            UserInput::Image {
                image_url: "data:image/png;base64,AA".to_string(),
                detail: Some(ImageDetail::Original),
            },
            json!({"type": "image", "image_url": "data:image/png;base64,AA", "detail": "original"}),
        ),
        (
            UserInput::LocalImage {
                path: PathBuf::from("/tmp/a.png"),
                detail: Some(ImageDetail::Low),
            },
            json!({"type": "local_image", "path": "/tmp/a.png", "detail": "low"}),
        ),
        (
            UserInput::Audio {
                audio_url: "data:audio/wav;base64,AA".to_string(),
            },
            json!({"type": "audio", "audio_url": "data:audio/wav;base64,AA"}),
        ),
        (
            UserInput::LocalAudio {
                path: PathBuf::from("/tmp/a.wav"),
            },
            json!({"type": "local_audio", "path": "/tmp/a.wav"}),
        ),
        (
            UserInput::Skill {
                name: "demo".to_string(),
                path: PathBuf::from("skills/demo/SKILL.md"),
            },
            json!({"type": "skill", "name": "demo", "path": "skills/demo/SKILL.md"}),
        ),
        (
            UserInput::Mention {
                name: "drive".to_string(),
                path: "app://drive".to_string(),
            },
            json!({"type": "mention", "name": "drive", "path": "app://drive"}),
        ),
    ];
    for (input, expected) in cases {
        let json = serde_json::to_value(&input)?;
        assert_eq!(json, expected);
        let back: UserInput = serde_json::from_value(json)?;
        assert_eq!(back, input);
    }
    Ok(())
}

#[test]
fn text_element_writes_placeholder_null_and_falls_back_to_the_slice() -> TestResult {
    let element = TextElement::new(ByteRange::from(6..11), None);
    assert_eq!(
        serde_json::to_value(&element)?,
        json!({"byte_range": {"start": 6, "end": 11}, "placeholder": null})
    );
    assert_eq!(element.placeholder("hello world"), Some("world"));
    let named = TextElement::new(ByteRange::from(0..5), Some("[Pasted]".to_string()));
    assert_eq!(named.placeholder("hello world"), Some("[Pasted]"));
    Ok(())
}

#[test]
fn text_element_out_of_range_or_mid_character_gives_none() {
    let past_end = TextElement::new(ByteRange::from(3..40), None);
    assert_eq!(past_end.placeholder("short"), None);
    let mid_char = TextElement::new(ByteRange::from(1..2), None);
    assert_eq!(mid_char.placeholder("é"), None);
}

#[test]
fn text_element_reads_without_placeholder_key() -> TestResult {
    let element: TextElement =
        serde_json::from_value(json!({"byte_range": {"start": 0, "end": 1}}))?;
    assert_eq!(element.placeholder, None);
    Ok(())
}

#[test]
fn unknown_user_input_type_is_an_error() {
    let result = serde_json::from_value::<UserInput>(json!({"type": "video", "url": "x"}));
    assert!(result.is_err());
}
