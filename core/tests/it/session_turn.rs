//! End to end: one turn of a session against a scripted model (no network, no processes).
//!
//! Asserts the three outputs of recording (history, the rollout sink, the event stream) for a
//! turn with a tool call, and the interrupted variant, whose next prompt answers the
//! unfinished call with an `aborted` output.

use std::sync::Arc;

use codex_core::BoxFuture;
use codex_core::InMemoryEventSink;
use codex_core::InMemoryRolloutSink;
use codex_core::InitialContextInputs;
use codex_core::ModelResponse;
use codex_core::ModelSettings;
use codex_core::ScriptedModel;
use codex_core::ScriptedTools;
use codex_core::Session;
use codex_core::SessionConfiguration;
use codex_core::ToolExecutor;
use codex_core::TurnInterrupt;
use codex_core::TurnOutcome;
use codex_core::TurnRunner;
use codex_core::output_for_call;
use codex_protocol::event::EventMsg;
use codex_protocol::event::TokenUsage;
use codex_protocol::models::MessagePhase;
use codex_protocol::models::ReasoningItemReasoningSummary;
use codex_protocol::models::ResponseItem;
use codex_protocol::rollout::RolloutItem;
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use pretty_assertions::assert_eq;

type TestResult = Result<(), Box<dyn std::error::Error>>;

struct Fixture {
    session: Session,
    rollout: InMemoryRolloutSink,
    events: InMemoryEventSink,
}

fn fixture() -> Fixture {
    let rollout = InMemoryRolloutSink::new();
    let events = InMemoryEventSink::new();
    let configuration = SessionConfiguration::new(
        ThreadId::new(),
        ModelSettings::new("gpt-test", "You are Codex, a coding agent."),
    );
    let session = Session::new(
        configuration,
        Some(Arc::new(rollout.clone())),
        Arc::new(events.clone()),
    );
    Fixture {
        session,
        rollout,
        events,
    }
}

fn reasoning(summary: &str) -> ResponseItem {
    ResponseItem::Reasoning {
        id: None,
        summary: vec![ReasoningItemReasoningSummary::SummaryText {
            text: summary.to_string(),
        }],
        content: None,
        encrypted_content: Some("opaque".to_string()),
        internal_chat_message_metadata_passthrough: None,
    }
}

fn shell_call() -> ResponseItem {
    ResponseItem::function_call("shell", r#"{"command":["ls"]}"#, "call_1")
}

/// A stable label for a history or rollout item: its type, plus the role of messages.
fn label(item: &ResponseItem) -> String {
    match item.role() {
        Some(role) => format!("{}:{role}", item.item_type()),
        None => item.item_type().to_string(),
    }
}

fn rollout_labels(items: &[RolloutItem]) -> Vec<String> {
    items
        .iter()
        .map(|item| match item {
            RolloutItem::ResponseItem(item) => format!("response_item/{}", label(item)),
            RolloutItem::EventMsg(msg) => format!("event_msg/{}", msg.type_name()),
            other => format!("{other:?}"),
        })
        .collect()
}

/// A tool executor that checks, while the tool "runs", that its call is already in the
/// durable record, then answers like [`ScriptedTools`].
#[derive(Debug)]
struct RecordedBeforeRun {
    rollout: InMemoryRolloutSink,
}

impl ToolExecutor for RecordedBeforeRun {
    fn execute<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ResponseItem> {
        Box::pin(async move {
            let recorded = self.rollout.snapshot().iter().any(|item| {
                matches!(item, RolloutItem::ResponseItem(recorded) if recorded.is_tool_call()
                    && recorded.call_id() == call.call_id())
            });
            let text = if recorded {
                "a.txt\nb.txt"
            } else {
                "CALL NOT RECORDED BEFORE RUN"
            };
            output_for_call(call, text)
        })
    }
}

#[tokio::test]
async fn one_turn_against_a_scripted_model_records_history_rollout_and_events_in_order()
-> TestResult {
    let f = fixture();
    let model = ScriptedModel::new(vec![
        ModelResponse::new(vec![reasoning("Listing files"), shell_call()]),
        ModelResponse::new(vec![ResponseItem::assistant_text(
            "Found 2 files.",
            Some(MessagePhase::FinalAnswer),
        )])
        .with_usage(TokenUsage {
            input_tokens: 120,
            output_tokens: 8,
            total_tokens: 128,
            ..TokenUsage::default()
        }),
    ]);
    let tools = RecordedBeforeRun {
        rollout: f.rollout.clone(),
    };
    let runner = TurnRunner::new(&model, &tools).with_initial_context(InitialContextInputs {
        developer_instructions: Some("Be brief.".to_string()),
        ..InitialContextInputs::default()
    });
    let turn = f.session.new_turn_context("turn-1").await;

    let outcome = runner
        .run(
            &f.session,
            &turn,
            &[UserInput::text("list the files")],
            &TurnInterrupt::new(),
        )
        .await?;
    assert_eq!(
        outcome,
        TurnOutcome::Completed {
            last_agent_message: Some("Found 2 files.".to_string())
        }
    );

    // History: everything the model will see again, prepared (ids, turn id).
    let history = f.session.clone_history().await;
    let items = history.raw_items();
    let labels: Vec<String> = items.iter().map(label).collect();
    assert_eq!(
        labels,
        vec![
            "message:developer",
            "message:user",
            "reasoning",
            "function_call",
            "function_call_output",
            "message:assistant",
        ]
    );
    let prefixes: Vec<&str> = items
        .iter()
        .filter_map(|item| item.id().and_then(|id| id.split_once('_')).map(|(p, _)| p))
        .collect();
    assert_eq!(prefixes, vec!["msg", "msg", "rs", "fc", "fco", "msg"]);
    assert!(items.iter().all(|item| item.turn_id() == Some("turn-1")));
    let ResponseItem::FunctionCallOutput { output, .. } = &items[4] else {
        return Err("expected the tool output".into());
    };
    assert_eq!(
        output.text_content(),
        Some("a.txt\nb.txt"),
        "call recorded before the tool ran"
    );

    // Event stream: exact order.
    let kinds: Vec<&str> = f
        .events
        .snapshot()
        .iter()
        .map(|e| e.msg.type_name())
        .collect();
    assert_eq!(
        kinds,
        vec![
            "task_started",
            "raw_response_item", // developer context
            "raw_response_item", // user message
            "item_started",
            "item_completed",
            "user_message",
            "raw_response_item", // reasoning
            "item_started",
            "item_completed",
            "agent_reasoning",
            "raw_response_item", // function call, before the tool runs
            "item_started",      // CommandExecution, in progress
            "exec_command_begin",
            "item_completed", // CommandExecution, completed with its output
            "exec_command_end",
            "raw_response_item", // function call output
            "raw_response_item", // assistant answer
            "item_started",
            "item_completed",
            "agent_message",
            "token_count",
            "task_complete",
        ]
    );
    assert!(f.events.snapshot().iter().all(|e| e.id == "turn-1"));

    // Rollout sink: every response item (as in history) and every event, interleaved in order.
    let rollout = f.rollout.snapshot();
    let persisted: Vec<ResponseItem> = rollout
        .iter()
        .filter_map(|item| match item {
            RolloutItem::ResponseItem(item) => Some(item.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(persisted, items.to_vec());
    let rollout_kinds = rollout_labels(&rollout);
    assert_eq!(rollout_kinds.len(), items.len() + kinds.len());
    assert_eq!(
        rollout_kinds[..4],
        [
            "event_msg/task_started",
            "response_item/message:developer",
            "event_msg/raw_response_item",
            "response_item/message:user",
        ]
    );
    assert_eq!(
        rollout_kinds.last().map(String::as_str),
        Some("event_msg/task_complete")
    );
    assert!(
        f.rollout.flush_count() >= 1,
        "user input flushes the rollout"
    );

    // The follow-up request carried the call and its output, with the session instructions.
    let requests = model.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[1].body.instructions,
        "You are Codex, a coding agent."
    );
    let follow_up: Vec<String> = requests[1].body.input.iter().map(label).collect();
    assert_eq!(follow_up[3..], ["function_call", "function_call_output"]);
    Ok(())
}

#[tokio::test]
async fn interrupting_the_turn_during_a_tool_makes_the_next_prompt_carry_an_aborted_output()
-> TestResult {
    let f = fixture();
    let model = ScriptedModel::new(vec![
        ModelResponse::new(vec![shell_call()]),
        ModelResponse::new(vec![ResponseItem::assistant_text("Understood.", None)]),
    ]);
    let interrupt = TurnInterrupt::new();
    let tools = ScriptedTools::new().interrupting("shell", interrupt.clone());
    let runner = TurnRunner::new(&model, &tools);

    let first = f.session.new_turn_context("turn-1").await;
    let outcome = runner
        .run(&f.session, &first, &[UserInput::text("run ls")], &interrupt)
        .await?;
    assert_eq!(outcome, TurnOutcome::Aborted);

    let kinds: Vec<&str> = f
        .events
        .snapshot()
        .iter()
        .map(|e| e.msg.type_name())
        .collect();
    assert_eq!(
        kinds[kinds.len() - 7..],
        [
            "raw_response_item", // the call
            "item_started",      // its command, in progress
            "exec_command_begin",
            "item_completed", // the command, failed: the turn was interrupted
            "exec_command_end",
            "raw_response_item", // the interruption note
            "turn_aborted",
        ],
        "call recorded, its command failed, then the note and turn_aborted: {kinds:?}"
    );
    let history = f.session.clone_history().await;
    let labels: Vec<String> = history.raw_items().iter().map(label).collect();
    assert_eq!(
        labels,
        vec!["message:user", "function_call", "message:user"]
    );
    assert!(
        !history.raw_items().iter().any(ResponseItem::is_tool_output),
        "the interrupted tool produced no output"
    );

    let second = f.session.new_turn_context("turn-2").await;
    let outcome = TurnRunner::new(&model, &ScriptedTools::new())
        .run(
            &f.session,
            &second,
            &[UserInput::text("never mind")],
            &TurnInterrupt::new(),
        )
        .await?;
    assert!(matches!(outcome, TurnOutcome::Completed { .. }));

    let requests = model.requests();
    let next_prompt = &requests[1].body.input;
    let call_at = next_prompt
        .iter()
        .position(|item| item.is_tool_call())
        .ok_or("the call is in the next prompt")?;
    let answer = &next_prompt[call_at + 1];
    let ResponseItem::FunctionCallOutput {
        call_id, output, ..
    } = answer
    else {
        return Err(format!("expected a synthesized output after the call, got {answer:?}").into());
    };
    assert_eq!(call_id.as_deref(), Some("call_1"));
    assert_eq!(output.text_content(), Some("aborted"));
    let aborted_note = next_prompt[call_at + 2]
        .message_content()
        .and_then(|content| content.first())
        .and_then(|part| part.text())
        .unwrap_or_default();
    assert!(aborted_note.starts_with("<turn_aborted>"), "{aborted_note}");
    // History itself is not rewritten: the synthesized output exists only in the prompt.
    let history = f.session.clone_history().await;
    assert!(!history.raw_items().iter().any(ResponseItem::is_tool_output));
    Ok(())
}

#[tokio::test]
async fn a_failing_model_ends_the_turn_with_an_error() -> TestResult {
    let f = fixture();
    let model = ScriptedModel::new(Vec::new());
    let tools = ScriptedTools::new();
    let turn = f.session.new_turn_context("turn-1").await;
    let result = TurnRunner::new(&model, &tools)
        .run(
            &f.session,
            &turn,
            &[UserInput::text("hi")],
            &TurnInterrupt::new(),
        )
        .await;
    assert!(result.is_err());
    let events = f.events.snapshot();
    let tail: Vec<&str> = events
        .iter()
        .rev()
        .take(2)
        .map(|e| e.msg.type_name())
        .collect();
    assert_eq!(tail, vec!["task_complete", "error"]);
    let Some(EventMsg::TurnComplete(complete)) = events.last().map(|e| &e.msg) else {
        return Err("task_complete expected".into());
    };
    assert!(complete.error.is_some());
    Ok(())
}

/// One real session file: its name and the response items it records.
type RealFile = (String, Vec<ResponseItem>);

/// The response items of every real session file, per file (`None` when the folder is missing
/// and real fixtures are not required).
fn real_response_items() -> Result<Option<Vec<RealFile>>, Box<dyn std::error::Error>> {
    let Some(paths) = codex_test_support::real_jsonl_files()? else {
        return Ok(None);
    };
    let mut files = Vec::new();
    for path in paths {
        let items: Vec<ResponseItem> = codex_test_support::non_empty_lines(&path)?
            .iter()
            .filter_map(|line| codex_protocol::rollout::parse_rollout_line(line).ok())
            .filter_map(|parsed| match parsed.item() {
                Some(RolloutItem::ResponseItem(item)) => Some(item.clone()),
                _ => None,
            })
            .collect();
        let name = path
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        files.push((name, items));
    }
    Ok(Some(files))
}

/// Recording real items keeps every id and turn id they already had, gives the rest ids, and
/// both wire encodings of the resulting prompt work on copies.
#[tokio::test]
async fn recording_real_session_items_keeps_existing_ids_and_encodes_both_wires() -> TestResult {
    use codex_core::ProviderKind;
    use codex_core::RequestOptions;
    use codex_core::WireApi;
    use codex_core::encode_request;

    let Some(files) = real_response_items()? else {
        return Ok(());
    };
    let mut total = 0;
    for (name, items) in files {
        let f = fixture();
        let turn = f.session.new_turn_context("turn-replay").await;
        let recorded = f.session.record_conversation_items(&turn, &items).await;
        assert_eq!(recorded.len(), items.len(), "{name}: no item lost or added");
        for (before, after) in items.iter().zip(&recorded) {
            if let Some(id) = before.id().filter(|id| !id.is_empty()) {
                assert_eq!(after.id(), Some(id), "{name}: an existing id was replaced");
            } else if before.id_prefix().is_some() {
                assert!(
                    after.id().is_some_and(|id| !id.is_empty()),
                    "{name}: id missing"
                );
            }
            if let Some(turn_id) = before.turn_id() {
                assert_eq!(
                    after.turn_id(),
                    Some(turn_id),
                    "{name}: turn id overwritten"
                );
            }
        }
        let prompt = f.session.build_prompt(&turn, Vec::new(), None).await;
        let history_before = f.session.clone_history().await.into_raw_items();
        for wire_api in [WireApi::Responses, WireApi::ResponsesLite] {
            let options = RequestOptions {
                model: "gpt-test".to_string(),
                wire_api,
                provider: ProviderKind::default(),
                ..RequestOptions::default()
            };
            let body = serde_json::to_string(&encode_request(&prompt, &options).body)?;
            if wire_api == WireApi::ResponsesLite {
                assert!(
                    !body.contains("\"detail\":"),
                    "{name}: Lite kept an image detail"
                );
            }
        }
        assert_eq!(
            f.session.clone_history().await.into_raw_items(),
            history_before
        );
        total += items.len();
    }
    assert!(total > 0, "the real fixtures hold response items");
    Ok(())
}
