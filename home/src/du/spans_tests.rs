use proptest::prelude::*;
use serde_json::{Value, json};

use super::*;

fn spans(line: &str) -> Vec<(SpanKind, String)> {
    let mut found = Vec::new();
    scan_spans(line.as_bytes(), |kind, range| {
        found.push((kind, line[range].to_string()))
    });
    found
}

#[test]
fn finds_images_and_encrypted_values_with_their_quotes() {
    let line = r#"{"type":"response_item","payload":{"type":"message","content":[{"type":"input_image","image_url":"data:image/png;base64,AAAA"}],"encrypted_content":"gAAA\"x"}}"#;
    assert_eq!(
        spans(line),
        vec![
            (
                SpanKind::Image,
                r#""data:image/png;base64,AAAA""#.to_string()
            ),
            (SpanKind::Encrypted, r#""gAAA\"x""#.to_string()),
        ]
    );
}

#[test]
fn keys_nested_strings_and_non_string_values_are_not_spans() {
    // A key spelled like an image, an image inside another string's text, a null
    // `encrypted_content`, and a string after it in an array.
    let line = r#"{"data:image/x":1,"output":"{\"u\":\"data:image/png;base64,AA\"}","encrypted_content":null,"a":["encrypted_content","x"]}"#;
    assert_eq!(spans(line), vec![]);
}

#[test]
fn whitespace_between_tokens_is_allowed() {
    let line = r#"{ "encrypted_content" : "abc" , "u" : [ "data:image/jpeg;base64,/9j" ] }"#;
    assert_eq!(
        spans(line),
        vec![
            (SpanKind::Encrypted, r#""abc""#.to_string()),
            (
                SpanKind::Image,
                r#""data:image/jpeg;base64,/9j""#.to_string()
            ),
        ]
    );
}

#[test]
fn a_truncated_line_keeps_the_spans_before_the_cut() {
    let line = r#"{"a":"data:image/png;base64,AA","b":"data:image/png;base64,BB"#;
    assert_eq!(
        spans(line),
        vec![(SpanKind::Image, r#""data:image/png;base64,AA""#.to_string())]
    );
}

/// What the scanner must find in `value`: its rule restated over a parsed value.
fn expected(value: &Value, key: Option<&str>, out: &mut Vec<(SpanKind, String)>) {
    match value {
        Value::String(text) => {
            let written = serde_json::to_string(text).unwrap_or_default();
            if key == Some("encrypted_content") {
                out.push((SpanKind::Encrypted, written));
            } else if text.starts_with("data:image/") {
                out.push((SpanKind::Image, written));
            }
        }
        Value::Array(values) => values.iter().for_each(|v| expected(v, None, out)),
        Value::Object(map) => map.iter().for_each(|(k, v)| expected(v, Some(k), out)),
        _ => {}
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let text = prop_oneof![
        "[a-z\"\\\\/ ]{0,8}".prop_map(Value::String),
        "[A-Za-z0-9+/=\"]{0,12}".prop_map(|b| Value::String(format!("data:image/png;base64,{b}"))),
        Just(Value::Null),
        any::<i32>().prop_map(|n| json!(n)),
        any::<bool>().prop_map(Value::Bool),
    ];
    text.prop_recursive(4, 40, 6, |inner| {
        let key = prop_oneof![
            Just("encrypted_content".to_string()),
            Just("data:image/k".to_string()),
            "[a-z\"]{1,5}",
        ];
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
            prop::collection::vec((key, inner), 0..5)
                .prop_map(|pairs| Value::Object(pairs.into_iter().collect())),
        ]
    })
}

proptest! {
    #[test]
    fn agrees_with_serde_json(value in json_value(), pretty in any::<bool>()) {
        let line = if pretty {
            serde_json::to_string_pretty(&value).unwrap_or_default()
        } else {
            serde_json::to_string(&value).unwrap_or_default()
        };
        let mut want = Vec::new();
        expected(&value, None, &mut want);
        prop_assert_eq!(spans(&line), want);
    }
}
