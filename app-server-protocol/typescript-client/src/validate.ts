// Validation of every message against the JSON Schema generated from the Rust types, so a
// client never trusts a shape the server did not promise. The validator is the npm package's
// (`codex-app-server-protocol`), the same one a downstream project installs.

import { SchemaError, Validator } from "codex-app-server-protocol";

export { SchemaError };

/** Validators for the types of the protocol bundle, compiled once and cached. */
export class ProtocolSchemas {
  private readonly validator: Validator;

  constructor(bundle?: object) {
    this.validator = new Validator(bundle === undefined ? {} : { bundle });
  }

  /** `value` typed as `T` when it matches bundle definition `name` (e.g.
   * `ServerNotification`); throws SchemaError otherwise. */
  check<T>(name: string, value: unknown): T {
    const issues = this.validator.issues(name, value);
    if (issues.length > 0) {
      throw new SchemaError(name, issues);
    }
    return value as T;
  }
}
