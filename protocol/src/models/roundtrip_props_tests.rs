//! Property: for any generated item, JSON -> item -> JSON is a fixed point, so reading and
//! rewriting history never changes it.

use proptest::collection::vec;
use proptest::option;
use proptest::prelude::*;
use serde_json::Value;
use serde_json::json;

use super::*;
use crate::response_item_id::ResponseItemId;

fn text() -> impl Strategy<Value = String> {
    prop_oneof![
        Just(String::new()),
        "[a-z_]{1,8}",
        "\\PC{0,12}",
        Just("line\n\"quoted\" <tag> & é 🦀".to_string()),
    ]
}

fn id() -> impl Strategy<Value = Option<ResponseItemId>> {
    option::of(prop_oneof![
        "(msg|fc|rs)_[a-z0-9-]{1,10}".prop_map(ResponseItemId::from_server),
        text().prop_map(ResponseItemId::from_server),
    ])
}

fn json_value() -> impl Strategy<Value = Value> {
    prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        text().prop_map(Value::from),
        (text(), any::<u32>()).prop_map(|(k, v)| json!({ k: v, "nested": [v, null] })),
    ]
}

fn meta() -> impl Strategy<Value = Option<InternalChatMessageMetadataPassthrough>> {
    let create_time = prop_oneof![
        any::<u32>().prop_map(serde_json::Number::from),
        (0u32..2_000_000_000, 0u32..1_000_000).prop_filter_map("finite", |(s, us)| {
            serde_json::Number::from_f64(f64::from(s) + f64::from(us) / 1e6)
        }),
    ];
    option::of(
        (
            option::of(text()),
            option::of(create_time),
            option::of(vec("[a-z._]{1,12}", 0..3)),
            option::of(vec(json_value(), 0..2)),
        )
            .prop_map(|(turn_id, create_time, kinds, item_meta)| {
                InternalChatMessageMetadataPassthrough {
                    turn_id,
                    create_time,
                    content_item_kinds: kinds,
                    content_item_metadata: item_meta,
                    ..Default::default()
                }
            }),
    )
}

fn detail() -> impl Strategy<Value = Option<ImageDetail>> {
    option::of(prop_oneof![
        Just(ImageDetail::Auto),
        Just(ImageDetail::Low),
        Just(ImageDetail::High),
        Just(ImageDetail::Original),
    ])
}

fn content_item() -> impl Strategy<Value = ContentItem> {
    prop_oneof![
        text().prop_map(ContentItem::input_text),
        (option::of(text()), option::of(text()), detail()).prop_map(
            |(image_url, file_id, detail)| {
                ContentItem::InputImage {
                    image_url,
                    file_id,
                    detail,
                }
            }
        ),
        text().prop_map(ContentItem::input_audio),
        (
            text(),
            option::of(vec(json_value(), 0..2)),
            option::of(vec(json_value(), 0..2))
        )
            .prop_map(|(text, annotations, logprobs)| ContentItem::OutputText {
                text,
                annotations,
                logprobs,
            }),
    ]
}

fn phase() -> impl Strategy<Value = Option<MessagePhase>> {
    option::of(prop_oneof![
        Just(MessagePhase::Commentary),
        Just(MessagePhase::PartialAnswer),
        Just(MessagePhase::FinalAnswer),
        "[a-z]{1,8}".prop_map(MessagePhase::Unknown),
    ])
}

fn output_payload() -> impl Strategy<Value = FunctionCallOutputPayload> {
    let item = prop_oneof![
        text().prop_map(FunctionCallOutputContentItem::input_text),
        (option::of(text()), detail()).prop_map(|(image_url, detail)| {
            FunctionCallOutputContentItem::InputImage {
                image_url,
                file_id: None,
                detail,
            }
        }),
        text().prop_map(|audio_url| FunctionCallOutputContentItem::InputAudio { audio_url }),
        text().prop_map(
            |encrypted_content| FunctionCallOutputContentItem::EncryptedContent {
                encrypted_content
            }
        ),
    ];
    (
        prop_oneof![
            text().prop_map(FunctionCallOutputBody::Text),
            vec(item, 0..3).prop_map(FunctionCallOutputBody::ContentItems),
        ],
        option::of(any::<bool>()),
    )
        .prop_map(|(body, success)| FunctionCallOutputPayload { body, success })
}

fn reasoning_content() -> impl Strategy<Value = Option<Vec<ReasoningItemContent>>> {
    option::of(vec(
        prop_oneof![
            text().prop_map(|text| ReasoningItemContent::ReasoningText { text }),
            text().prop_map(|text| ReasoningItemContent::Text { text }),
        ],
        0..3,
    ))
}

fn web_search_action() -> impl Strategy<Value = Option<WebSearchAction>> {
    option::of(prop_oneof![
        (option::of(text()), option::of(vec(text(), 0..2)))
            .prop_map(|(query, queries)| WebSearchAction::Search { query, queries }),
        option::of(text()).prop_map(|url| WebSearchAction::OpenPage { url }),
        (option::of(text()), option::of(text()))
            .prop_map(|(url, pattern)| WebSearchAction::FindInPage { url, pattern }),
        Just(WebSearchAction::Other),
    ])
}

fn local_shell_action() -> impl Strategy<Value = LocalShellAction> {
    (
        vec(text(), 0..3),
        option::of(any::<u32>().prop_map(u64::from)),
        option::of(text()),
        option::of(proptest::collection::btree_map("[A-Z]{1,4}", text(), 0..2)),
        option::of(text()),
    )
        .prop_map(|(command, timeout_ms, working_directory, env, user)| {
            LocalShellAction::Exec(LocalShellExecAction {
                command,
                timeout_ms,
                working_directory,
                env,
                user,
            })
        })
}

fn response_item() -> impl Strategy<Value = ResponseItem> {
    let opt = || option::of(text());
    prop_oneof![
        (id(), text(), vec(json_value(), 0..2))
            .prop_map(|(id, role, tools)| ResponseItem::AdditionalTools { id, role, tools }),
        (
            opt(),
            opt(),
            id(),
            text(),
            vec(content_item(), 0..4),
            phase(),
            meta()
        )
            .prop_map(
                |(encrypted_content, status, id, role, content, phase, meta)| {
                    ResponseItem::Message {
                        encrypted_content,
                        status,
                        id,
                        role,
                        content,
                        phase,
                        internal_chat_message_metadata_passthrough: meta,
                    }
                }
            ),
        (id(), text(), text(), vec(text(), 0..3), meta()).prop_map(
            |(id, author, recipient, parts, meta)| ResponseItem::AgentMessage {
                id,
                author,
                recipient,
                content: parts
                    .into_iter()
                    .enumerate()
                    .map(|(i, text)| if i % 2 == 0 {
                        AgentMessageInputContent::InputText { text }
                    } else {
                        AgentMessageInputContent::EncryptedContent {
                            encrypted_content: text,
                        }
                    })
                    .collect(),
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (id(), vec(text(), 0..2), reasoning_content(), opt(), meta()).prop_map(
            |(id, summary, content, encrypted_content, meta)| ResponseItem::Reasoning {
                id,
                summary: summary
                    .into_iter()
                    .map(|text| ReasoningItemReasoningSummary::SummaryText { text })
                    .collect(),
                content,
                encrypted_content,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (opt(), id(), opt(), local_shell_action(), meta()).prop_map(
            |(encrypted_content, id, call_id, action, meta)| ResponseItem::LocalShellCall {
                encrypted_content,
                id,
                call_id,
                status: LocalShellStatus::InProgress,
                action,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (
            opt(),
            opt(),
            id(),
            text(),
            opt(),
            text(),
            option::of(vec(text(), 0..2)),
            text(),
            meta()
        )
            .prop_map(
                |(enc, status, id, name, namespace, arguments, args, call_id, meta)| {
                    ResponseItem::FunctionCall {
                        encrypted_content: enc,
                        status,
                        id,
                        name,
                        namespace,
                        arguments,
                        encrypted_function_args: args,
                        call_id,
                        internal_chat_message_metadata_passthrough: meta,
                    }
                }
            ),
        (opt(), id(), opt(), opt(), text(), json_value(), meta()).prop_map(
            |(enc, id, call_id, status, execution, arguments, meta)| ResponseItem::ToolSearchCall {
                encrypted_content: enc,
                id,
                call_id,
                status,
                execution,
                arguments,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (id(), opt(), opt(), opt(), output_payload(), meta()).prop_map(
            |(id, call_id, name, namespace, output, meta)| ResponseItem::FunctionCallOutput {
                id,
                call_id,
                name,
                namespace,
                output,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (opt(), id(), opt(), text(), text(), opt(), text(), meta()).prop_map(
            |(enc, id, status, call_id, name, namespace, input, meta)| {
                ResponseItem::CustomToolCall {
                    encrypted_content: enc,
                    id,
                    status,
                    call_id,
                    name,
                    namespace,
                    input,
                    internal_chat_message_metadata_passthrough: meta,
                }
            }
        ),
        (id(), text(), opt(), output_payload(), meta()).prop_map(
            |(id, call_id, name, output, meta)| ResponseItem::CustomToolCallOutput {
                id,
                call_id,
                name,
                output,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (id(), opt(), text(), text(), vec(json_value(), 0..2), meta()).prop_map(
            |(id, call_id, status, execution, tools, meta)| ResponseItem::ToolSearchOutput {
                id,
                call_id,
                status,
                execution,
                tools,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (opt(), id(), opt(), web_search_action(), meta()).prop_map(
            |(enc, id, status, action, meta)| ResponseItem::WebSearchCall {
                encrypted_content: enc,
                id,
                status,
                action,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (opt(), id(), text(), opt(), text(), meta()).prop_map(
            |(enc, id, status, revised_prompt, result, meta)| ResponseItem::ImageGenerationCall {
                encrypted_content: enc,
                id,
                status,
                revised_prompt,
                result,
                internal_chat_message_metadata_passthrough: meta,
            }
        ),
        (id(), text(), meta()).prop_map(|(id, encrypted_content, meta)| {
            ResponseItem::Compaction {
                id,
                encrypted_content,
                internal_chat_message_metadata_passthrough: meta,
            }
        }),
        Just(ResponseItem::ConfigurationUpdate {
            reasoning: ConfigurationReasoning {
                effort: ReasoningEffort::Xhigh
            }
        }),
        Just(ResponseItem::CompactionTrigger {}),
        (id(), opt(), meta()).prop_map(|(id, encrypted_content, meta)| {
            ResponseItem::ContextCompaction {
                id,
                encrypted_content,
                internal_chat_message_metadata_passthrough: meta,
            }
        }),
        Just(ResponseItem::Other),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn response_item_json_is_a_fixed_point(item in response_item()) {
        let first = serde_json::to_string(&item).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let read: ResponseItem =
            serde_json::from_str(&first).map_err(|e| TestCaseError::fail(format!("{e}: {first}")))?;
        let second = serde_json::to_string(&read).map_err(|e| TestCaseError::fail(e.to_string()))?;
        prop_assert_eq!(&first, &second);
        prop_assert_eq!(read.item_type(), item.item_type());
        prop_assert_eq!(read.id(), item.id());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// The type-first decoder reads every generated item as the derive does, with the tag
    /// first (as serialized) and with the keys sorted (the tag then mostly elsewhere).
    #[test]
    fn type_first_decoding_agrees_with_the_derive(item in response_item()) {
        let tag_first = serde_json::to_string(&item).map_err(|e| TestCaseError::fail(e.to_string()))?;
        let sorted = serde_json::to_value(&item)
            .and_then(|value| serde_json::to_string(&value))
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        for text in [&tag_first, &sorted] {
            let derived: ResponseItem =
                serde_json::from_str(text).map_err(|e| TestCaseError::fail(format!("{e}: {text}")))?;
            let direct = crate::type_first::decode_direct::<ResponseItem>(text);
            if derived == ResponseItem::Other {
                prop_assert!(direct.is_err());
            } else {
                prop_assert_eq!(direct.map_err(|e| e.to_string()), Ok(derived));
            }
        }
    }
}
