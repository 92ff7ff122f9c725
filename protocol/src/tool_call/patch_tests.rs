use super::*;
use pretty_assertions::assert_eq;

/// Asserts that `patch` parses into exactly the `expected` changes.
#[track_caller]
fn check(patch: &str, expected: &[(&str, FileChange)]) {
    let expected: BTreeMap<String, FileChange> = expected
        .iter()
        .map(|(path, change)| ((*path).to_string(), change.clone()))
        .collect();
    assert_eq!(parse_patch(patch), Some(expected));
}

#[track_caller]
fn refused(patch: &str) {
    assert_eq!(parse_patch(patch), None, "{patch:?}");
}

fn update(diff: &str, move_path: Option<&str>) -> FileChange {
    FileChange::Update {
        unified_diff: diff.to_string(),
        move_path: move_path.map(PathBuf::from),
    }
}

#[test]
fn update_keeps_the_hunks_as_written() {
    check(
        "*** Begin Patch\n*** Update File: src/main.rs\n@@ struct Args {\n     file: PathBuf,\n+    verbose: bool,\n }\n*** End Patch",
        &[(
            "src/main.rs",
            update(
                "@@ struct Args {\n     file: PathBuf,\n+    verbose: bool,\n }\n",
                None,
            ),
        )],
    );
}

#[test]
fn add_delete_and_move_in_one_patch() {
    check(
        "\n*** Begin Patch\r\n*** Add File: notes.md\r\n+# Notes\r\n+\r\n*** Delete File: old.txt\n*** Update File: a.rs\n*** Move to: b.rs\n@@\n-x\n+y\n*** End Patch\n",
        &[
            ("a.rs", update("@@\n-x\n+y\n", Some("b.rs"))),
            (
                "notes.md",
                FileChange::Add {
                    content: "# Notes\n\n".to_string(),
                },
            ),
            (
                "old.txt",
                FileChange::Delete {
                    content: String::new(),
                },
            ),
        ],
    );
}

#[test]
fn malformed_patches_are_refused() {
    refused("");
    refused("*** Update File: a.rs\n*** End Patch");
    refused("*** Begin Patch\n*** Update File: a.rs\n@@\n+x\n");
    refused("*** Begin Patch\n*** End Patch");
    refused("*** Begin Patch\nstray line\n*** Add File: a\n+x\n*** End Patch");
    refused("*** Begin Patch\n*** Add File: a\nno plus\n*** End Patch");
    refused("*** Begin Patch\n*** Delete File: a\ncontent\n*** End Patch");
}
