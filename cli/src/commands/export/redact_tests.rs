use super::*;
use crate::commands::export::transcript::{Entry, EntryKind, ToolCall, TranscriptTurn};

/// A transcript whose strings hold one sample of each pattern.
fn seeded() -> Transcript {
    let call = ToolCall {
        name: "shell".to_string(),
        input: r#"{"command":["cat","/Users/alice/.ssh/id_ed25519"]}"#.to_string(),
        command: Some("curl -H 'Authorization: Bearer abcdefghijklmnop0123456789' https://api.example.com".to_string()),
        output: Some(
            "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----\nssh build7.corp.internal ok"
                .to_string(),
        ),
        ..ToolCall::default()
    };
    let entries = vec![
        Entry {
            at: None,
            kind: EntryKind::User {
                text: "mail bob.smith@example.org, key sk-proj-AbCdEfGhIjKlMnOpQrStUvWx, ticket ACME-1234"
                    .to_string(),
                images: Vec::new(),
            },
        },
        Entry {
            at: None,
            kind: EntryKind::Assistant {
                text: "ghp_0123456789abcdefghijABCDEFGHIJ012345 and AKIAIOSFODNN7EXAMPLE on devbox-17".to_string(),
                phase: None,
            },
        },
        Entry {
            at: None,
            kind: EntryKind::ToolCall(Box::new(call)),
        },
    ];
    Transcript {
        cwd: Some(r"C:\Users\alice\src\app".to_string()),
        turns: vec![TranscriptTurn {
            number: Some(1),
            status: "completed",
            rolled_back: false,
            started_at: None,
            entries,
        }],
        ..Transcript::default()
    }
}

#[test]
fn every_pattern_is_masked_and_counted() -> Result<(), Box<dyn std::error::Error>> {
    let mut transcript = seeded();
    let redactor = Redactor::new(Some("devbox-17"), &[r"ACME-\d+".to_string()])?;
    let report = redactor.redact(&mut transcript);
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
    let json = serde_json::to_string(&transcript)?;
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
fn plain_text_is_left_alone() -> Result<(), Box<dyn std::error::Error>> {
    let mut transcript = seeded();
    let before = transcript.clone();
    let redactor = Redactor::new(None, &[])?;
    redactor.redact(&mut transcript);
    let EntryKind::User { text, .. } = &transcript.turns[0].entries[0].kind else {
        return Err("no user entry".into());
    };
    assert!(
        text.starts_with("mail [email], key [token], ticket ACME-1234"),
        "{text}"
    );
    assert_ne!(transcript, before);
    assert_eq!(
        Redactor::new(None, &[])?
            .redact(&mut Transcript::default())
            .summary(),
        "nothing matched"
    );
    Ok(())
}

#[test]
fn a_bad_custom_pattern_is_refused() {
    assert!(Redactor::new(None, &["(".to_string()]).is_err());
}
