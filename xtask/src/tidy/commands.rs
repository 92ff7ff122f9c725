//! The binary's commands stand alone: a command module (`cli/src/commands/NAME.rs` and the
//! files under `cli/src/commands/NAME/`) imports no other command module. What two commands
//! share lives beside them in `cli/src/` or in a library, so a command is read, changed and
//! deleted on its own.

use std::path::Path;

use super::{Violation, code_lines, source_files};

/// The folder of the command modules.
const COMMANDS: &str = "cli/src/commands/";

/// Every import of one command module by another under `root`.
pub(super) fn check(root: &Path) -> std::io::Result<Vec<Violation>> {
    let files: Vec<String> = source_files(root)?
        .into_iter()
        .filter(|file| file.starts_with(COMMANDS) && !file.ends_with("_tests.rs"))
        .collect();
    let names: Vec<String> = files.iter().filter_map(|file| command_of(file)).collect();
    let mut violations = Vec::new();
    for file in &files {
        let Some(own) = command_of(file) else {
            continue;
        };
        let text = std::fs::read_to_string(root.join(file))?;
        let top_level = !file[COMMANDS.len()..].contains('/');
        let found = code_lines(&text).into_iter().find_map(|line| {
            names.iter().filter(|name| **name != own).find(|name| {
                line.contains(&format!("crate::commands::{name}"))
                    || line.contains(&format!("super::super::{name}"))
                    || (top_level && line.contains(&format!("super::{name}")))
            })
        });
        if let Some(other) = found {
            violations.push(Violation {
                rule: "a command module imports no other command module".to_string(),
                file: file.clone(),
                detail: format!("imports `{other}`"),
            });
        }
    }
    Ok(violations)
}

/// The command a file under [`COMMANDS`] belongs to; `None` for the dispatcher (`mod.rs`).
fn command_of(file: &str) -> Option<String> {
    let rest = file.strip_prefix(COMMANDS)?;
    let first = rest.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "mod").then(|| name.to_string())
}
