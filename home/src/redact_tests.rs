//! The redaction rules one string at a time: every secret kind of the rule set, home paths
//! in every spelling, user names a home path revealed, what is counted.

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
