use pretty_assertions::assert_eq;

use super::{DataUrl, DataUrlError, decode_data_url, encode_data_url, is_data_url};

#[test]
fn a_base64_url_decodes_with_its_media_type_lower_cased() {
    assert_eq!(
        decode_data_url("DATA:Image/PNG;base64,aGVsbG8="),
        Ok(DataUrl {
            mime: "image/png".to_owned(),
            bytes: b"hello".to_vec(),
        })
    );
}

#[test]
fn encoding_then_decoding_gives_the_bytes_back() {
    let bytes = [0u8, 1, 2, 250, 255];
    let url = encode_data_url("audio/wav", &bytes);
    assert_eq!(url, "data:audio/wav;base64,AAEC+v8=");
    assert_eq!(
        decode_data_url(&url),
        Ok(DataUrl {
            mime: "audio/wav".to_owned(),
            bytes: bytes.to_vec(),
        })
    );
}

#[test]
fn a_percent_encoded_url_without_base64_is_percent_decoded() {
    assert_eq!(
        decode_data_url("data:text/plain;charset=utf-8,caf%C3%A9%2C%20ok#ignored"),
        Ok(DataUrl {
            mime: "text/plain".to_owned(),
            bytes: "café, ok".as_bytes().to_vec(),
        })
    );
}

#[test]
fn a_url_naming_no_media_type_is_plain_text() -> Result<(), DataUrlError> {
    assert_eq!(decode_data_url("data:,A%2CB")?.mime, "text/plain");
    assert_eq!(decode_data_url("data:;base64,QQ==")?.bytes, b"A");
    Ok(())
}

#[test]
fn malformed_urls_are_typed_errors() {
    assert_eq!(
        decode_data_url("https://example.com/a.png"),
        Err(DataUrlError::NotDataUrl)
    );
    assert_eq!(
        decode_data_url("data:image/png;base64"),
        Err(DataUrlError::MissingComma)
    );
    assert!(matches!(
        decode_data_url("data:image/png;base64,@@@"),
        Err(DataUrlError::InvalidBase64(_))
    ));
    assert!(matches!(
        decode_data_url("data:image/png;base64,AAAAA"),
        Err(DataUrlError::InvalidBase64(_))
    ));
}

#[test]
fn only_the_data_scheme_is_a_data_url() {
    assert!(is_data_url("data:,x"));
    assert!(is_data_url("Data:,x"));
    assert!(!is_data_url(" data:,x"));
    assert!(!is_data_url("dat"));
    assert!(!is_data_url("https://example.com"));
}
