use super::*;
use pretty_assertions::assert_eq;
use serde_json::json;

#[test]
fn lite_tools_fold_functions_into_one_namespace_at_first_position() {
    let tools = vec![
        ToolSpec::raw(json!({"type":"web_search"})),
        ToolSpec::function("shell", "Runs.", json!({"type":"object"})),
        ToolSpec::raw(json!({"type":"local_shell"})),
        ToolSpec::freeform("apply_patch", "Edits.", json!({"type":"grammar"})),
    ];
    let folded = lite_tools(&tools, true);
    let types: Vec<&str> = folded
        .iter()
        .filter_map(|tool| tool["type"].as_str())
        .collect();
    assert_eq!(types, vec!["web_search", "namespace", "local_shell"]);
    let inner: Vec<&str> = folded[1]["tools"]
        .as_array()
        .map(|tools| {
            tools
                .iter()
                .filter_map(|tool| tool["name"].as_str())
                .collect()
        })
        .unwrap_or_default();
    assert_eq!(inner, vec!["shell", "apply_patch"]);
}

#[test]
fn lite_tools_without_namespace_support_keep_the_plain_list() {
    let tools = vec![
        ToolSpec::function("shell", "Runs.", json!({"type":"object"})),
        ToolSpec::raw(json!({"type":"web_search"})),
    ];
    let plain = lite_tools(&tools, false);
    assert_eq!(
        plain,
        tools
            .iter()
            .map(|tool| tool.as_json().clone())
            .collect::<Vec<_>>()
    );
}

#[test]
fn no_foldable_tools_means_no_namespace() {
    let tools = vec![ToolSpec::raw(json!({"type":"web_search"}))];
    assert_eq!(lite_tools(&tools, true), vec![json!({"type":"web_search"})]);
}

#[test]
fn a_history_that_records_its_tools_gets_no_prefix() {
    let recorded = ResponseItem::AdditionalTools {
        id: None,
        role: "developer".to_string(),
        tools: vec![json!({"type": "namespace", "name": "functions", "tools": []})],
    };
    let user = ResponseItem::message("user", vec![ContentItem::input_text("hi")]);
    let base = codex_protocol::models::BaseInstructions::new("You are Codex.".to_string());
    let fresh = Prompt::new(base.clone(), vec![user.clone()]);
    assert_eq!(lite_input_prefix(&fresh, ProviderKind::default()).len(), 2);
    let code_mode = Prompt::new(base, vec![recorded, user]);
    assert!(lite_input_prefix(&code_mode, ProviderKind::default()).is_empty());
}
