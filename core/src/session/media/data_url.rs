//! `data:` URLs: the inline form images and audio take in history.
//!
//! Decoding is the `data-url` crate's (the Fetch standard's data-URL processor: the scheme
//! in any case, the media type parsed and lower-cased, base64 decoded forgivingly, a body
//! without `;base64` percent-decoded). What stays here is the small API the media code and
//! the exporter share: the owned [`DataUrl`] and its typed [`DataUrlError`], the cheap prefix
//! test [`is_data_url`], `is_remote_url`, and [`encode_data_url`] (base64 and `format!`).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// A decoded `data:` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataUrl {
    /// The media type's essence, lower-cased, without parameters (`image/png`); `text/plain`
    /// when the URL names none or an unparsable one, as the Fetch standard says.
    pub mime: String,
    /// The decoded bytes (from base64, or percent-decoded when the URL is not base64).
    pub bytes: Vec<u8>,
}

/// Why a `data:` URL could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataUrlError {
    #[error("not a data: URL")]
    NotDataUrl,
    #[error("data: URL has no comma separating header and payload")]
    MissingComma,
    #[error("data: URL payload is not valid base64: {0}")]
    InvalidBase64(String),
}

/// True when `url` starts with `data:` (any case).
pub fn is_data_url(url: &str) -> bool {
    url.get(..5)
        .is_some_and(|scheme| scheme.eq_ignore_ascii_case("data:"))
}

/// True for `http:` and `https:` URLs (any case): remote media the harness does not fetch.
pub(crate) fn is_remote_url(url: &str) -> bool {
    url.split_once(':').is_some_and(|(scheme, _)| {
        scheme.eq_ignore_ascii_case("http") || scheme.eq_ignore_ascii_case("https")
    })
}

/// Decodes a `data:` URL, base64 or percent-encoded; a fragment (`#...`) is dropped.
pub fn decode_data_url(url: &str) -> Result<DataUrl, DataUrlError> {
    if !is_data_url(url) {
        return Err(DataUrlError::NotDataUrl);
    }
    let parsed = ::data_url::DataUrl::process(url).map_err(|err| match err {
        ::data_url::DataUrlError::NotADataUrl => DataUrlError::NotDataUrl,
        ::data_url::DataUrlError::NoComma => DataUrlError::MissingComma,
    })?;
    let (bytes, _fragment) = parsed
        .decode_to_vec()
        .map_err(|err| DataUrlError::InvalidBase64(err.to_string()))?;
    let mime = parsed.mime_type();
    Ok(DataUrl {
        mime: format!("{}/{}", mime.type_, mime.subtype),
        bytes,
    })
}

/// Encodes bytes as a base64 `data:` URL.
pub fn encode_data_url(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", STANDARD.encode(bytes))
}

#[cfg(test)]
#[path = "data_url_tests.rs"]
mod tests;
