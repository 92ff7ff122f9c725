//! The redaction rules one string at a time: every secret kind of the rule set, home paths
//! in every spelling, user names a home path revealed, what is counted; then a whole turn
//! through its JSON form, with the protocol's own words left alone.

use codex_app_server_protocol::v2::{ThreadItem, Turn};
use pretty_assertions::assert_eq;

use super::*;

/// A sample of each secret kind, written to the documented shape (none is a real credential).
pub(crate) const SECRET_SAMPLES: &[(&str, &str)] = &[
    (
        "private key",
        "-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA1x2y3z\n-----END RSA PRIVATE KEY-----",
    ),
    (
        "Anthropic API key",
        "sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789-_AbCdEf",
    ),
    (
        "OpenAI API key",
        "sk-proj-AbCdEfGhIjKlMnOpQrStUvWx0123456789",
    ),
    ("OpenAI API key", "sk-AbCdEfGhIjKlMnOpQrStUvWx0123"),
    ("Stripe secret key", "sk_live_AbCdEfGhIjKlMnOp0123"),
    ("Google API key", "AIzaSyAbCdEfGhIjKlMnOpQrStUvWxYz0123456"),
    (
        "Google OAuth client secret",
        "GOCSPX-AbCdEfGhIjKlMnOpQrStUvWxYz01",
    ),
    ("GitHub token", "ghp_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    ("GitHub token", "gho_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    ("GitHub token", "ghs_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    ("GitHub token", "ghu_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    (
        "GitHub token",
        "github_pat_11AbCdEfGh0123456789AB_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOpQrStUvW",
    ),
    ("GitLab token", "glpat-AbCdEfGhIjKlMnOpQrSt"),
    ("Slack token", "xoxb-1234567890-0987654321-AbCdEfGhIjKl"),
    ("Slack token", "xoxp-1234567890-0987654321-AbCdEfGhIjKl"),
    (
        "Slack webhook",
        "https://hooks.slack.com/services/T0123ABCD/B0123ABCD/AbCdEfGhIjKlMnOpQrStUvWx",
    ),
    ("AWS access key", "AKIAIOSFODNN7EXAMPLE"),
    ("AWS access key", "ASIAIOSFODNN7EXAMPLE"),
    (
        "AWS secret key",
        "aws_secret_access_key = wJalrXUtnFEMIK7MDENGbPxRfiCYEXAMPLEKEY01",
    ),
    (
        "Hugging Face token",
        "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567",
    ),
    ("npm token", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    (
        "PyPI token",
        "pypi-AgEIcHlwaS5vcmcAbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfGhIjKlMnOp",
    ),
    (
        "SendGrid API key",
        "SG.AbCdEfGhIjKlMnOpQrStUv.AbCdEfGhIjKlMnOpQrStUvWxYz0123456789AbCdEfG",
    ),
    (
        "DigitalOcean token",
        "dop_v1_0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef",
    ),
    (
        "JSON Web Token",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dBjftJeZ4CVPmB92K27uhbUJU1p1r_wW1gFWFOEjXk",
    ),
    (
        "bearer token",
        "Authorization: Bearer AbCdEfGhIjKlMnOp0123456789",
    ),
    (
        "password in URL",
        "postgres://app:s3cr3t-pw@db.example.com/app",
    ),
];

/// The part of each sample that must not survive.
pub(crate) fn secret_part(sample: &str) -> &str {
    for label in ["aws_secret_access_key = ", "Bearer "] {
        if let Some(at) = sample.find(label) {
            return &sample[at + label.len()..];
        }
    }
    if sample.starts_with("postgres://") {
        return "s3cr3t-pw";
    }
    if sample.starts_with("-----BEGIN") {
        return "MIIEpAIBAAKCAQEA1x2y3z";
    }
    sample
}

#[track_caller]
fn check(redactor: &Redactor, input: &str, expect: &str, counts: &[(&str, usize)]) {
    let mut report = redactor.report();
    let mut value = input.to_string();
    redactor.mask(&mut value, &mut report);
    assert_eq!(value, expect, "{input}");
    for (kind, count) in counts {
        assert_eq!(report.count(kind), *count, "{kind} in {input}: {report:?}");
    }
}

#[test]
fn every_secret_kind_is_masked_and_counted_under_its_kind() -> Result<(), BadPattern> {
    let redactor = Redactor::new(None, &[])?;
    for (kind, sample) in SECRET_SAMPLES {
        let mut report = redactor.report();
        let mut value = format!("before {sample} after");
        redactor.mask(&mut value, &mut report);
        assert!(!value.contains(secret_part(sample)), "{kind}: {value}");
        assert!(
            value.starts_with("before ") && value.ends_with(" after"),
            "{value}"
        );
        assert_eq!(report.count(kind), 1, "{kind}: {report:?}");
    }
    check(
        &redactor,
        "curl -H 'Authorization: Bearer AbCdEfGhIjKlMnOp0123456789' postgres://u:pw123@h/db",
        "curl -H 'Authorization: Bearer [token]' postgres://u:[token]@h/db",
        &[("bearer token", 1), ("password in URL", 1)],
    );
    Ok(())
}

#[test]
fn home_paths_of_every_spelling_are_masked() -> Result<(), BadPattern> {
    let redactor = Redactor::new(None, &[])?;
    for (input, expect) in [
        ("/home/alice/src", "~/src"),
        ("/var/home/alice/src", "~/src"),
        ("/Users/alice/src", "~/src"),
        (r"C:\Users\alice\src", r"~\src"),
        (r"c:\users\alice\src", r"~\src"),
        (
            r#""workdir": "c:\\Users\\alice\\src""#,
            r#""workdir": "~\\src""#,
        ),
        (r#"\"c:\\\\Users\\\\alice\\\\x\""#, r#"\"~\\\\x\""#),
        ("C:/Users/alice/src", "~/src"),
        ("/c/Users/alice/src", "~/src"),
        ("/mnt/c/Users/alice/src", "~/src"),
        (r#"{"cwd":"/home/alice"}"#, r#"{"cwd":"~"}"#),
    ] {
        check(&redactor, input, expect, &[("home path", 1)]);
    }
    Ok(())
}

#[test]
fn a_user_name_a_home_path_revealed_is_masked_as_a_word() -> Result<(), BadPattern> {
    let redactor = Redactor::new(None, &[])?;
    // Before any home path showed it, the name is left.
    check(&redactor, "owner alice", "owner alice", &[("user name", 0)]);
    check(
        &redactor,
        "cd /home/alice && ls -l",
        "cd ~ && ls -l",
        &[("home path", 1), ("user name", 0)],
    );
    check(
        &redactor,
        "-rw-r--r--  1 alice  staff  120 Sep  1 a.txt\nalice@box: Alice's; malice alice_x",
        "-rw-r--r--  1 [user]  staff  120 Sep  1 a.txt\n[user]@box: [user]'s; malice alice_x",
        &[("user name", 3)],
    );
    // Short and generic names are not words to mask.
    check(&redactor, "/home/runner/x runner jo", "~/x runner jo", &[]);
    check(
        &redactor,
        "/home/jo/x runner jo",
        "~/x runner jo",
        &[("user name", 0)],
    );
    Ok(())
}

#[test]
fn a_finding_shows_only_the_start_of_a_secret() {
    assert_eq!(masked("sk-proj-AbCdEf"), "sk-p…");
    assert_eq!(
        masked("-----BEGIN RSA PRIVATE KEY-----\\nMIIE\\n-----END RSA PRIVATE KEY-----"),
        "-----BEGIN RSA PRIVATE KEY-----…"
    );
}

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
    redactor.mask_serialized(&mut cwd, &mut report)?;
    redactor.mask_serialized(&mut turn, &mut report)?;
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
    redactor.mask_serialized(&mut turn, &mut report)?;
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
    redactor.mask_serialized(&mut String::from("plain words"), &mut report)?;
    assert_eq!(report.summary(), "nothing matched");
    Ok(())
}

#[test]
fn a_bad_custom_pattern_is_refused() {
    assert!(Redactor::new(None, &["(".to_string()]).is_err());
    assert!(Redactor::for_this_machine(&["(".to_string()]).is_err());
}

#[test]
fn this_machines_masks_take_the_custom_patterns() -> Result<(), BadPattern> {
    let redactor = Redactor::for_this_machine(&[r"ACME-\d+".to_string()])?;
    check(
        &redactor,
        "ticket ACME-1234",
        "ticket [redacted]",
        &[("custom match", 1)],
    );
    Ok(())
}
