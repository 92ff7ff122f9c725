//! The loud-skip rule every test that needs something from outside the repository follows:
//! the real session files (`real_fixtures`) and the real Codex CLI (`real_codex`).
//!
//! Written once so the two cannot drift: when the thing is missing, a test passes after a
//! banner on stderr that no one can miss, unless its `CODEX_REQUIRE_*` variable is exactly
//! `1`, where it fails with how to get the thing.

/// Whether a value of a `CODEX_REQUIRE_*` variable requires the thing: only exactly `1`
/// does. Separate from reading the variable so the rule can be tested without touching the
/// process environment.
pub fn required_from(value: Option<&str>) -> bool {
    value == Some("1")
}

/// Whether this process sets the variable `env` to exactly `1`.
pub(crate) fn required_by(env: &str) -> bool {
    required_from(std::env::var(env).ok().as_deref())
}

/// The rule for a thing found missing: panics with `"{env}=1 but {missing}{remedy}"` when
/// `required`, else prints the loud banner (`SKIPPED: {missing}`) and returns, so the caller
/// returns `None`.
///
/// # Panics
///
/// When `required`: that is how a required thing fails its test.
#[allow(clippy::panic, clippy::print_stderr)]
pub(crate) fn skip_or_fail(env: &str, required: bool, missing: &str, remedy: &str) {
    if required {
        panic!("{env}=1 but {missing}{remedy}");
    }
    eprintln!("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
    eprintln!("!!! SKIPPED: {missing}; the test did not run");
    eprintln!("!!! (set {env}=1 to make this a failure)");
    eprintln!("!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!!");
}
