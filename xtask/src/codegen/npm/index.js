// GENERATED CODE! DO NOT MODIFY BY HAND! (template: xtask/src/codegen/npm/index.js)
//
// The validator of the Codex app-server protocol: checks a message against the JSON Schema
// generated from the same Rust types as this package's TypeScript declarations.
"use strict";

const Ajv2020 = require("ajv/dist/2020").default;
const bundle = require("./schemas/codex_app_server_protocol.schemas.json");

/** Integer formats schemars writes, checked instead of ignored. */
const INTEGER_FORMATS = {
  int8: [-(2 ** 7), 2 ** 7 - 1],
  int16: [-(2 ** 15), 2 ** 15 - 1],
  int32: [-(2 ** 31), 2 ** 31 - 1],
  int64: [Number.MIN_SAFE_INTEGER, Number.MAX_SAFE_INTEGER],
  uint8: [0, 2 ** 8 - 1],
  uint16: [0, 2 ** 16 - 1],
  uint32: [0, 2 ** 32 - 1],
  uint64: [0, Number.MAX_SAFE_INTEGER],
  uint: [0, Number.MAX_SAFE_INTEGER],
};

/** A value that does not match its schema; `issues` says where and why. */
class SchemaError extends Error {
  constructor(schemaName, issues) {
    super(
      `value does not match ${schemaName}: ` +
        issues.map((issue) => `${issue.path || "/"} ${issue.message}`).join("; "),
    );
    this.name = "SchemaError";
    this.schemaName = schemaName;
    this.issues = issues;
  }
}

/** Validators for every definition of the schema bundle, compiled on first use. */
class Validator {
  constructor(options = {}) {
    this.bundle = options.bundle ?? bundle;
    this.names = Object.freeze(Object.keys(this.bundle.$defs ?? {}).sort());
    this.ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const [name, [min, max]] of Object.entries(INTEGER_FORMATS)) {
      this.ajv.addFormat(name, {
        type: "number",
        validate: (value) => Number.isInteger(value) && value >= min && value <= max,
      });
    }
    for (const name of ["float", "double"]) {
      this.ajv.addFormat(name, { type: "number", validate: (value) => Number.isFinite(value) });
    }
    this.ajv.addSchema(this.bundle, "protocol");
    this.cache = new Map();
  }

  issues(name, value) {
    let validate = this.cache.get(name);
    if (validate === undefined) {
      validate = this.ajv.getSchema(`protocol#/$defs/${name}`);
      if (validate === undefined) {
        throw new Error(`the schema bundle has no definition ${name}`);
      }
      this.cache.set(name, validate);
    }
    if (validate(value)) {
      return [];
    }
    return (validate.errors ?? []).map((error) => ({
      path: error.instancePath,
      keyword: error.keyword,
      message: error.message ?? "",
    }));
  }

  is(name, value) {
    return this.issues(name, value).length === 0;
  }

  check(name, value) {
    const issues = this.issues(name, value);
    if (issues.length > 0) {
      throw new SchemaError(name, issues);
    }
    return value;
  }
}

module.exports = { SchemaError, Validator, bundle };
