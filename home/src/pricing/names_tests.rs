use pretty_assertions::assert_eq;

use super::*;

#[test]
fn provider_prefixes_dates_and_dashed_versions_are_aliases() {
    assert_eq!(candidates("gpt-5.4"), ["gpt-5.4"]);
    assert_eq!(candidates("openai/gpt-5.4"), ["openai/gpt-5.4", "gpt-5.4"]);
    assert_eq!(
        candidates("gpt-5-1-codex-2025-11-13"),
        ["gpt-5-1-codex-2025-11-13", "gpt-5-1-codex", "gpt-5.1-codex"]
    );
    assert_eq!(
        candidates("azure/gpt-5.1-codex-20251113"),
        [
            "azure/gpt-5.1-codex-20251113",
            "gpt-5.1-codex-20251113",
            "azure/gpt-5.1-codex",
            "gpt-5.1-codex"
        ]
    );
    // Not a date: kept.
    assert_eq!(candidates("gpt-4o-mini"), ["gpt-4o-mini"]);
}
