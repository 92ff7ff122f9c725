//! The images of a session in words: what codex-core's `SessionImage` says each is (inline and
//! recognized from its header, unreadable, a local file, remote, missing), described.

pub(crate) use codex_core::SessionImage as Image;

/// A short description: `PNG 800×600, 12.3 KB`, or why it is not shown.
pub(crate) fn describe(image: &Image) -> String {
    match image {
        Image::Inline { info, bytes, .. } => {
            let kind = info.format.mime().strip_prefix("image/").unwrap_or("image");
            format!(
                "{} {}×{}, {}",
                kind.to_ascii_uppercase(),
                info.width,
                info.height,
                human_bytes(*bytes)
            )
        }
        Image::Unreadable(Some(bytes)) => format!("not a readable image ({})", human_bytes(*bytes)),
        Image::Unreadable(None) => "not a readable image (bad data URL)".to_string(),
        Image::LocalFile(_) => "local file, not embedded".to_string(),
        Image::Remote(_) => "remote image, not fetched".to_string(),
        Image::Missing(_) => "image missing from the file (redacted or trimmed)".to_string(),
    }
}

/// A byte count as people read it (`1.2 MiB`): the transcript model's words.
pub(crate) fn human_bytes(bytes: usize) -> String {
    codex_app_server_protocol::transcript::human_bytes(u64::try_from(bytes).unwrap_or(u64::MAX))
}
