//! `data:` URLs: the inline form images and audio take in history.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// A decoded `data:<mime>;base64,<payload>` URL.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DataUrl {
    /// The declared media type, lower-cased (`image/png`); may be empty.
    pub mime: String,
    /// The decoded bytes.
    pub bytes: Vec<u8>,
}

/// Why a `data:` URL could not be decoded.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DataUrlError {
    #[error("not a data: URL")]
    NotDataUrl,
    #[error("data: URL has no comma separating header and payload")]
    MissingComma,
    #[error("data: URL payload is not base64-encoded")]
    NotBase64Encoded,
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

/// Decodes a base64 `data:` URL.
pub fn decode_data_url(url: &str) -> Result<DataUrl, DataUrlError> {
    if !is_data_url(url) {
        return Err(DataUrlError::NotDataUrl);
    }
    let rest = url.get(5..).unwrap_or_default();
    let (header, payload) = rest.split_once(',').ok_or(DataUrlError::MissingComma)?;
    let mut parts = header.split(';');
    let mime = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
    if !parts.any(|part| part.trim().eq_ignore_ascii_case("base64")) {
        return Err(DataUrlError::NotBase64Encoded);
    }
    let bytes = STANDARD
        .decode(payload.trim())
        .map_err(|err| DataUrlError::InvalidBase64(err.to_string()))?;
    Ok(DataUrl { mime, bytes })
}

/// Encodes bytes as a base64 `data:` URL.
pub fn encode_data_url(mime: &str, bytes: &[u8]) -> String {
    format!("data:{mime};base64,{}", STANDARD.encode(bytes))
}
