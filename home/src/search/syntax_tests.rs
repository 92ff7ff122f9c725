//! Typed text is always text: every term quoted or matched by `LIKE`, never an operator.

use pretty_assertions::assert_eq;

use super::*;

#[track_caller]
fn check(text: &str, syntax: Syntax, fts: Option<&str>, likes: &[&str], terms: &[&str]) {
    let plan = match plan(text, syntax) {
        Ok(plan) => plan,
        Err(err) => panic!("{text:?}: {err}"),
    };
    assert_eq!(plan.fts.as_deref(), fts, "{text:?}");
    assert_eq!(plan.likes, likes, "{text:?}");
    assert_eq!(plan.terms, terms, "{text:?}");
}

#[test]
fn typed_terms_are_quoted_strings_and_short_ones_likes() {
    check(
        "senior-level code review",
        Syntax::Text,
        Some(r#""senior-level" AND "code" AND "review""#),
        &[],
        &["senior-level", "code", "review"],
    );
    check(
        r#"say "hi" NOT pars* col:x"#,
        Syntax::Text,
        Some(r#""say" AND """hi""" AND "NOT" AND "pars*" AND "col:x""#),
        &[],
        &["say", "\"hi\"", "NOT", "pars*", "col:x"],
    );
    check("全局", Syntax::Text, None, &["%全局%"], &["全局"]);
    check(
        "当前项目 in 50%_",
        Syntax::Text,
        Some(r#""当前项目" AND "50%_""#),
        &["%in%"],
        &["当前项目", "in", "50%_"],
    );
    check(
        "a_ %",
        Syntax::Text,
        None,
        &["%a\\_%", "%\\%%"],
        &["a_", "%"],
    );
}

#[test]
fn fts_syntax_is_passed_as_written_and_its_strings_highlighted() {
    check(
        r#"NEAR(read file, 8) OR "the ""big"" one" NOT pars* text:col"#,
        Syntax::Fts,
        Some(r#"NEAR(read file, 8) OR "the ""big"" one" NOT pars* text:col"#),
        &[],
        &["read", "file", "the \"big\" one", "pars", "col"],
    );
}

#[test]
fn a_query_of_nothing_is_an_error() {
    for (text, syntax) in [
        ("", Syntax::Text),
        ("  \t", Syntax::Text),
        ("OR", Syntax::Fts),
    ] {
        assert!(
            matches!(plan(text, syntax), Err(SearchError::Query { .. })),
            "{text:?}"
        );
    }
}
