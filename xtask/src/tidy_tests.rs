use std::path::Path;

use super::*;

fn write(root: &Path, file: &str, text: &str) -> std::io::Result<()> {
    let path = root.join(file);
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent)?;
    }
    std::fs::write(path, text)
}

/// The diagram of a small workspace: protocol at the top, two crates under it, one under both.
const DIAGRAM: &str = "# Architecture\n\n## Bird's-eye view\n\n```\ncodex-protocol   protocol/\n   ^        ^\ncodex-core   codex-app-server-protocol   core/, app-server-protocol/\n   ^\ncodex-rollout   rollout/\n```\n";

fn manifest(name: &str, deps: &str, dev_deps: &str) -> String {
    format!(
        "[package]\nname = \"{name}\"\n\n[dependencies]\n{deps}\n[dev-dependencies]\n{dev_deps}"
    )
}

/// A workspace whose manifests follow [`DIAGRAM`].
fn layered_workspace(root: &Path) -> std::io::Result<()> {
    write(
        root,
        "Cargo.toml",
        "[workspace]\nmembers = [\"protocol\", \"core\", \"app-server-protocol\", \"rollout\", \"test-support\"]\n",
    )?;
    write(root, "docs/architecture.md", DIAGRAM)?;
    let support = "codex-test-support = { path = \"../test-support\" }\n";
    let protocol = "codex-protocol = { workspace = true }\n";
    write(
        root,
        "protocol/Cargo.toml",
        &manifest("codex-protocol", "", support),
    )?;
    write(
        root,
        "core/Cargo.toml",
        &manifest("codex-core", protocol, support),
    )?;
    write(
        root,
        "app-server-protocol/Cargo.toml",
        &manifest("codex-app-server-protocol", protocol, support),
    )?;
    write(
        root,
        "rollout/Cargo.toml",
        &manifest(
            "codex-rollout",
            "codex-core = { workspace = true }\nserde = \"1\"\n",
            support,
        ),
    )?;
    write(
        root,
        "test-support/Cargo.toml",
        &manifest("codex-test-support", "", ""),
    )
}

/// A tree that keeps every rule: the files each rule tolerates break it as they do here.
fn clean_tree(root: &Path) -> std::io::Result<()> {
    layered_workspace(root)?;
    write(root, "protocol/src/lib.rs", "pub struct Item;\n")?;
    write(
        root,
        "core/src/lib.rs",
        "// std::fs is mentioned in a comment only\n",
    )?;
    write(root, "cli/src/main.rs", "fn main() {}\n")?;
    write(
        root,
        "cli/src/commands/other.rs",
        "pub(crate) fn helper() {}\n",
    )?;
    for rule in RULES {
        for (file, _) in rule.tolerated {
            write(root, file, &format!("let _ = {};\n", rule.forbidden[0]))?;
        }
    }
    Ok(())
}

#[test]
fn the_workspace_keeps_its_architecture_invariants() -> std::io::Result<()> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let violations = check(&root)?;
    assert!(violations.is_empty(), "{violations:#?}");
    Ok(())
}

#[test]
fn a_clean_tree_passes() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    clean_tree(dir.path())?;
    assert_eq!(check(dir.path())?, Vec::new());
    Ok(())
}

/// The test of the test: each rule, broken once, is reported, naming the file.
#[test]
fn each_broken_rule_is_reported() -> std::io::Result<()> {
    let cases = [
        (
            "protocol/src/io.rs",
            "use std::fs::File;\n",
            "codex-protocol does no IO",
        ),
        (
            "core/src/open.rs",
            "let f = File::open(path);\n",
            "codex-core opens no files",
        ),
        (
            "cli/src/turns.rs",
            "if is_user_turn_boundary(item) {}\n",
            "cli/src decides no turns",
        ),
        (
            "cli/src/calls.rs",
            "let key = link.pair_key();\n",
            "cli/src matches no calls",
        ),
        (
            "cli/src/commands/show.rs",
            "if let RolloutItem::SessionMeta(meta) = item {}\n",
            "cli/src names no wire variant",
        ),
        (
            "cli/src/commands/show.rs",
            "use crate::commands::other::Helper;\n",
            "a command module imports no other command module",
        ),
        (
            "cli/src/commands/show/part.rs",
            "use super::super::other::Helper;\n",
            "a command module imports no other command module",
        ),
    ];
    for (file, text, rule) in cases {
        let dir = tempfile::tempdir()?;
        clean_tree(dir.path())?;
        write(dir.path(), file, text)?;
        let violations = check(dir.path())?;
        assert_eq!(violations.len(), 1, "{file}: {violations:#?}");
        assert!(violations[0].rule.starts_with(rule), "{violations:#?}");
        assert_eq!(violations[0].file, file);
    }
    // Tests may do what the crates may not.
    let dir = tempfile::tempdir()?;
    clean_tree(dir.path())?;
    write(dir.path(), "core/src/open_tests.rs", "std::fs::read(p);\n")?;
    write(dir.path(), "core/tests/it/real.rs", "std::fs::read(p);\n")?;
    write(
        dir.path(),
        "cli/src/commands/show.rs",
        "let item = RolloutItem::from(meta);\nuse crate::commands::show::part;\n\
         #[cfg(test)]\nmod tests {\n    let _ = RolloutItem::SessionMeta(meta);\n}\n",
    )?;
    assert_eq!(check(dir.path())?, Vec::new());
    Ok(())
}

#[test]
fn a_long_file_is_reported_but_not_a_generated_one() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    clean_tree(dir.path())?;
    write(
        dir.path(),
        "core/src/big.rs",
        &"// line\n".repeat(MAX_LINES + 1),
    )?;
    write(
        dir.path(),
        "schema/typescript/Big.ts",
        &"x;\n".repeat(MAX_LINES + 1),
    )?;
    let violations = check(dir.path())?;
    assert_eq!(violations.len(), 1, "{violations:#?}");
    assert_eq!(violations[0].file, "core/src/big.rs");
    assert!(violations[0].detail.contains(&format!("{}", MAX_LINES + 1)));
    Ok(())
}

#[test]
fn a_tolerated_file_passes_until_it_is_fixed_then_the_allowance_fails() -> std::io::Result<()> {
    const RULE: &[Rule] = &[Rule {
        name: "no unsafe",
        folder: "core/src",
        forbidden: &["unsafe"],
        tolerated: &[("core/src/old.rs", "being rewritten")],
    }];
    let dir = tempfile::tempdir()?;
    write(dir.path(), "core/src/old.rs", "unsafe { x() }\n")?;
    assert_eq!(check_rules(dir.path(), RULE)?, Vec::new());
    write(dir.path(), "core/src/new.rs", "unsafe { y() }\n")?;
    let violations = check_rules(dir.path(), RULE)?;
    assert_eq!(violations.len(), 1);
    assert_eq!(violations[0].file, "core/src/new.rs");
    std::fs::remove_file(dir.path().join("core/src/new.rs"))?;
    write(dir.path(), "core/src/old.rs", "fn fixed() {}\n")?;
    let violations = check_rules(dir.path(), RULE)?;
    assert_eq!(violations.len(), 1);
    assert!(
        violations[0].detail.contains("no longer breaks it"),
        "{violations:#?}"
    );
    Ok(())
}

#[test]
fn a_benchmark_that_measures_in_the_test_suite_is_reported() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    clean_tree(dir.path())?;
    let guarded = "fn main() {\n    if !codex_test_support::under_cargo_bench(\"a\") {\n        return;\n    }\n}\n";
    write(dir.path(), "rollout/benches/guarded.rs", guarded)?;
    write(
        dir.path(),
        "rollout/benches/support/generate.rs",
        "fn main() {}\n",
    )?;
    assert_eq!(check(dir.path())?, Vec::new());
    write(dir.path(), "rollout/benches/bare.rs", "fn main() {}\n")?;
    write(
        dir.path(),
        "cli/benches/macro.rs",
        "criterion_main!(benches);\n",
    )?;
    let files: Vec<String> = check(dir.path())?
        .into_iter()
        .map(|violation| violation.file)
        .collect();
    assert_eq!(files, ["cli/benches/macro.rs", "rollout/benches/bare.rs"]);
    Ok(())
}

/// The test of the layer rule: a dependency down or sideways the diagram, a dev-dependency
/// included, is reported once, naming the manifest; a crate the diagram does not know is too.
#[test]
fn a_dependency_against_the_diagram_is_reported() -> std::io::Result<()> {
    let cases = [
        (
            "protocol/Cargo.toml",
            manifest(
                "codex-protocol",
                "",
                "codex-core = { path = \"../core\" }\n",
            ),
            "`codex-protocol` has `codex-core` in [dev-dependencies]",
        ),
        (
            "app-server-protocol/Cargo.toml",
            manifest(
                "codex-app-server-protocol",
                "codex-protocol = { workspace = true }\n",
                "codex-rollout = { path = \"../rollout\" }\n",
            ),
            "`codex-app-server-protocol` has `codex-rollout` in [dev-dependencies]",
        ),
        (
            "core/Cargo.toml",
            manifest(
                "codex-core",
                "asp = { package = \"codex-app-server-protocol\", path = \"../app-server-protocol\" }\n",
                "",
            ),
            "`codex-core` has `codex-app-server-protocol` in [dependencies]",
        ),
        (
            "rollout/Cargo.toml",
            manifest("codex-rollout-renamed", "", ""),
            "`codex-rollout-renamed` is neither in the diagram",
        ),
    ];
    for (file, text, detail) in cases {
        let dir = tempfile::tempdir()?;
        clean_tree(dir.path())?;
        write(dir.path(), file, &text)?;
        let violations: Vec<Violation> = check(dir.path())?
            .into_iter()
            .filter(|violation| violation.file == file)
            .collect();
        assert_eq!(violations.len(), 1, "{file}: {violations:#?}");
        assert!(violations[0].rule.starts_with("dependencies point up"));
        assert!(violations[0].detail.starts_with(detail), "{violations:#?}");
    }
    Ok(())
}

/// A package's dev-dependency on itself (its `testing` feature for its own tests) breaks no
/// layer; the same package as a normal dependency of itself would be reported.
#[test]
fn a_dev_dependency_on_itself_is_allowed() -> std::io::Result<()> {
    let dir = tempfile::tempdir()?;
    clean_tree(dir.path())?;
    let file = "core/Cargo.toml";
    let own = "codex-core = { path = \".\", features = [\"testing\"] }\n";
    write(
        dir.path(),
        file,
        &manifest("codex-core", "codex-protocol = { workspace = true }\n", own),
    )?;
    let on_core = |violations: Vec<Violation>| -> usize {
        violations
            .iter()
            .filter(|violation| violation.file == file)
            .count()
    };
    assert_eq!(on_core(check(dir.path())?), 0);
    write(dir.path(), file, &manifest("codex-core", own, ""))?;
    assert_eq!(on_core(check(dir.path())?), 1);
    Ok(())
}

fn modules(files: &[(&str, &str)]) -> std::collections::BTreeMap<Vec<String>, String> {
    files
        .iter()
        .map(|(module, text)| {
            let path = if module.is_empty() {
                Vec::new()
            } else {
                module.split('/').map(str::to_string).collect()
            };
            (path, (*text).to_string())
        })
        .collect()
}

#[test]
fn a_circle_of_files_is_found_and_a_module_using_its_parent_is_not_one() {
    let files = modules(&[
        ("", "mod a;\nmod b;\nmod c;\nuse crate::a::Thing;\n"),
        // a and b name each other, b through a `use` group (after a word ending in `use `), a
        // through a path in code.
        (
            "a",
            "pub struct Thing;\nfn f() { let _ = crate::b::helper(); }\n",
        ),
        (
            "b",
            "#[doc = \"because \"]\nuse crate::{a::Thing, c};\npub fn helper() {}\n",
        ),
        // c names its parent only, and b in a comment and in its test module.
        (
            "c",
            "use super::Thing;\n// crate::b::helper\n#[cfg(test)]\nmod tests {\nuse crate::b;\n}\n",
        ),
        ("c/d", "use super::super::a::Thing;\n"),
    ]);
    let found = super::circles::circles(&files);
    assert_eq!(
        found,
        vec![vec![vec!["a".to_string()], vec!["b".to_string()]]]
    );
    let fixed = modules(&[
        ("", "mod a;\nmod b;\n"),
        ("a", "pub struct Thing;\n"),
        ("b", "use super::a::Thing;\n"),
    ]);
    assert!(super::circles::circles(&fixed).is_empty());
}
