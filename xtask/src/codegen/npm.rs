//! The npm package of the generated types (`app-server-protocol/npm/`): what a TypeScript
//! project installs instead of reaching into this repository by relative path.
//!
//! Laid out from the same in-memory files as `schema/` (so it cannot disagree with them):
//! the TypeScript declarations as `.d.ts` under `types/`, the JSON Schema bundle under
//! `schemas/`, and a small ajv validator (`index.js`, a template in this folder) whose
//! `check("Name", value)` returns the value typed as the declaration of the same name. The
//! package's version is the crate's (both inherit the workspace version).
//!
//! Only the bundle is shipped, not the per-type schema files: every type is a `$defs` entry
//! of it, and the per-type files repeat their dependencies (1.4 MB against 116 KB).
//!
//! `types/` and `schemas/` are copies of `schema/`'s files, byte for byte: they are not
//! committed (one generated copy is, and the drift check covers it), but written by `cargo
//! xtask codegen`, and before the package is packed (`cargo xtask package`) or installed from
//! its folder (the TypeScript client's `npm ci`).

use std::collections::{BTreeMap, BTreeSet};

use anyhow::{Context, Result};
use codex_app_server_protocol::export::{BUNDLE_FILE, JSON_DIR, TYPESCRIPT_DIR};

/// The package folder, relative to the crate root.
pub(crate) const NPM_DIR: &str = "npm";

/// The package's name on npm, the crate's name.
pub(crate) const PACKAGE_NAME: &str = "codex-app-server-protocol";

/// The package's version: the workspace version, which the crate inherits too.
pub(crate) const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The ajv range the validator needs (draft 2020-12 and `strict` mode).
const AJV_RANGE: &str = "^8.20.0";

const INDEX_JS: &str = include_str!("npm/index.js");
const INDEX_D_TS_HEAD: &str = include_str!("npm/index.d.ts.head");
const README: &str = include_str!("npm/README.md");

/// Whether a package file is a copy of a `schema/` file, made where the package is packed or
/// installed and never committed.
pub(crate) fn is_copy(path: &str) -> bool {
    [COPIES_OF_DECLARATIONS, COPIES_OF_SCHEMAS]
        .iter()
        .any(|dir| path.starts_with(&format!("{NPM_DIR}/{dir}/")))
}

/// The package's folder of the declarations (`.d.ts` copies of `schema/typescript/`).
const COPIES_OF_DECLARATIONS: &str = "types";
/// The package's folder of the schema bundle (a copy of `schema/json/`'s).
const COPIES_OF_SCHEMAS: &str = "schemas";

/// The package's files (paths relative to the crate root) from the library's generated ones.
pub(crate) fn package_files(
    generated: &BTreeMap<String, String>,
) -> Result<BTreeMap<String, String>> {
    let mut out = BTreeMap::new();
    let ts_prefix = format!("{TYPESCRIPT_DIR}/");
    let mut declarations = Vec::new();
    for (path, text) in generated {
        if let Some(module) = path
            .strip_prefix(&ts_prefix)
            .and_then(|p| p.strip_suffix(".ts"))
        {
            out.insert(
                format!("{NPM_DIR}/{COPIES_OF_DECLARATIONS}/{module}.d.ts"),
                text.clone(),
            );
            declarations.push(module.to_owned());
        }
    }
    let bundle_path = format!("{JSON_DIR}/{BUNDLE_FILE}");
    let bundle = generated
        .get(&bundle_path)
        .with_context(|| format!("the generator produced no {bundle_path}"))?;
    out.insert(
        format!("{NPM_DIR}/{COPIES_OF_SCHEMAS}/{BUNDLE_FILE}"),
        bundle.clone(),
    );

    let definitions = bundle_definitions(bundle)?;
    let mut index = String::from(INDEX_D_TS_HEAD);
    index.push_str(&schema_types(&definitions, &declarations));
    out.insert(format!("{NPM_DIR}/index.d.ts"), index);
    out.insert(format!("{NPM_DIR}/index.js"), INDEX_JS.to_owned());
    out.insert(format!("{NPM_DIR}/README.md"), README.to_owned());
    out.insert(format!("{NPM_DIR}/package.json"), package_json());
    Ok(out)
}

/// The names under the bundle's `$defs`.
fn bundle_definitions(bundle: &str) -> Result<BTreeSet<String>> {
    let value: serde_json::Value =
        serde_json::from_str(bundle).context("the schema bundle is not JSON")?;
    let defs = value
        .get("$defs")
        .and_then(serde_json::Value::as_object)
        .context("the schema bundle has no $defs")?;
    Ok(defs.keys().cloned().collect())
}

/// `interface SchemaTypes`: each bundle definition whose name is declared exactly once among
/// the TypeScript modules (`Name` or `v2/Name`), mapped to that declaration. A name declared
/// in both places (such as `ByteRange`) is left to the untyped `issues`, since which of the
/// two the bundle holds is not known from the name.
fn schema_types(definitions: &BTreeSet<String>, declarations: &[String]) -> String {
    let mut by_name: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for module in declarations {
        let name = module.rsplit('/').next().unwrap_or(module);
        if name != "index" {
            by_name.entry(name).or_default().push(module);
        }
    }
    let mut out = String::from(
        "\nimport type * as Types from \"./types/index\";\n\n\
         /** Bundle definition name -> its TypeScript declaration. */\n\
         export interface SchemaTypes {\n",
    );
    for name in definitions {
        let Some([module]) = by_name.get(name.as_str()).map(Vec::as_slice) else {
            continue;
        };
        let reference = match module.split_once('/') {
            Some(("v2", _)) => format!("Types.v2.{name}"),
            Some(_) => continue,
            None => format!("Types.{name}"),
        };
        out.push_str(&format!("  {name}: {reference};\n"));
    }
    out.push_str("}\n");
    out
}

fn package_json() -> String {
    format!(
        r#"{{
  "name": "{PACKAGE_NAME}",
  "version": "{VERSION}",
  "description": "TypeScript declarations, JSON Schemas and a validator of the Codex app-server protocol, generated from the Rust types of the crate of the same name.",
  "license": "Apache-2.0",
  "keywords": ["codex", "json-rpc", "json-schema", "typescript"],
  "main": "./index.js",
  "types": "./index.d.ts",
  "exports": {{
    ".": {{
      "types": "./index.d.ts",
      "default": "./index.js"
    }},
    "./schemas/*.json": "./schemas/*.json",
    "./package.json": "./package.json"
  }},
  "files": [
    "index.js",
    "index.d.ts",
    "types/",
    "schemas/"
  ],
  "sideEffects": false,
  "engines": {{
    "node": ">=20"
  }},
  "dependencies": {{
    "ajv": "{AJV_RANGE}"
  }}
}}
"#
    )
}

#[cfg(test)]
#[path = "npm_tests.rs"]
mod tests;
