//! The secret rule set: every kind of credential `--redact` masks and `codex-thread secrets`
//! reports, one row each, written from the formats their issuers document.
//!
//! Each row is a kind (what a finding is called) and a regular expression, whose groups
//! `pre` and `post`, when it has them, are context kept around the secret (`Bearer ` before
//! a token, the `@` after a password in a URL). A row is
//! only as wide as the documented shape: a fixed prefix (`sk-ant-`, `ghp_`, `AKIA`, ...) and
//! a run of the characters the issuer uses, long enough that prose never matches. Order
//! matters where shapes overlap: the more specific prefix comes first (`sk-ant-` before
//! OpenAI's `sk-`).

use regex::{Captures, Regex};

/// One rule: (kind, pattern).
pub(crate) type SecretRule = (&'static str, &'static str);

/// The rules, most specific first.
pub(crate) const SECRET_RULES: &[SecretRule] = &[
    (
        "private key",
        r"-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----",
    ),
    (
        "Anthropic API key",
        r"\bsk-ant-[A-Za-z0-9]{2,8}\d*-[A-Za-z0-9_-]{20,}",
    ),
    (
        "OpenAI API key",
        r"\bsk-(?:proj-|svcacct-|admin-|None-)?[A-Za-z0-9_-]{20,}",
    ),
    (
        "Stripe secret key",
        r"\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}",
    ),
    ("Google API key", r"\bAIza[0-9A-Za-z_-]{35}"),
    ("Google OAuth client secret", r"\bGOCSPX-[A-Za-z0-9_-]{28}"),
    ("GitHub token", r"\bgh[pousr]_[A-Za-z0-9]{36,}"),
    (
        "GitHub token",
        r"\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}",
    ),
    ("GitLab token", r"\bgl(?:pat|dt|rt|ptt)-[A-Za-z0-9_-]{20,}"),
    ("Slack token", r"\bxox[abposr]-[A-Za-z0-9-]{10,}"),
    (
        "Slack webhook",
        r"https://hooks\.slack\.com/services/T[A-Za-z0-9]+/B[A-Za-z0-9]+/[A-Za-z0-9]+",
    ),
    ("AWS access key", r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"),
    (
        "AWS secret key",
        r#"(?i)(?P<pre>aws_secret_access_key\\?["']?\s*[:=]\s*\\?["']?)[A-Za-z0-9/+]{40}"#,
    ),
    ("Hugging Face token", r"\bhf_[A-Za-z0-9]{34,}"),
    ("npm token", r"\bnpm_[A-Za-z0-9]{36}\b"),
    ("PyPI token", r"\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}"),
    (
        "SendGrid API key",
        r"\bSG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}",
    ),
    ("DigitalOcean token", r"\bdo[opr]_v1_[a-f0-9]{64}\b"),
    (
        "JSON Web Token",
        r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}",
    ),
    (
        "bearer token",
        r"(?P<pre>\bBearer\s+)[A-Za-z0-9._~+/=-]{16,}",
    ),
    (
        "password in URL",
        r"(?P<pre>\b[a-z][a-z0-9+.-]*://[^/\s:@]+:)[^@\s/]{3,}(?P<post>@)",
    ),
];

/// The rule set, compiled.
#[derive(Debug)]
pub(crate) struct SecretRules {
    rules: Vec<(&'static str, Regex)>,
}

impl SecretRules {
    /// Compiles [`SECRET_RULES`]; an error is a mistake in the table (a test compiles it).
    pub(crate) fn new() -> Result<Self, (&'static str, regex::Error)> {
        let rules = SECRET_RULES
            .iter()
            .map(|(kind, pattern)| {
                Regex::new(pattern)
                    .map(|regex| (*kind, regex))
                    .map_err(|error| (*pattern, error))
            })
            .collect::<Result<_, _>>()?;
        Ok(Self { rules })
    }

    /// Masks every secret of `value` in place, rule by rule (a later rule never sees what
    /// an earlier one masked), calling `found` with the kind and the secret of each.
    pub(crate) fn mask(&self, value: &mut String, found: &mut dyn FnMut(&'static str, &str)) {
        for (kind, pattern) in &self.rules {
            if !pattern.is_match(value) {
                continue;
            }
            let mask = if *kind == "private key" {
                "[private key]"
            } else {
                "[token]"
            };
            let masked = pattern.replace_all(value, |caps: &Captures<'_>| {
                let pre = caps.name("pre").map_or("", |m| m.as_str());
                let post = caps.name("post").map_or("", |m| m.as_str());
                let whole = caps.get(0).map_or("", |m| m.as_str());
                let secret = &whole[pre.len()..whole.len() - post.len()];
                found(kind, secret);
                format!("{pre}{mask}{post}")
            });
            *value = masked.into_owned();
        }
    }
}

/// How a secret is shown in a finding: its first four characters, then `…` (a private key
/// by its `BEGIN` line).
pub(crate) fn masked(secret: &str) -> String {
    if let Some(rest) = secret.strip_prefix("-----BEGIN")
        && let Some(end) = rest.find("-----")
    {
        return format!("-----BEGIN{}-----…", &rest[..end]);
    }
    let head: String = secret.chars().take(4).collect();
    format!("{head}…")
}
