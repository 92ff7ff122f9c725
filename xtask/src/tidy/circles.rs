//! No circle of files: within a crate, the files that name each other's items (by `use` or by
//! a `crate::`/`super::` path in code) form no cycle, so every file can be read knowing only
//! the ones below it. A file naming an item of a module it lies in (its parent, through
//! `super::`) is not counted: a module and its own parts are one concept by the layout rule.
//!
//! Paths are read from the code lines ([`code_lines`]: comments and the test module left out)
//! and resolved to the longest module prefix that is a file of the crate.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{Violation, code_lines, source_files};

/// The crates whose files are checked.
const CRATES: &[&str] = &[
    "protocol",
    "core",
    "rollout",
    "home",
    "app-server-protocol",
    "cli",
];

/// A module's path in its crate (`[]` for the crate root).
type Module = Vec<String>;

/// Every circle of files in the checked crates under `root`.
pub(super) fn check(root: &Path) -> std::io::Result<Vec<Violation>> {
    let files = source_files(root)?;
    let mut violations = Vec::new();
    for krate in CRATES {
        let prefix = format!("{krate}/src/");
        let mut modules = BTreeMap::new();
        for file in files.iter().filter(|file| file.starts_with(&prefix)) {
            if let Some(module) = module_of(&file[prefix.len()..]) {
                modules.insert(module, std::fs::read_to_string(root.join(file))?);
            }
        }
        for circle in circles(&modules) {
            let names: Vec<String> = circle.iter().map(file_name).collect();
            violations.push(Violation {
                rule: "no circle of files".to_string(),
                file: format!("{krate}/src"),
                detail: format!("{} name each other", names.join(" <-> ")),
            });
        }
    }
    Ok(violations)
}

/// The module a file under `src/` is (`None` for a test file).
fn module_of(relative: &str) -> Option<Module> {
    let stem = relative.strip_suffix(".rs")?;
    if stem.ends_with("_tests") {
        return None;
    }
    let mut parts: Module = stem.split('/').map(str::to_string).collect();
    match parts.last().map(String::as_str) {
        Some("lib" | "main") if parts.len() == 1 => parts.clear(),
        Some("mod") => {
            parts.pop();
        }
        _ => {}
    }
    Some(parts)
}

fn file_name(module: &Module) -> String {
    if module.is_empty() {
        "lib".to_string()
    } else {
        module.join("/")
    }
}

/// The circles (strongly connected groups of more than one file) of `modules`, each sorted.
pub(super) fn circles(modules: &BTreeMap<Module, String>) -> Vec<Vec<Module>> {
    let names: Vec<&Module> = modules.keys().collect();
    let index_of: BTreeMap<&Module, usize> =
        names.iter().enumerate().map(|(i, m)| (*m, i)).collect();
    let edges: Vec<BTreeSet<usize>> = names
        .iter()
        .map(|module| {
            let text = modules.get(*module).map_or("", String::as_str);
            paths_in(text)
                .iter()
                .filter_map(|path| resolve(module, path, modules))
                .filter(|target| !module.starts_with(target))
                .filter_map(|target| index_of.get(&target).copied())
                .collect()
        })
        .collect();
    strongly_connected(&edges)
        .into_iter()
        .filter(|group| group.len() > 1)
        .map(|group| {
            let mut group: Vec<Module> = group.into_iter().map(|i| names[i].clone()).collect();
            group.sort();
            group
        })
        .collect()
}

/// The `crate::`, `super::` and `self::` paths the code lines of `text` name, `use` groups
/// expanded (`use super::a::{B, c::D}` names `super::a::B` and `super::a::c::D`).
fn paths_in(text: &str) -> Vec<Vec<String>> {
    let code = code_lines(text).join("\n");
    let mut paths = Vec::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find("use ") {
        let statement = &rest[at + 4..];
        if !starts_word(rest, at) {
            // `reuse `, `because `: not a `use` statement.
            rest = statement;
            continue;
        }
        let end = statement.find(';').unwrap_or(statement.len());
        let compact: String = statement[..end].split_whitespace().collect();
        if ["crate::", "super::", "self::"]
            .iter()
            .any(|root| compact.starts_with(root))
        {
            expand(&compact, &mut paths);
        }
        rest = &statement[end..];
    }
    for root in ["crate::", "super::"] {
        for (at, _) in code.match_indices(root) {
            if !starts_word(&code, at) {
                continue;
            }
            let path: String = code[at..]
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_' || *c == ':')
                .collect();
            let path: Vec<String> = path
                .split("::")
                .filter(|segment| !segment.is_empty())
                .map(str::to_string)
                .collect();
            paths.push(path);
        }
    }
    paths
}

/// Whether the text at `at` starts a word of `text` (not the middle of an identifier or a
/// longer path).
fn starts_word(text: &str, at: usize) -> bool {
    !text[..at]
        .chars()
        .next_back()
        .is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':')
}

/// Expands one `use` tree (whitespace removed) into its paths.
fn expand(tree: &str, out: &mut Vec<Vec<String>>) {
    let Some(open) = tree.find('{') else {
        out.push(tree.split("::").map(str::to_string).collect());
        return;
    };
    let base = tree[..open].trim_end_matches("::");
    let Some(close) = tree.rfind('}') else {
        return;
    };
    let inner = &tree[open + 1..close];
    let mut depth = 0;
    let mut start = 0;
    let mut items = Vec::new();
    for (at, c) in inner.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(&inner[start..at]);
                start = at + 1;
            }
            _ => {}
        }
    }
    items.push(&inner[start..]);
    for item in items.into_iter().filter(|item| !item.is_empty()) {
        if item == "self" {
            out.push(base.split("::").map(str::to_string).collect());
        } else {
            expand(&format!("{base}::{item}"), out);
        }
    }
}

/// The module of `modules` that `path`, named in `module`, lies in: the longest prefix of
/// the path (made absolute) that is a module; `None` for a path outside the crate.
fn resolve(module: &Module, path: &[String], modules: &BTreeMap<Module, String>) -> Option<Module> {
    let (mut full, rest): (Module, &[String]) = match path.first().map(String::as_str) {
        Some("crate") => (Vec::new(), &path[1..]),
        Some("super" | "self") => {
            let mut base = module.clone();
            let mut rest = path;
            while let Some(first) = rest.first().map(String::as_str) {
                match first {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                rest = &rest[1..];
            }
            (base, rest)
        }
        _ => return None,
    };
    full.extend(rest.iter().cloned());
    (0..=full.len())
        .rev()
        .map(|len| full[..len].to_vec())
        .find(|prefix| modules.contains_key(prefix))
        .filter(|target| target != module)
}

/// Tarjan's strongly connected components of the graph `edges` (node → its targets).
fn strongly_connected(edges: &[BTreeSet<usize>]) -> Vec<Vec<usize>> {
    struct Walk<'a> {
        edges: &'a [BTreeSet<usize>],
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        stack: Vec<usize>,
        on_stack: Vec<bool>,
        next: usize,
        groups: Vec<Vec<usize>>,
    }
    impl Walk<'_> {
        fn visit(&mut self, node: usize) {
            self.index[node] = Some(self.next);
            self.low[node] = self.next;
            self.next += 1;
            self.stack.push(node);
            self.on_stack[node] = true;
            for &target in &self.edges[node] {
                match self.index[target] {
                    None => {
                        self.visit(target);
                        self.low[node] = self.low[node].min(self.low[target]);
                    }
                    Some(index) if self.on_stack[target] => {
                        self.low[node] = self.low[node].min(index);
                    }
                    Some(_) => {}
                }
            }
            if Some(self.low[node]) == self.index[node] {
                let mut group = Vec::new();
                while let Some(member) = self.stack.pop() {
                    self.on_stack[member] = false;
                    group.push(member);
                    if member == node {
                        break;
                    }
                }
                self.groups.push(group);
            }
        }
    }
    let count = edges.len();
    let mut walk = Walk {
        edges,
        index: vec![None; count],
        low: vec![0; count],
        stack: Vec::new(),
        on_stack: vec![false; count],
        next: 0,
        groups: Vec::new(),
    };
    for node in 0..count {
        if walk.index[node].is_none() {
            walk.visit(node);
        }
    }
    walk.groups
}
