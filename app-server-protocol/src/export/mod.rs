//! Generation of the committed `schema/` tree (JSON Schema and TypeScript) and of the client
//! fixtures, as an in-memory map `path -> contents`.
//!
//! Only what needs the Rust types lives here: the registry of exported types and [`generate`],
//! which renders them in memory. Writing the map to disk, comparing it with the committed tree
//! (the drift check and its diff) and laying out the npm package are `xtask`'s (`cargo xtask
//! codegen [--check]`), so a crate that depends on the types compiles no file writer and no
//! diff library. Paths are relative to this crate's root and `/`-separated; output is
//! deterministic (sorted keys, sorted files, trailing newline), so a drift is always a real
//! change.

mod json_schema;
mod registry;
mod render;
mod typescript;

use std::collections::BTreeMap;

pub use json_schema::{BUNDLE_FILE, JSON_DIR};
pub use render::{render_compact, render_pretty, sorted};
pub use typescript::TYPESCRIPT_DIR;

/// First line of every generated TypeScript file.
pub const GENERATED_HEADER: &str = "// GENERATED CODE! DO NOT MODIFY BY HAND!\n\n";

/// The folders (relative to the crate root) whose whole content the generator owns: a file
/// in them that the generator does not produce is stale.
pub const GENERATED_DIRS: &[&str] = &["schema", "typescript-client/fixtures"];

/// Why generation or comparison failed.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// Two different types want the same output file.
    #[error("two types want the same output file {path} (second: {type_name})")]
    Collision {
        /// The contested path.
        path: String,
        /// The second type.
        type_name: String,
    },
    /// ts-rs could not render a type.
    #[error("TypeScript export of {type_name} failed: {message}")]
    TypeScript {
        /// The type.
        type_name: String,
        /// ts-rs's message.
        message: String,
    },
    /// A type's export path leaves the output folder.
    #[error("export path {path} is not a plain relative path")]
    BadPath {
        /// The path.
        path: String,
    },
    /// A registered JSON Schema has no title to name its file.
    #[error("a schema registered under `{dir}` has no title")]
    Untitled {
        /// Its folder.
        dir: String,
    },
    /// Serializing JSON failed.
    #[error("JSON serialization failed: {0}")]
    Json(#[source] serde_json::Error),
    /// Building a client fixture failed.
    #[error("client fixture {name}: {message}")]
    Fixture {
        /// The fixture.
        name: String,
        /// What went wrong.
        message: String,
    },
}

/// Every generated file of the types: JSON Schema and TypeScript. (The TypeScript client's
/// fixtures need the persistence policy of codex-rollout, a crate above this one: `cargo
/// xtask codegen` adds them from `scenarios::client_fixture_files`.)
pub fn generate() -> Result<BTreeMap<String, String>, ExportError> {
    let mut files = json_schema::json_schema_files(&registry::json_entries())?;
    files.extend(typescript::typescript_files()?);
    Ok(files)
}
