use super::*;
use crate::prompt::ToolSpec;
use codex_protocol::models::BaseInstructions;
use codex_protocol::models::ContentItem;
use codex_protocol::models::FunctionCallOutputContentItem;
use codex_protocol::models::FunctionCallOutputPayload;
use codex_protocol::models::ImageDetail;
use codex_protocol::models::MessagePhase;
use codex_protocol::response_item_id::ResponseItemId;
use pretty_assertions::assert_eq;
use serde_json::json;

/// One prompt exercising every adaptation: an image with detail in a message and in a tool
/// output, harness metadata, encrypted function arguments, a legacy (unprefixed) id, and
/// function, freeform, web search and namespace tools.
pub(crate) fn sample_prompt() -> Prompt {
    let mut user = ResponseItem::message(
        "user",
        vec![
            ContentItem::input_text("What is in this screenshot?"),
            ContentItem::input_image_url(
                "data:image/png;base64,iVBORw0KGgo=",
                Some(ImageDetail::High),
            ),
        ],
    );
    user.set_id(Some(ResponseItemId::from_server("msg_0001")));
    user.set_turn_id_if_missing("turn-1");
    let mut assistant =
        ResponseItem::assistant_text("Let me look.", Some(MessagePhase::Commentary));
    assistant.set_id(Some(ResponseItemId::from_server(
        "legacy-item-without-prefix",
    )));
    let mut call = ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "call_1");
    if let ResponseItem::FunctionCall {
        id,
        encrypted_function_args,
        ..
    } = &mut call
    {
        *id = Some(ResponseItemId::from_server("fc_0002"));
        *encrypted_function_args = Some(vec!["opaque".to_string()]);
    }
    call.set_turn_id_if_missing("turn-1");
    let output = ResponseItem::function_call_output(
        "call_1",
        FunctionCallOutputPayload::from_content_items(vec![
            FunctionCallOutputContentItem::input_text("screenshot.png"),
            FunctionCallOutputContentItem::input_image_url(
                "data:image/png;base64,iVBORw0KGgo=",
                Some(ImageDetail::Original),
            ),
        ]),
    );
    Prompt {
        base_instructions: BaseInstructions::new("You are Codex, a coding agent."),
        input: vec![
            ResponseItem::developer_text(
                "<permissions instructions>read-only</permissions instructions>",
            ),
            user,
            assistant,
            call,
            output,
        ],
        tools: vec![
            ToolSpec::function(
                "shell",
                "Runs a command.",
                json!({"type":"object","properties":{"command":{"type":"array","items":{"type":"string"}}},"required":["command"]}),
            ),
            ToolSpec::raw(json!({"type":"web_search"})),
            ToolSpec::freeform(
                "apply_patch",
                "Edits files.",
                json!({"type":"grammar","syntax":"lark","definition":"start: patch"}),
            ),
            ToolSpec::raw(json!({
                "type":"namespace","name":"functions","description":"existing",
                "tools":[{"type":"function","name":"view_image","description":"Shows an image.","strict":false,"parameters":{"type":"object"}}]
            })),
        ],
        parallel_tool_calls: true,
        output_schema: None,
    }
}

fn options(wire_api: WireApi, provider: ProviderKind) -> RequestOptions {
    RequestOptions {
        model: "gpt-test".to_string(),
        wire_api,
        provider,
        reasoning_effort: Some("medium".to_string()),
        reasoning_summary: Some("auto".to_string()),
        prompt_cache_key: Some("thread-1".to_string()),
        output_schema_strict: true,
        instructions_placement: InstructionsPlacement::TopLevel,
    }
}

const NAMESPACE_PROVIDER: ProviderKind = ProviderKind {
    is_openai: true,
    supports_namespace_tools: true,
};

#[test]
fn normal_responses_encoding_snapshot() -> Result<(), serde_json::Error> {
    let prompt = sample_prompt();
    let encoded = encode_request(&prompt, &options(WireApi::Responses, NAMESPACE_PROVIDER));
    assert!(encoded.headers.is_empty());
    insta::assert_json_snapshot!(
        "normal_responses_request",
        serde_json::to_value(&encoded.body)?
    );
    Ok(())
}

#[test]
fn responses_lite_encoding_snapshot() -> Result<(), serde_json::Error> {
    let prompt = sample_prompt();
    let encoded = encode_request(
        &prompt,
        &options(WireApi::ResponsesLite, NAMESPACE_PROVIDER),
    );
    assert_eq!(
        encoded.headers,
        vec![(RESPONSES_LITE_HEADER.to_string(), "true".to_string())]
    );
    insta::assert_json_snapshot!(
        "responses_lite_request",
        serde_json::to_value(&encoded.body)?
    );
    Ok(())
}

#[test]
fn responses_lite_uses_input_items_for_instructions_and_tools() -> Result<(), serde_json::Error> {
    let prompt = sample_prompt();
    let body = serde_json::to_value(
        encode_request(
            &prompt,
            &options(WireApi::ResponsesLite, NAMESPACE_PROVIDER),
        )
        .body,
    )?;
    assert!(body.get("instructions").is_none());
    assert!(body.get("tools").is_none());
    assert_eq!(body["parallel_tool_calls"], json!(false));
    assert_eq!(body["input"][0]["type"], json!("additional_tools"));
    assert_eq!(body["input"][0]["role"], json!("developer"));
    assert_eq!(body["input"][1]["role"], json!("developer"));
    assert_eq!(
        body["input"][1]["content"][0]["text"],
        json!("You are Codex, a coding agent.")
    );
    let tools = body["input"][0]["tools"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let namespaces: Vec<_> = tools
        .iter()
        .filter(|tool| tool["type"] == "namespace")
        .collect();
    assert_eq!(namespaces.len(), 1);
    assert_eq!(namespaces[0]["name"], json!("functions"));
    assert_eq!(namespaces[0]["description"], json!(""));
    Ok(())
}

#[test]
fn responses_lite_request_copies_strip_image_details() {
    let prompt = sample_prompt();
    let before = prompt.clone();
    let lite = encode_request(
        &prompt,
        &options(WireApi::ResponsesLite, NAMESPACE_PROVIDER),
    );
    assert_eq!(
        prompt, before,
        "encoding must not touch the session's prompt"
    );
    let has_detail = |items: &[ResponseItem]| {
        serde_json::to_string(items).is_ok_and(|text| text.contains("\"detail\""))
    };
    assert!(!has_detail(&lite.body.input));
    let normal = encode_request(&prompt, &options(WireApi::Responses, NAMESPACE_PROVIDER));
    assert!(has_detail(&normal.body.input));
}

#[test]
fn lite_omits_developer_instructions_message_when_base_instructions_are_empty() {
    let mut prompt = sample_prompt();
    prompt.base_instructions = BaseInstructions::new("");
    let encoded = encode_request(
        &prompt,
        &options(WireApi::ResponsesLite, NAMESPACE_PROVIDER),
    );
    assert!(matches!(
        encoded.body.input[0],
        ResponseItem::AdditionalTools { .. }
    ));
    assert_eq!(
        encoded.body.input[1],
        prepare_input_for_request(&prompt.input, WireApi::ResponsesLite, NAMESPACE_PROVIDER)[0]
    );
    assert_eq!(encoded.body.input.len(), prompt.input.len() + 1);
}

#[test]
fn non_openai_provider_items_drop_internal_metadata() {
    let prompt = sample_prompt();
    let provider = ProviderKind {
        is_openai: false,
        supports_namespace_tools: false,
    };
    let encoded = encode_request(&prompt, &options(WireApi::Responses, provider));
    for item in &encoded.body.input {
        assert!(item.metadata().is_none(), "metadata left on {item:?}");
        if let ResponseItem::FunctionCall {
            encrypted_function_args,
            ..
        } = item
        {
            assert!(encrypted_function_args.is_none());
        }
    }
    assert!(prompt.input.iter().any(|item| item.metadata().is_some()));
}

#[test]
fn legacy_unprefixed_ids_are_cleared_and_prefixed_ids_kept() {
    let prompt = sample_prompt();
    let input =
        prepare_input_for_request(&prompt.input, WireApi::Responses, ProviderKind::default());
    assert_eq!(input[1].id().map(|id| id.as_str()), Some("msg_0001"));
    assert_eq!(input[2].id(), None);
    assert_eq!(input[3].id().map(|id| id.as_str()), Some("fc_0002"));
}

#[test]
fn normal_encoding_keeps_instructions_and_tools_top_level() {
    let prompt = sample_prompt();
    let encoded = encode_request(
        &prompt,
        &options(WireApi::Responses, ProviderKind::default()),
    );
    assert_eq!(encoded.body.instructions, "You are Codex, a coding agent.");
    assert_eq!(encoded.body.tools.as_ref().map(Vec::len), Some(4));
    assert!(encoded.body.parallel_tool_calls);
    assert_eq!(encoded.body.input.len(), prompt.input.len());
    assert!(
        encoded
            .body
            .reasoning
            .as_ref()
            .is_some_and(|r| r.context.is_none())
    );
}

#[test]
fn output_schema_becomes_text_format() {
    let mut prompt = sample_prompt();
    prompt.output_schema = Some(json!({"type":"object"}));
    let encoded = encode_request(
        &prompt,
        &options(WireApi::Responses, ProviderKind::default()),
    );
    let text = encoded
        .body
        .text
        .as_ref()
        .map(|text| (&text.format.kind, text.format.strict));
    assert_eq!(text, Some((&"json_schema".to_string(), true)));
}
