use std::collections::BTreeMap;

use super::*;

fn generated() -> BTreeMap<String, String> {
    let mut files = BTreeMap::new();
    let bundle = r#"{"$defs": {"Turn": {}, "RequestId": {}, "ByteRange": {}, "Hidden": {}}}"#;
    files.insert(format!("{JSON_DIR}/{BUNDLE_FILE}"), bundle.to_owned());
    for module in [
        "v2/Turn",
        "RequestId",
        "ByteRange",
        "v2/ByteRange",
        "index",
        "v2/index",
    ] {
        files.insert(
            format!("{TYPESCRIPT_DIR}/{module}.ts"),
            format!("// {module}\n"),
        );
    }
    files
}

#[test]
fn declarations_become_d_ts_and_the_bundle_is_shipped() -> Result<()> {
    let files = package_files(&generated())?;
    assert_eq!(
        files.get("npm/types/v2/Turn.d.ts").map(String::as_str),
        Some("// v2/Turn\n")
    );
    assert!(files.contains_key("npm/types/index.d.ts"));
    assert!(files.contains_key(&format!("npm/schemas/{BUNDLE_FILE}")));
    for path in ["npm/package.json", "npm/index.js", "npm/README.md"] {
        assert!(files.contains_key(path), "{path}");
    }
    Ok(())
}

#[test]
fn schema_types_map_unambiguous_names_only() -> Result<()> {
    let files = package_files(&generated())?;
    let index = files.get("npm/index.d.ts").map_or("", String::as_str);
    assert!(index.contains("  Turn: Types.v2.Turn;\n"), "{index}");
    assert!(index.contains("  RequestId: Types.RequestId;\n"), "{index}");
    assert!(
        !index.contains("ByteRange:"),
        "ambiguous name mapped: {index}"
    );
    assert!(
        !index.contains("Hidden:"),
        "undeclared name mapped: {index}"
    );
    Ok(())
}

#[test]
fn package_json_carries_the_crate_version() -> Result<()> {
    let files = package_files(&generated())?;
    let json: serde_json::Value =
        serde_json::from_str(files.get("npm/package.json").map_or("", String::as_str))?;
    assert_eq!(json["version"], VERSION);
    assert_eq!(json["name"], PACKAGE_NAME);
    assert_eq!(json["types"], "./index.d.ts");
    assert_eq!(json["exports"]["."]["types"], "./index.d.ts");
    Ok(())
}
