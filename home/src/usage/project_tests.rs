use pretty_assertions::assert_eq;

use super::*;

#[test]
fn a_remote_is_named_without_how_it_is_reached() {
    for url in [
        "git@github.com:AcidicSoil/chatbot-ui.git",
        "https://github.com/AcidicSoil/chatbot-ui.git",
        "https://github.com/AcidicSoil/chatbot-ui/",
        "https://user@github.com/AcidicSoil/chatbot-ui",
        "ssh://git@github.com:22/AcidicSoil/chatbot-ui.git",
        "ssh://git@github.com/AcidicSoil/chatbot-ui",
    ] {
        assert_eq!(
            repository_name(url),
            "github.com/AcidicSoil/chatbot-ui",
            "{url}"
        );
    }
}

#[test]
fn the_project_is_the_remote_else_the_cwd() -> Result<(), serde_json::Error> {
    let meta = |git: &str| -> Result<SessionMetaLine, serde_json::Error> {
        serde_json::from_str(&format!(
            r#"{{"id":"01972fde-7e80-7000-8000-000000000001","timestamp":"2025-06-02T09:00:00.000Z","cwd":"/w/sub","originator":"t","cli_version":"0.1.0"{git}}}"#
        ))
    };
    assert_eq!(
        session_project(&meta(
            r#","git":{"repository_url":"git@github.com:o/r.git"}"#
        )?),
        "github.com/o/r"
    );
    assert_eq!(
        session_project(&meta(r#","git":{"commit_hash":"abc"}"#)?),
        "/w/sub"
    );
    assert_eq!(session_project(&meta("")?), "/w/sub");
    Ok(())
}
