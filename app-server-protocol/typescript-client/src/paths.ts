// Where the schema bundle and the fixtures live: the bundle is the installed npm package's,
// the fixtures are found from this file's location so the client works from its sources and
// from its compiled output alike.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";

const FIXTURES = join("typescript-client", "fixtures");

/** The `app-server-protocol` crate root: the nearest ancestor holding the client fixtures. */
export function crateRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (existsSync(join(dir, FIXTURES))) {
      return dir;
    }
    const parent = dirname(dir);
    if (parent === dir) {
      throw new Error(`no ${FIXTURES} above ${start}`);
    }
    dir = parent;
  }
}

/** The JSON Schema bundle every message is validated against, from the installed package. */
export function bundlePath(): string {
  return require.resolve("codex-app-server-protocol/schemas/codex_app_server_protocol.schemas.json");
}

/** The scripted transcripts and their expected replays, written by `cargo xtask codegen`. */
export function fixturesDir(): string {
  return join(crateRoot(), FIXTURES);
}
