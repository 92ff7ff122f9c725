//! TypeScript generation with ts-rs: one `.ts` file per exported type, placed by each type's
//! `export_to` (`v2/` for the client contract, the root for envelopes and core types), plus an
//! `index.ts` per directory.
//!
//! Files are produced in memory (ts-rs's `export_to_string`), walking dependencies ourselves,
//! so generation never touches the disk and the result is a deterministic map.

use std::any::TypeId;
use std::collections::BTreeMap;
use std::path::{Component, Path, PathBuf};

use ts_rs::{Config, TS, TypeVisitor};

use super::{ExportError, GENERATED_HEADER};

/// Where TypeScript goes, relative to the crate root.
pub const TYPESCRIPT_DIR: &str = "schema/typescript";

/// Every `.ts` file (path relative to the crate root, `/`-separated) with its contents.
pub(crate) fn typescript_files() -> Result<BTreeMap<String, String>, ExportError> {
    // i64/u64 fit the values this protocol carries (timestamps, token counts); a JavaScript
    // number is what clients want, not bigint.
    let cfg = Config::new().with_large_int("number");
    let mut collector = Collector {
        cfg: &cfg,
        files: BTreeMap::new(),
        error: None,
    };
    super::registry::visit_typescript_roots(&mut collector);
    if let Some(error) = collector.error {
        return Err(error);
    }

    let mut out = BTreeMap::new();
    for (path, (_, text)) in &collector.files {
        let relative = slash_path(path)?;
        out.insert(format!("{TYPESCRIPT_DIR}/{relative}"), with_header(text));
    }
    for (path, text) in index_files(collector.files.keys())? {
        out.insert(format!("{TYPESCRIPT_DIR}/{path}"), text);
    }
    Ok(out)
}

/// Collects a type's declaration and, recursively, its dependencies'.
pub(crate) struct Collector<'a> {
    cfg: &'a Config,
    files: BTreeMap<PathBuf, (TypeId, String)>,
    error: Option<ExportError>,
}

impl TypeVisitor for Collector<'_> {
    fn visit<T: TS + 'static + ?Sized>(&mut self) {
        if self.error.is_some() {
            return;
        }
        let Some(path) = T::output_path() else {
            return;
        };
        let id = TypeId::of::<T::WithoutGenerics>();
        if let Some((seen, _)) = self.files.get(&path) {
            if *seen != id {
                self.error = Some(ExportError::Collision {
                    path: path.display().to_string(),
                    type_name: std::any::type_name::<T>().to_owned(),
                });
            }
            return;
        }
        match T::export_to_string(self.cfg) {
            Ok(text) => {
                self.files.insert(path, (id, text));
                T::visit_dependencies(self);
            }
            Err(source) => {
                self.error = Some(ExportError::TypeScript {
                    type_name: std::any::type_name::<T>().to_owned(),
                    message: source.to_string(),
                });
            }
        }
    }
}

fn with_header(text: &str) -> String {
    let mut out = String::with_capacity(GENERATED_HEADER.len() + text.len() + 2);
    out.push_str(GENERATED_HEADER);
    out.push_str(text.trim_end());
    out.push('\n');
    out
}

/// A relative path with `/` separators, or an error for anything that would escape the
/// output directory.
fn slash_path(path: &Path) -> Result<String, ExportError> {
    let mut parts = Vec::new();
    for component in path.components() {
        match component {
            Component::Normal(part) => parts.push(part.to_string_lossy().into_owned()),
            Component::CurDir => {}
            _ => {
                return Err(ExportError::BadPath {
                    path: path.display().to_string(),
                });
            }
        }
    }
    Ok(parts.join("/"))
}

/// Index files: the root one re-exports every root type, every type in a non-`v2` folder
/// (such as `serde_json/JsonValue`) and the `v2` namespace; `v2/index.ts` re-exports the v2
/// types. Returns index path (relative to the TypeScript dir) -> contents.
fn index_files<'a>(
    paths: impl Iterator<Item = &'a PathBuf>,
) -> Result<BTreeMap<String, String>, ExportError> {
    let mut root_lines = Vec::new();
    let mut v2_lines = Vec::new();
    for path in paths {
        let relative = slash_path(path)?;
        let module = relative.trim_end_matches(".ts");
        let name = module.rsplit('/').next().unwrap_or(module);
        match module.split_once('/') {
            Some(("v2", rest)) => {
                v2_lines.push(format!("export type {{ {name} }} from \"./{rest}\";\n"));
            }
            _ => root_lines.push(format!("export type {{ {name} }} from \"./{module}\";\n")),
        }
    }
    root_lines.sort();
    v2_lines.sort();
    let mut files = BTreeMap::new();
    if !v2_lines.is_empty() {
        root_lines.push("export * as v2 from \"./v2\";\n".to_owned());
        files.insert("v2/index.ts".to_owned(), render_index(&v2_lines));
    }
    files.insert("index.ts".to_owned(), render_index(&root_lines));
    Ok(files)
}

fn render_index(lines: &[String]) -> String {
    let mut out = String::from(GENERATED_HEADER);
    for line in lines {
        out.push_str(line);
    }
    out
}
