//! `parse_turn_item` over the response items that are not messages (seed 000 section 5):
//! reasoning, web search, image generation, and everything that maps to `None`.

use codex_protocol::items::TurnItem;
use codex_protocol::models::{ResponseItem, WebSearchAction};
use pretty_assertions::assert_eq;
use serde_json::json;

use super::*;

type TestResult = Result<(), Box<dyn std::error::Error>>;

fn item_from(value: serde_json::Value) -> Result<ResponseItem, serde_json::Error> {
    serde_json::from_value(value)
}

#[test]
fn parses_reasoning_summary_and_raw_content() -> TestResult {
    let item = item_from(json!({
        "type": "reasoning", "id": "rs_1",
        "summary": [
            {"type": "summary_text", "text": "Plan"},
            {"type": "summary_text", "text": "Check"}
        ],
        "content": [{"type": "reasoning_text", "text": "raw"}],
        "encrypted_content": null
    }))?;
    let Some(TurnItem::Reasoning(reasoning)) = parse_turn_item(&item) else {
        return Err("expected Reasoning".into());
    };
    assert_eq!(reasoning.id, "rs_1");
    assert_eq!(reasoning.summary_text, vec!["Plan", "Check"]);
    assert_eq!(reasoning.raw_content, vec!["raw"]);
    Ok(())
}

#[test]
fn parses_reasoning_including_raw_content() -> TestResult {
    let item = item_from(json!({
        "type": "reasoning",
        "summary": [{"type": "summary_text", "text": "Summary"}],
        "content": [
            {"type": "reasoning_text", "text": "first raw"},
            {"type": "text", "text": "second raw"}
        ],
        "encrypted_content": "gAAA"
    }))?;
    let turn_item = parse_turn_item(&item).ok_or("expected Reasoning")?;
    insta::assert_json_snapshot!("reasoning_including_raw_content", &turn_item);
    let TurnItem::Reasoning(reasoning) = turn_item else {
        return Err("expected Reasoning".into());
    };
    assert_eq!(reasoning.id, "");
    assert_eq!(reasoning.summary_text, vec!["Summary"]);
    assert_eq!(reasoning.raw_content, vec!["first raw", "second raw"]);
    Ok(())
}

#[test]
fn reasoning_without_content_has_no_raw_content() -> TestResult {
    let item = item_from(json!({
        "type": "reasoning", "summary": [], "content": null, "encrypted_content": null
    }))?;
    let Some(TurnItem::Reasoning(reasoning)) = parse_turn_item(&item) else {
        return Err("expected Reasoning".into());
    };
    assert!(reasoning.summary_text.is_empty() && reasoning.raw_content.is_empty());
    Ok(())
}

fn web_search(action: Option<serde_json::Value>) -> Result<ResponseItem, serde_json::Error> {
    let mut value = json!({"type": "web_search_call", "id": "ws_1", "status": "completed"});
    if let (Some(action), Some(object)) = (action, value.as_object_mut()) {
        object.insert("action".to_string(), action);
    }
    item_from(value)
}

fn web_search_item(item: &ResponseItem) -> Result<codex_protocol::items::WebSearchItem, String> {
    match parse_turn_item(item) {
        Some(TurnItem::WebSearch(search)) => Ok(search),
        other => Err(format!("expected WebSearch, got {other:?}")),
    }
}

#[test]
fn parses_web_search_call() -> TestResult {
    let item = web_search(Some(json!({"type": "search", "query": "rust serde"})))?;
    let search = web_search_item(&item)?;
    assert_eq!(search.id, "ws_1");
    assert_eq!(search.query, "rust serde");
    assert_eq!(search.results, None);
    Ok(())
}

#[test]
fn parses_web_search_open_page_call() -> TestResult {
    let item = web_search(Some(
        json!({"type": "open_page", "url": "https://example.com"}),
    ))?;
    assert_eq!(web_search_item(&item)?.query, "https://example.com");
    Ok(())
}

#[test]
fn parses_web_search_find_in_page_call() -> TestResult {
    let item = web_search(Some(
        json!({"type": "find_in_page", "url": "https://example.com", "pattern": "needle"}),
    ))?;
    assert_eq!(
        web_search_item(&item)?.query,
        "'needle' in https://example.com"
    );
    Ok(())
}

#[test]
fn parses_partial_web_search_call_without_action_as_other() -> TestResult {
    let item = item_from(json!({"type": "web_search_call", "status": "in_progress"}))?;
    let search = web_search_item(&item)?;
    assert_eq!(search.id, "");
    assert_eq!(search.action, WebSearchAction::Other);
    assert_eq!(search.query, "");
    insta::assert_json_snapshot!("partial_web_search", TurnItem::WebSearch(search));
    Ok(())
}

#[test]
fn web_search_action_detail_covers_every_shape() {
    let search = |query: Option<&str>, queries: Option<Vec<&str>>| WebSearchAction::Search {
        query: query.map(str::to_string),
        queries: queries.map(|list| list.into_iter().map(str::to_string).collect()),
    };
    assert_eq!(
        web_search_action_detail(&search(Some("q"), Some(vec!["a", "b"]))),
        "q"
    );
    assert_eq!(
        web_search_action_detail(&search(Some(""), Some(vec!["a", "b"]))),
        "a ..."
    );
    assert_eq!(
        web_search_action_detail(&search(None, Some(vec!["a"]))),
        "a"
    );
    assert_eq!(
        web_search_action_detail(&search(None, Some(vec!["", "b"]))),
        ""
    );
    assert_eq!(web_search_action_detail(&search(None, Some(vec![]))), "");
    assert_eq!(web_search_action_detail(&search(None, None)), "");
    let find = |url: Option<&str>, pattern: Option<&str>| WebSearchAction::FindInPage {
        url: url.map(str::to_string),
        pattern: pattern.map(str::to_string),
    };
    assert_eq!(web_search_action_detail(&find(None, Some("p"))), "'p'");
    assert_eq!(web_search_action_detail(&find(Some("u"), None)), "u");
    assert_eq!(web_search_action_detail(&find(None, None)), "");
    assert_eq!(
        web_search_action_detail(&WebSearchAction::OpenPage { url: None }),
        ""
    );
    assert_eq!(web_search_action_detail(&WebSearchAction::Other), "");
}

#[test]
fn image_generation_needs_an_id() -> TestResult {
    let without_id = item_from(json!({
        "type": "image_generation_call", "status": "completed", "result": "iVBOR"
    }))?;
    assert_eq!(parse_turn_item(&without_id), None);
    let with_id = item_from(json!({
        "type": "image_generation_call", "id": "ig_1", "status": "completed",
        "revised_prompt": "a cat", "result": "iVBOR"
    }))?;
    insta::assert_json_snapshot!("image_generation", parse_turn_item(&with_id));
    Ok(())
}

#[test]
fn tool_traffic_agent_messages_and_controls_are_none() -> TestResult {
    let items = [
        json!({"type": "function_call", "name": "shell", "arguments": "{}", "call_id": "c1"}),
        json!({"type": "function_call_output", "call_id": "c1", "output": "ok"}),
        json!({"type": "custom_tool_call", "call_id": "c2", "name": "apply_patch", "input": "*** Begin Patch"}),
        json!({"type": "custom_tool_call_output", "call_id": "c2", "output": "done"}),
        json!({"type": "local_shell_call", "call_id": "c3", "status": "completed",
               "action": {"type": "exec", "command": ["ls"]}}),
        json!({"type": "tool_search_call", "call_id": "c4", "execution": "client", "arguments": {}}),
        json!({"type": "tool_search_output", "call_id": "c4", "status": "completed",
               "execution": "client", "tools": []}),
        json!({"type": "agent_message", "author": "/root", "recipient": "/root/w",
               "content": [{"type": "input_text", "text": "go"}]}),
        json!({"type": "compaction", "encrypted_content": "gAAA"}),
        json!({"type": "context_compaction"}),
        json!({"type": "compaction_trigger"}),
        json!({"type": "additional_tools", "role": "developer", "tools": []}),
        json!({"type": "ghost_snapshot", "ghost_commit": {"id": "abc"}}),
    ];
    for value in items {
        let item = item_from(value.clone())?;
        assert_eq!(parse_turn_item(&item), None, "{value}");
    }
    Ok(())
}
