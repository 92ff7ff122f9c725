//! JSON Schema generation with schemars (draft 2020-12, the default of schemars 1): one file
//! per registered type (`v2/` for the client contract), plus one bundle holding every
//! definition, which is what validators such as ajv load.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use schemars::generate::{SchemaGenerator, SchemaSettings};
use serde_json::{Map, Value};

use super::ExportError;
use super::render::render_pretty;

/// Where JSON Schema goes, relative to the crate root.
pub const JSON_DIR: &str = "schema/json";

/// File name of the bundle under [`JSON_DIR`].
pub const BUNDLE_FILE: &str = "codex_app_server_protocol.schemas.json";

/// One registered type: where its file goes and how to produce its schemas.
pub(crate) struct JsonEntry {
    /// Folder under `schema/json/` (`""`, `"v2/"` or `"internal/"`).
    pub dir: &'static str,
    /// Standalone schema of the type, its dependencies under `$defs`.
    pub standalone: fn() -> Value,
    /// Adds the type (and its dependencies) to a shared generator's definitions.
    pub add_to: fn(&mut SchemaGenerator),
    /// Whether the type belongs in the bundle (internal types such as the rollout line have
    /// their own vocabulary and stay out of it).
    pub bundled: bool,
}

/// A registry entry for `T`.
pub(crate) fn entry<T: JsonSchema>(dir: &'static str, bundled: bool) -> JsonEntry {
    JsonEntry {
        dir,
        standalone: standalone::<T>,
        add_to: |generator| {
            generator.subschema_for::<T>();
        },
        bundled,
    }
}

fn settings() -> SchemaSettings {
    SchemaSettings::draft2020_12()
}

fn standalone<T: JsonSchema>() -> Value {
    settings()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

/// Every `.json` file of `entries` (the registry's; path relative to the crate root) with
/// its contents.
pub(crate) fn json_schema_files(
    entries: &[JsonEntry],
) -> Result<BTreeMap<String, String>, ExportError> {
    let mut out = BTreeMap::new();
    let mut generator = settings().into_generator();
    for entry in entries {
        let schema = (entry.standalone)();
        let title = schema
            .get("title")
            .and_then(Value::as_str)
            .map(str::to_owned)
            .ok_or_else(|| ExportError::Untitled {
                dir: entry.dir.to_owned(),
            })?;
        let path = format!("{JSON_DIR}/{}{title}.json", entry.dir);
        if out.insert(path.clone(), render_pretty(&schema)?).is_some() {
            return Err(ExportError::Collision {
                path,
                type_name: title,
            });
        }
        if entry.bundled {
            (entry.add_to)(&mut generator);
        }
    }

    let definitions = generator.take_definitions(true);
    check_no_renamed_definitions(&definitions)?;
    let mut bundle = Map::new();
    bundle.insert(
        "$schema".to_owned(),
        Value::String(
            generator
                .settings()
                .meta_schema
                .as_deref()
                .unwrap_or_default()
                .to_owned(),
        ),
    );
    bundle.insert(
        "title".to_owned(),
        Value::String("CodexAppServerProtocol".to_owned()),
    );
    bundle.insert(
        "description".to_owned(),
        Value::String(
            "Every app-server protocol type this crate exports; refer to one as \
             `codex_app_server_protocol.schemas.json#/$defs/<Name>`."
                .to_owned(),
        ),
    );
    bundle.insert("$defs".to_owned(), Value::Object(definitions));
    out.insert(
        format!("{JSON_DIR}/{BUNDLE_FILE}"),
        render_pretty(&Value::Object(bundle))?,
    );
    Ok(out)
}

/// schemars silently renames a second, different type with an already used name to `Name2`;
/// in a bundle that would make one of them unreachable by its real name, so refuse.
fn check_no_renamed_definitions(definitions: &Map<String, Value>) -> Result<(), ExportError> {
    for name in definitions.keys() {
        let base = name.trim_end_matches(|c: char| c.is_ascii_digit());
        if base.len() != name.len() && !base.is_empty() && definitions.contains_key(base) {
            return Err(ExportError::Collision {
                path: format!("{JSON_DIR}/{BUNDLE_FILE}#/$defs/{name}"),
                type_name: base.to_owned(),
            });
        }
    }
    Ok(())
}
