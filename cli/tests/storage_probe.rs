//! Scratch: builds a home with the real Codex and copies it to /tmp/probe/home.
mod common;
use codex_test_support::{CodexHome, Reply, Script, ScriptedModel, real_codex_or_skip};
use common::TestResult;

#[test]
fn probe() -> TestResult {
    let Some(codex) = real_codex_or_skip("probe") else { return Ok(()) };
    let model = ScriptedModel::start(Script::new())?;
    let home = CodexHome::new(&codex, &model)?;
    for i in 0..5 {
        model.push_reply(Reply::message(&format!("msg_{i}"), &format!("Answer {i}.")));
        home.exec(&format!("prompt {i}"))?.assert_success();
    }
    let status = std::process::Command::new("cp").args(["-a", home.path().to_str().unwrap(), "/tmp/probe/home"]).status()?;
    assert!(status.success());
    Ok(())
}
