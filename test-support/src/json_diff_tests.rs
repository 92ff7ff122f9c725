use serde_json::{Value, json};

use super::*;

#[track_caller]
fn check(ours: Value, theirs: Value, expect: &[&str]) {
    let shown: Vec<String> = json_differences(&ours, &theirs)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(shown, expect);
}

#[test]
fn equal_values_have_no_differences() {
    check(
        json!({"a": [1, {"b": null}]}),
        json!({"a": [1, {"b": null}]}),
        &[],
    );
}

#[test]
fn object_members_are_compared_by_key() {
    check(
        json!({"same": 1, "changed": "x", "ours": true}),
        json!({"same": 1, "changed": "y", "theirs": false}),
        &[
            r#"$.changed: ours "x" != theirs "y""#,
            "$.ours: only ours: true",
            "$.theirs: only theirs: false",
        ],
    );
}

#[test]
fn arrays_report_their_length_and_each_extra_element() {
    check(
        json!({"input": [1, 2, 3]}),
        json!({"input": [1, 5]}),
        &[
            "$.input: length ours 3 != theirs 2",
            "$.input[1]: ours 2 != theirs 5",
            "$.input[2]: only ours: 3",
        ],
    );
}

#[test]
fn odd_keys_are_quoted_and_types_differ_as_values() {
    check(
        json!({"x-codex": {"a b": [1]}}),
        json!({"x-codex": {"a b": {"0": 1}}}),
        &[r#"$["x-codex"]["a b"]: ours [1] != theirs {"0":1}"#],
    );
}

#[test]
fn long_values_are_cut_and_long_lists_summarized() {
    let long = "y".repeat(300);
    let differences = json_differences(&json!([long, 1, 2]), &json!(["z", 3, 4]));
    let text = describe_differences(&differences, 2);
    assert!(text.contains("..."), "{text}");
    assert!(text.ends_with("... and 1 more\n"), "{text}");
    assert!(text.lines().all(|line| line.len() < 260), "{text}");
}

#[test]
#[should_panic(expected = "history: 1 difference(s)")]
fn assert_same_json_names_what_it_compared() {
    assert_same_json("history", &json!([1]), &json!([2]));
}
