// Where the generated schema and the fixtures live, found from this file's location so the
// client works from its sources and from its compiled output alike.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

const BUNDLE = join("schema", "json", "codex_app_server_protocol.schemas.json");

/** The `app-server-protocol` crate root: the nearest ancestor holding the schema bundle. */
export function crateRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, BUNDLE))) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`no ${BUNDLE} above ${start}`);
    }
    dir = parent;
  }
}

/** The JSON Schema bundle every message is validated against. */
export function bundlePath(): string {
  return join(crateRoot(), BUNDLE);
}

/** The scripted transcripts and their expected replays, written by `cargo xtask codegen`. */
export function fixturesDir(): string {
  return join(crateRoot(), "typescript-client", "fixtures");
}
