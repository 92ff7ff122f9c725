//! `codex-thread prompt [FILE] [--lite] [--modalities text,image]`: the request body the next
//! sampling step of the resumed session would send: codex-home's
//! `SessionHistory::next_request` (the history rebuilt as `history` rebuilds it, a fork by
//! reference resolved through the Codex home, then projected and encoded as Codex sends it
//! when it resumes the thread), printed as JSON.

use std::path::PathBuf;

use codex_core::InputModality;

use crate::cli::Modality;
use crate::error::{CommandResult, Status};
use crate::input::Source;
use crate::output::Output;
use crate::session_history;

/// Runs `prompt`.
pub(crate) fn run(
    source: &Source,
    lite: bool,
    modalities: &[Modality],
    home: Option<PathBuf>,
    out: &mut Output,
) -> CommandResult {
    let session = session_history::load(source, home)?;
    let modalities: Vec<InputModality> = modalities
        .iter()
        .map(|modality| match modality {
            Modality::Text => InputModality::Text,
            Modality::Image => InputModality::Image,
            Modality::Audio => InputModality::Audio,
        })
        .collect();
    let request = session.next_request(lite, &modalities);
    out.json_document(&request.body)?;
    Ok(Status::Ok)
}
