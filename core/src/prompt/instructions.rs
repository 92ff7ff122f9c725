//! Choosing the base instructions of a session.

use codex_protocol::models::BaseInstructions;
use codex_protocol::models::BaseInstructionsProvenance;

/// Picks the session's base instructions: the configured override, else the value restored
/// from the session record, else the model's default.
///
/// Why this order: an explicit configuration always wins; without one, a resumed session keeps
/// the instructions it was started with (recorded in its session metadata) so a newer model
/// catalogue cannot silently swap the rules of an old conversation; only a new session falls
/// back to the current model's default. The provenance says where the text came from: `Custom`
/// for an override, the recorded provenance for a restored value (or `Model` when the text is
/// the current model default), `Model` for the default.
pub fn resolve_base_instructions(
    configured_override: Option<&str>,
    restored_session_value: Option<&BaseInstructions>,
    model_slug: &str,
    model_default: &str,
) -> BaseInstructions {
    if let Some(text) = configured_override {
        return BaseInstructions {
            text: text.to_string(),
            provenance: Some(BaseInstructionsProvenance::Custom),
        };
    }
    if let Some(restored) = restored_session_value {
        let provenance = restored.provenance.clone().or_else(|| {
            (restored.text == model_default).then(|| BaseInstructionsProvenance::Model {
                model: model_slug.to_string(),
            })
        });
        return BaseInstructions {
            text: restored.text.clone(),
            provenance,
        };
    }
    BaseInstructions {
        text: model_default.to_string(),
        provenance: Some(BaseInstructionsProvenance::Model {
            model: model_slug.to_string(),
        }),
    }
}

#[cfg(test)]
#[path = "instructions_tests.rs"]
mod tests;
