// Validation of every message against the JSON Schema generated from the Rust types, so a
// client never trusts a shape the server did not promise.

import { readFileSync } from "node:fs";
import Ajv2020 from "ajv/dist/2020";
import type { ErrorObject, ValidateFunction } from "ajv";

import { bundlePath } from "./paths";

/** A message that does not match its schema; `errors` says where and why. */
export class SchemaError extends Error {
  constructor(
    readonly schemaName: string,
    readonly errors: ErrorObject[],
  ) {
    super(
      `value does not match ${schemaName}: ` +
        errors.map((error) => `${error.instancePath || "/"} ${error.message ?? ""}`).join("; "),
    );
    this.name = "SchemaError";
  }
}

/** Integer formats schemars writes, checked instead of ignored. */
const INTEGER_FORMATS: Record<string, [number, number]> = {
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

/** Validators for the types of the protocol bundle, compiled once and cached. */
export class ProtocolSchemas {
  private readonly ajv: Ajv2020;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(bundle: object = JSON.parse(readFileSync(bundlePath(), "utf8")) as object) {
    this.ajv = new Ajv2020({ strict: true, allErrors: true });
    for (const [name, [min, max]] of Object.entries(INTEGER_FORMATS)) {
      this.ajv.addFormat(name, {
        type: "number",
        validate: (value: number) => Number.isInteger(value) && value >= min && value <= max,
      });
    }
    for (const name of ["float", "double"]) {
      this.ajv.addFormat(name, { type: "number", validate: (value: number) => Number.isFinite(value) });
    }
    this.ajv.addSchema(bundle, "protocol");
  }

  /** The validator of the bundle definition `name` (e.g. `ServerNotification`). */
  validator(name: string): ValidateFunction {
    let validate = this.cache.get(name);
    if (validate === undefined) {
      validate = this.ajv.getSchema(`protocol#/$defs/${name}`);
      if (validate === undefined) {
        throw new Error(`the schema bundle has no definition ${name}`);
      }
      this.cache.set(name, validate);
    }
    return validate;
  }

  /** `value` typed as `T` when it matches definition `name`; throws SchemaError otherwise. */
  check<T>(name: string, value: unknown): T {
    const validate = this.validator(name);
    if (!validate(value)) {
      throw new SchemaError(name, validate.errors ?? []);
    }
    return value as T;
  }
}
