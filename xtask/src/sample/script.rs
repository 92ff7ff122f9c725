//! The scripted conversation behind the bundled sample: what the person asks, what the model
//! answers and what the tools print, turn by turn.
//!
//! It runs through core's real turn driver ([`TurnRunner`]) into codex-rollout's real
//! [`RolloutRecorder`], so the sample is a session file exactly as this project writes one,
//! not a hand-written imitation. The conversation exercises what the commands must handle:
//! reasoning summaries, function calls and a freeform (`apply_patch`) call with their outputs,
//! commentary and final answers, token counts, a turn interrupted while its tool ran (the call
//! is left without an output), and a rollback (`thread_rolled_back`) of the last turn. It is
//! recorded in the paginated history mode, as today's Codex writes sessions.

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use chrono::{DateTime, Utc};
use codex_core::{Clock, IdSource, SequentialIds, SteppingClock};
use uuid::Uuid;

use codex_core::ContextFragment;
use codex_core::output_for_call;
use codex_core::{
    BoxFuture, ModelResponse, ScriptedModel, ToolExecutor, TurnInterrupt, TurnRunner,
};
use codex_core::{
    InMemoryEventSink, InitialContextInputs, ModelSettings, Session, SessionConfiguration,
};
use codex_protocol::event::TokenUsage;
use codex_protocol::models::{BaseInstructions, MessagePhase, ResponseItem};
use codex_protocol::response_item_id::ResponseItemId;
use codex_protocol::rollout::{HistoryMode, TurnContextItem};
use codex_protocol::thread_id::ThreadId;
use codex_protocol::user_input::UserInput;
use codex_rollout::RolloutRecorder;
use codex_rollout::new_session_meta;

/// The sample's thread id (fixed, so the sample is reproducible).
const SAMPLE_THREAD_ID: &str = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55";
/// When the sample session starts (its session meta time and the first line's time).
const SAMPLE_START: &str = "2025-06-02T09:00:00.000Z";
const CWD: &str = "/home/dev/todo-cli";
const MODEL: &str = "gpt-5-codex";
const BASE_INSTRUCTIONS: &str = "You are Codex, a coding agent working in the user's \
repository. Read before you edit, keep changes small, and explain what you did.";

/// One scripted turn: the person's message, the model's responses in order, the tool outputs
/// by call id, and the call (if any) during which the person interrupts the turn.
struct ScriptedTurn {
    id: &'static str,
    user: &'static str,
    responses: Vec<ModelResponse>,
    outputs: &'static [(&'static str, &'static str)],
    interrupt_on: Option<&'static str>,
}

/// Answers calls from a table keyed by call id; a call listed as the interruption point sets
/// the turn's interrupt and never finishes (a command the person gave up on).
#[derive(Debug)]
struct TableTools {
    outputs: HashMap<String, String>,
    interrupt: Option<(String, TurnInterrupt)>,
}

impl ToolExecutor for TableTools {
    fn execute<'a>(&'a self, call: &'a ResponseItem) -> BoxFuture<'a, ResponseItem> {
        Box::pin(async move {
            let call_id = call.call_id().unwrap_or_default();
            if let Some((stop, interrupt)) = &self.interrupt
                && stop == call_id
            {
                interrupt.interrupt();
                std::future::pending::<()>().await;
            }
            let text = self
                .outputs
                .get(call_id)
                .cloned()
                .unwrap_or_else(|| format!("no scripted output for {call_id}"));
            output_for_call(call, &text)
        })
    }
}

fn reasoning(id: &str, summary: &str) -> ResponseItem {
    let mut item = ResponseItem::reasoning_summary(summary, "gAAAAABsample-encrypted-reasoning");
    item.set_id(Some(ResponseItemId::from(id)));
    item
}

fn shell(call_id: &str, command: &str) -> ResponseItem {
    let arguments = serde_json::json!({
        "command": ["bash", "-lc", command],
        "workdir": CWD,
        "timeout_ms": 120_000,
    });
    ResponseItem::function_call("shell", arguments.to_string(), call_id)
}

fn say(text: &str, phase: MessagePhase) -> ResponseItem {
    ResponseItem::assistant_text(text, Some(phase))
}

fn usage(input: i64, cached: i64, output: i64, reasoning: i64) -> TokenUsage {
    TokenUsage {
        input_tokens: input,
        cached_input_tokens: cached,
        output_tokens: output,
        reasoning_output_tokens: reasoning,
        total_tokens: input + output,
        ..TokenUsage::default()
    }
}

const PATCH: &str = "*** Begin Patch
*** Update File: src/main.rs
@@ struct Args {
     /// Path of the todo file.
     file: PathBuf,
+    /// Print every step.
+    #[arg(long)]
+    verbose: bool,
 }
*** End Patch";

fn turns() -> Vec<ScriptedTurn> {
    vec![
        ScriptedTurn {
            id: "turn-1",
            user: "What does this project build with? List the files first.",
            responses: vec![
                ModelResponse::new(vec![
                    reasoning("rs_sample_1", "Listing the repository before answering"),
                    shell("call_ls", "ls -a"),
                ]),
                ModelResponse::new(vec![
                    say(
                        "It is a Rust crate; reading its manifest.",
                        MessagePhase::Commentary,
                    ),
                    shell("call_manifest", "cat Cargo.toml"),
                ])
                .with_usage(usage(2_410, 1_920, 96, 64)),
                ModelResponse::new(vec![say(
                    "The project is a single Rust binary crate (`todo-cli`, edition 2021) \
                     built with Cargo. It depends on `clap` for arguments and `serde_json` \
                     for the todo file.",
                    MessagePhase::FinalAnswer,
                )])
                .with_usage(usage(2_731, 2_304, 58, 0)),
            ],
            outputs: &[
                (
                    "call_ls",
                    ".\n..\n.gitignore\nCargo.lock\nCargo.toml\nREADME.md\nsrc\n",
                ),
                (
                    "call_manifest",
                    "[package]\nname = \"todo-cli\"\nversion = \"0.3.0\"\nedition = \"2021\"\n\n\
                     [dependencies]\nclap = { version = \"4\", features = [\"derive\"] }\n\
                     serde_json = \"1\"\n",
                ),
            ],
            interrupt_on: None,
        },
        ScriptedTurn {
            id: "turn-2",
            user: "Add a --verbose flag to the CLI.",
            responses: vec![
                ModelResponse::new(vec![
                    reasoning("rs_sample_2", "Adding a clap flag to the Args struct"),
                    ResponseItem::custom_tool_call("apply_patch", PATCH, "call_patch"),
                ])
                .with_usage(usage(3_020, 2_688, 142, 40)),
                ModelResponse::new(vec![say(
                    "Added `--verbose` (a `bool` flag on `Args`). Nothing uses it yet; \
                     tell me which steps should print.",
                    MessagePhase::FinalAnswer,
                )])
                .with_usage(usage(3_240, 3_072, 35, 0)),
            ],
            outputs: &[(
                "call_patch",
                "Success. Updated the following files:\nM src/main.rs\n",
            )],
            interrupt_on: None,
        },
        ScriptedTurn {
            id: "turn-3",
            user: "Run the whole test suite.",
            responses: vec![
                ModelResponse::new(vec![
                    say(
                        "Running `cargo test` for the workspace.",
                        MessagePhase::Commentary,
                    ),
                    shell("call_tests", "cargo test --all-targets"),
                ])
                .with_usage(usage(3_330, 3_200, 31, 0)),
            ],
            outputs: &[],
            interrupt_on: Some("call_tests"),
        },
        ScriptedTurn {
            id: "turn-4",
            user: "Never mind the full suite: delete the tests folder instead.",
            responses: vec![
                ModelResponse::new(vec![shell("call_rm", "rm -r tests")])
                    .with_usage(usage(3_512, 3_328, 22, 0)),
                ModelResponse::new(vec![say("Deleted `tests/`.", MessagePhase::FinalAnswer)])
                    .with_usage(usage(3_560, 3_456, 9, 0)),
            ],
            outputs: &[("call_rm", "")],
            interrupt_on: None,
        },
        ScriptedTurn {
            id: "turn-5",
            user: "Only run the parser's unit tests.",
            responses: vec![
                ModelResponse::new(vec![
                    reasoning("rs_sample_5", "Filtering cargo test to the parser module"),
                    shell("call_parser_tests", "cargo test parser::"),
                ])
                .with_usage(usage(3_498, 3_328, 40, 16)),
                ModelResponse::new(vec![say(
                    "All 6 parser tests pass (`cargo test parser::`).",
                    MessagePhase::FinalAnswer,
                )])
                .with_usage(usage(3_702, 3_584, 17, 0)),
            ],
            outputs: &[(
                "call_parser_tests",
                "running 6 tests\ntest parser::tests::empty_line ... ok\n\
                 test parser::tests::done_marker ... ok\ntest parser::tests::due_date ... ok\n\
                 test parser::tests::priority ... ok\ntest parser::tests::tags ... ok\n\
                 test parser::tests::unicode_title ... ok\n\n\
                 test result: ok. 6 passed; 0 failed; 0 ignored\n",
            )],
            interrupt_on: None,
        },
    ]
}

/// The turn whose effects the person regrets and rolls back (right after it ends).
const ROLLED_BACK_TURN: &str = "turn-4";

/// How far the sample's clock moves at every reading: every stamp of the recording (lines,
/// item events, turn times, durations) is a later reading of one clock.
const CLOCK_STEP: Duration = Duration::from_millis(250);

/// The sample's ids (`msg_…`, `fc_…`) count up from here.
const ID_BASE: &str = "0197a2c4-5e00-7000-8000-000000000000";

/// Records the scripted session into a new rollout file at `path` (which must not exist) and
/// returns once everything is on disk. Time comes from a clock that starts at [`SAMPLE_START`]
/// and steps by `CLOCK_STEP`, ids from a counter, shared by the session and the recorder:
/// the same file on every run, with nothing rewritten afterwards.
pub(crate) async fn record(path: &Path) -> anyhow::Result<()> {
    let start: DateTime<Utc> = DateTime::parse_from_rfc3339(SAMPLE_START)?.with_timezone(&Utc);
    let clock: Arc<dyn Clock> = Arc::new(SteppingClock::new(start.into(), CLOCK_STEP));
    let ids: Arc<dyn IdSource> = Arc::new(SequentialIds::new(Uuid::parse_str(ID_BASE)?));
    let thread_id = ThreadId::from_string(SAMPLE_THREAD_ID)?;
    let mut meta = new_session_meta(thread_id, CWD, "codex_thread_sample");
    meta.meta.timestamp = SAMPLE_START.to_string();
    meta.meta.model_provider = Some("openai".to_string());
    meta.meta.base_instructions = Some(BaseInstructions::new(BASE_INSTRUCTIONS));
    // Today's Codex writes paginated history: every completed item (commands and patches
    // included) is kept, so a client resuming the sample sees its tool calls.
    meta.meta.history_mode = Some(HistoryMode::Paginated);
    let recorder = RolloutRecorder::create_at_with_clock(path, meta, Arc::clone(&clock))?;

    let configuration =
        SessionConfiguration::new(thread_id, ModelSettings::new(MODEL, BASE_INSTRUCTIONS));
    let session = Session::new(
        configuration,
        Some(Arc::new(recorder.clone())),
        Arc::new(InMemoryEventSink::new()),
    )
    .with_clock_and_ids(clock, ids);
    let initial_context = InitialContextInputs {
        developer_instructions: Some(
            "Prefer small, reviewable patches. Ask before deleting files.".to_string(),
        ),
        world_fragments: vec![ContextFragment::environment_context(&format!(
            "\n  <cwd>{CWD}</cwd>\n  <shell>bash</shell>\n"
        ))],
        ..InitialContextInputs::default()
    };

    for turn in turns() {
        let context = session.new_turn_context(turn.id).await;
        let mut turn_settings = TurnContextItem::new(
            CWD,
            serde_json::json!("on-request"),
            serde_json::json!({"type": "workspace-write"}),
            MODEL,
        );
        turn_settings.turn_id = Some(turn.id.to_string());
        turn_settings.effort = Some("medium".to_string());
        turn_settings.summary = Some("auto".to_string());

        let interrupt = TurnInterrupt::new();
        let tools = TableTools {
            outputs: turn
                .outputs
                .iter()
                .map(|(id, text)| ((*id).to_string(), (*text).to_string()))
                .collect(),
            interrupt: turn
                .interrupt_on
                .map(|call_id| (call_id.to_string(), interrupt.clone())),
        };
        let model = ScriptedModel::new(turn.responses);
        TurnRunner::new(&model, &tools)
            .with_initial_context(initial_context.clone())
            .with_turn_settings(turn_settings)
            .run(
                &session,
                &context,
                &[UserInput::text(turn.user)],
                &interrupt,
            )
            .await?;

        if turn.id == ROLLED_BACK_TURN {
            session.rollback(turn.id, 1).await;
        }
    }
    session.flush_rollout().await?;
    recorder.shutdown().await?;
    Ok(())
}
