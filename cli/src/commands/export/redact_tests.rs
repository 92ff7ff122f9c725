use codex_app_server_protocol::v2::{ThreadItem, Turn};

use super::*;

/// A turn whose strings hold one sample of each pattern, and a cwd with a home path.
fn seeded() -> Result<(Turn, String), serde_json::Error> {
    let turn = serde_json::from_value(serde_json::json!({
        "id": "turn-1",
        "rootTurnId": null,
        "status": "completed",
        "error": null,
        "startedAt": null,
        "completedAt": null,
        "durationMs": null,
        "items": [
            {
                "type": "userMessage",
                "id": "item-1",
                "content": [{
                    "type": "text",
                    "text": "mail bob.smith@example.org, key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx, ticket ACME-1234"
                }]
            },
            {
                "type": "agentMessage",
                "id": "item-2",
                "text": "ghp_0123456789abcdefghijABCDEFGHIJ012345 and AKIAIOSFODNN7EXAMPLE on devbox-17"
            },
            {
                "type": "commandExecution",
                "id": "call_1",
                "pluginId": null,
                "scriptPath": null,
                "command": "curl -H 'Authorization: Bearer abcdefghijklmnop0123456789' https://api.example.com; cat /Users/alice/.ssh/id_ed25519",
                "cwd": "/tmp",
                "processId": null,
                "status": "completed",
                "commandActions": [],
                "aggregatedOutput": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nssh build7.corp.internal ok",
                "exitCode": 0,
                "durationMs": 5
            }
        ]
    }))?;
    Ok((turn, r"C:\Users\alice\src\app".to_string()))
}

#[test]
fn every_pattern_is_masked_and_counted() -> Result<(), Box<dyn std::error::Error>> {
    let (mut turn, mut cwd) = seeded()?;
    let redactor = Redactor::new(Some("devbox-17"), &[r"ACME-\d+".to_string()])?;
    let mut report = redactor.report();
    redact(&redactor, &mut cwd, &mut report)?;
    redact(&redactor, &mut turn, &mut report)?;
    assert_eq!(report.count("private key"), 1);
    for kind in [
        "OpenAI API key",
        "GitHub token",
        "AWS access key",
        "bearer token",
    ] {
        assert_eq!(report.count(kind), 1, "{kind}: {report:?}");
    }
    assert_eq!(report.count("email"), 1);
    assert_eq!(report.count("home path"), 2);
    // `alice`, learned from the cwd's home path, in no other place here.
    assert_eq!(report.count("user name"), 0);
    assert_eq!(report.count("host name"), 2); // build7.corp.internal, devbox-17
    assert_eq!(report.count("custom match"), 1);
    let json = serde_json::to_string(&(&turn, &cwd))?;
    for secret in [
        "bob.smith",
        "sk-proj-",
        "ghp_",
        "AKIAIOSFODNN7EXAMPLE",
        "abcdefghijklmnop0123456789",
        "b3BlbnNzaC1rZXktdjEAAAAA",
        "alice",
        "build7",
        "devbox-17",
        "ACME-1234",
    ] {
        assert!(!json.contains(secret), "{secret} left in {json}");
    }
    for mask in [
        "[email]",
        "[token]",
        "[private key]",
        "[host]",
        "[redacted]",
        "~/.ssh",
    ] {
        assert!(json.contains(mask), "{mask} missing from {json}");
    }
    assert_eq!(
        report.summary(),
        "1 private key(s), 1 OpenAI API key(s), 1 GitHub token(s), 1 AWS access key(s), \
         1 bearer token(s), 1 email(s), 2 home path(s), 2 host name(s), 1 custom match(s)"
    );
    Ok(())
}

#[test]
fn plain_text_and_protocol_words_are_left_alone() -> Result<(), Box<dyn std::error::Error>> {
    let (mut turn, _) = seeded()?;
    let before = turn.clone();
    let redactor = Redactor::new(None, &["completed|userMessage".to_string()])?;
    let mut report = redactor.report();
    redact(&redactor, &mut turn, &mut report)?;
    let ThreadItem::UserMessage { content, .. } = &turn.items[0].item else {
        return Err("no user message".into());
    };
    let text = serde_json::to_string(content)?;
    assert!(
        text.contains("mail [email], key [token], ticket ACME-1234"),
        "{text}"
    );
    assert_ne!(turn, before);
    assert_eq!(
        serde_json::to_value(&turn)?["status"],
        "completed",
        "a status is a protocol word"
    );
    let redactor = Redactor::new(None, &[])?;
    let mut report = redactor.report();
    redact(&redactor, &mut String::from("plain words"), &mut report)?;
    assert_eq!(report.summary(), "nothing matched");
    Ok(())
}

#[test]
fn a_bad_custom_pattern_is_refused() {
    assert!(Redactor::new(None, &["(".to_string()]).is_err());
}
