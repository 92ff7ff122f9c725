//! The scripted threads. Each covers one behaviour the live projection and the history
//! rebuild must agree on.

use codex_protocol::event::CodexErrorInfo;
use codex_protocol::models::MessagePhase;
use codex_protocol::thread_id::ThreadId;
use uuid::Uuid;

use super::Scenario;
use super::script::Script;

/// Every scripted thread, in a stable order.
pub fn all_scenarios() -> Vec<Scenario> {
    vec![
        streamed_answer(),
        command_with_output(),
        interrupted_turn(),
        failed_turn(),
        rollback(),
    ]
}

fn thread_id(n: u128) -> ThreadId {
    ThreadId::from(Uuid::from_u128(
        0x0197_7300_0000_7000_8000_0000_0000_0000 | n,
    ))
}

/// An answer streamed in deltas after streamed reasoning.
fn streamed_answer() -> Scenario {
    let mut script = Script::new(thread_id(1));
    script.start_turn("turn-1");
    script.user_message("Explain how the project builds.");
    script.reasoning(&["Looking at ", "Cargo.toml ", "first."]);
    script.agent_message(
        &["The build ", "uses cargo ", "workspaces."],
        MessagePhase::FinalAnswer,
    );
    script.token_count(1200);
    script.complete_turn(Some("The build uses cargo workspaces."));
    Scenario {
        name: "streamed_answer",
        description: "reasoning and an agent message streamed in deltas, then completed",
        thread_id: thread_id(1),
        steps: script.into_steps(),
    }
}

/// A command that needs approval, whose begin repeats and whose output streams, with a
/// multi-byte character split across two chunks.
fn command_with_output() -> Scenario {
    let mut script = Script::new(thread_id(2));
    script.start_turn("turn-1");
    script.user_message("Run the tests.");
    script.agent_message(&["Running ", "the tests."], MessagePhase::Commentary);
    let call = script.exec_approval(&["cargo", "test", "--all"]);
    script.client_answers(&call, serde_json::json!("accept"));
    let check_mark = "\u{2713}".as_bytes();
    let (first, second) = check_mark.split_at(1);
    script.exec_command(
        &call,
        &["cargo", "test", "--all"],
        &[
            b"running 2 tests\n",
            b"test a ... ok ",
            first,
            second,
            b"\n",
        ],
        0,
    );
    script.agent_message(&["All tests pass."], MessagePhase::FinalAnswer);
    script.complete_turn(Some("All tests pass."));
    Scenario {
        name: "command_with_output",
        description: "an approved command with repeated begin and streamed output",
        thread_id: thread_id(2),
        steps: script.into_steps(),
    }
}

/// A completed turn, then one interrupted while a patch approval was still open.
fn interrupted_turn() -> Scenario {
    let mut script = Script::new(thread_id(3));
    script.start_turn("turn-1");
    script.user_message("Say hello.");
    script.agent_message(&["Hello!"], MessagePhase::FinalAnswer);
    script.complete_turn(Some("Hello!"));
    script.start_turn("turn-2");
    script.user_message("Add a greeting file.");
    script.agent_message(&["Adding ", "greeting.txt."], MessagePhase::Commentary);
    script.patch_approval("greeting.txt");
    script.abort_turn();
    Scenario {
        name: "interrupted_turn",
        description: "a turn interrupted with an approval still open",
        thread_id: thread_id(3),
        steps: script.into_steps(),
    }
}

/// A turn that fails on a context-window error after a failing command.
fn failed_turn() -> Scenario {
    let mut script = Script::new(thread_id(4));
    script.start_turn("turn-1");
    script.user_message("Summarise the whole repository.");
    script.reasoning(&["That is ", "a lot of files."]);
    let call = script.exec_approval(&["ls", "-R"]);
    script.client_answers(&call, serde_json::json!("acceptForSession"));
    script.exec_command(
        &call,
        &["ls", "-R"],
        &[b"src\n", b"ls: cannot open 'x'\n"],
        2,
    );
    script.error(
        "Your input exceeds the context window of this model.",
        CodexErrorInfo::ContextWindowExceeded,
    );
    script.complete_turn(None);
    Scenario {
        name: "failed_turn",
        description: "a turn that ends failed after a context-window error",
        thread_id: thread_id(4),
        steps: script.into_steps(),
    }
}

/// Two turns, the second rolled back by the client, then a new turn.
fn rollback() -> Scenario {
    let mut script = Script::new(thread_id(5));
    script.start_turn("turn-1");
    script.user_message("Create notes.md.");
    let call = script.patch_approval("notes.md");
    script.client_answers(&call, serde_json::json!("accept"));
    script.patch_apply(&call, "notes.md", true);
    script.agent_message(&["Created notes.md."], MessagePhase::FinalAnswer);
    script.complete_turn(Some("Created notes.md."));
    script.start_turn("turn-2");
    script.user_message("Now delete everything.");
    script.agent_message(&["Deleting ", "everything."], MessagePhase::FinalAnswer);
    script.complete_turn(Some("Deleting everything."));
    script.client_rollback(1);
    script.start_turn("turn-3");
    script.user_message("Actually, list the files.");
    script.agent_message(&["notes.md"], MessagePhase::FinalAnswer);
    script.complete_turn(Some("notes.md"));
    Scenario {
        name: "rollback",
        description: "a patch, a turn rolled back by the client, and a turn after it",
        thread_id: thread_id(5),
        steps: script.into_steps(),
    }
}
