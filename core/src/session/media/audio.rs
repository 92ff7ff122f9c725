//! Preparing one inline audio clip for history: validate format and size.

use super::MediaSettings;
use super::data_url::decode_data_url;
use super::data_url::is_data_url;

/// Why an audio clip was replaced by a placeholder. The `Display` text is the placeholder the
/// model reads, in the upstream wording.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AudioPreparationError {
    #[error("audio content omitted because it could not be processed")]
    /// The audio could not be decoded.
    Unprocessable,
    #[error(
        "audio content omitted because it exceeded the supported size limit; use a smaller audio file"
    )]
    /// The audio is larger than the model accepts.
    TooLarge,
    #[error(
        "audio content omitted because its format is not supported; use wav, mp3, m4a, webm, or ogg"
    )]
    /// The audio's format is not one the model reads.
    UnsupportedFormat,
}

/// MIME types accepted for audio (wav, mp3, m4a, webm, ogg and their common aliases).
const SUPPORTED_AUDIO_MIMES: &[&str] = &[
    "audio/wav",
    "audio/x-wav",
    "audio/wave",
    "audio/mpeg",
    "audio/mp3",
    "audio/mp4",
    "audio/m4a",
    "audio/x-m4a",
    "audio/webm",
    "audio/ogg",
];

/// Validates one audio URL. Non-`data:` references pass through; a `data:` clip must decode,
/// have a supported MIME type and fit the byte limit.
pub(crate) fn prepare_audio(
    audio_url: &str,
    settings: &MediaSettings,
) -> Result<(), AudioPreparationError> {
    if !is_data_url(audio_url) {
        return Ok(());
    }
    let decoded = decode_data_url(audio_url).map_err(|err| {
        tracing::debug!(%err, "audio data URL could not be decoded");
        AudioPreparationError::Unprocessable
    })?;
    if !SUPPORTED_AUDIO_MIMES.contains(&decoded.mime.as_str()) {
        return Err(AudioPreparationError::UnsupportedFormat);
    }
    if decoded.bytes.is_empty() {
        return Err(AudioPreparationError::Unprocessable);
    }
    if decoded.bytes.len() > settings.max_audio_bytes {
        return Err(AudioPreparationError::TooLarge);
    }
    Ok(())
}
