use super::*;
use pretty_assertions::assert_eq;

const MODEL: &str = "gpt-test";
const DEFAULT: &str = "You are a coding agent.";

#[test]
fn configured_override_wins_over_restored_and_default() {
    let restored = BaseInstructions::new("restored rules");
    let resolved = resolve_base_instructions(Some("override"), Some(&restored), MODEL, DEFAULT);
    assert_eq!(resolved.text, "override");
    assert_eq!(
        resolved.provenance,
        Some(BaseInstructionsProvenance::Custom)
    );
}

#[test]
fn restored_value_wins_over_model_default() {
    let restored = BaseInstructions {
        text: "old rules".to_string(),
        provenance: Some(BaseInstructionsProvenance::Model {
            model: "older-model".to_string(),
        }),
    };
    let resolved = resolve_base_instructions(None, Some(&restored), MODEL, DEFAULT);
    assert_eq!(resolved, restored);
}

#[test]
fn restored_value_without_provenance_is_attributed_to_model_only_when_equal() {
    let same = BaseInstructions::new(DEFAULT);
    let resolved = resolve_base_instructions(None, Some(&same), MODEL, DEFAULT);
    assert_eq!(
        resolved.provenance,
        Some(BaseInstructionsProvenance::Model {
            model: MODEL.to_string()
        })
    );
    let other = BaseInstructions::new("hand written");
    let resolved = resolve_base_instructions(None, Some(&other), MODEL, DEFAULT);
    assert_eq!(resolved.text, "hand written");
    assert_eq!(resolved.provenance, None);
}

#[test]
fn new_session_falls_back_to_model_default() {
    let resolved = resolve_base_instructions(None, None, MODEL, DEFAULT);
    assert_eq!(resolved.text, DEFAULT);
    assert_eq!(
        resolved.provenance,
        Some(BaseInstructionsProvenance::Model {
            model: MODEL.to_string()
        })
    );
}

#[test]
fn empty_override_is_still_an_override() {
    let resolved = resolve_base_instructions(Some(""), None, MODEL, DEFAULT);
    assert_eq!(resolved.text, "");
    assert_eq!(
        resolved.provenance,
        Some(BaseInstructionsProvenance::Custom)
    );
}
