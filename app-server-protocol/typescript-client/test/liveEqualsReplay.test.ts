// Live equals replay, from the TypeScript side: reducing each scripted live transcript
// (validating every message against the generated schema) gives exactly the turns the Rust
// history builder rebuilt from what a paginated session file keeps (codex-rollout's policy),
// but for what no session file holds (Rust's `scenarios::as_recorded`): the `error` event,
// so a failed turn comes back completed and without its error. Item times are compared apart
// (Rust's `scenarios::without_item_times`): a live client takes an item's start from
// `item/started`, a file keeps it only where `item_completed` carries it.

import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";

import type { v2 } from "codex-app-server-protocol";
import { ClientSession, fixturesDir, ProtocolSchemas } from "../src";

interface Replay {
  scenario: string;
  description: string;
  turns: v2.Turn[];
}

const schemas = new ProtocolSchemas();
const scenarios = readdirSync(fixturesDir())
  .filter((name) => name.endsWith(".live.jsonl"))
  .map((name) => name.slice(0, -".live.jsonl".length))
  .sort();

test("the fixtures hold the five scripted scenarios", () => {
  assert.deepEqual(scenarios, [
    "command_with_output",
    "failed_turn",
    "interrupted_turn",
    "rollback",
    "streamed_answer",
  ]);
});

/** The live turns as a session file gives them back (see the header). */
function asRecorded(turns: v2.Turn[]): v2.Turn[] {
  return turns.map((turn) =>
    turn.status === "failed" ? { ...turn, status: "completed", error: null } : turn,
  );
}

/** `turns` without item times (see the header). */
function withoutItemTimes(turns: v2.Turn[]): v2.Turn[] {
  return turns.map((turn) => ({
    ...turn,
    items: turn.items.map((item) => ({ ...item, startedAtMs: null, completedAtMs: null })),
  }));
}

for (const scenario of scenarios) {
  test(`${scenario}: live stream reduces to the replayed history`, () => {
    const session = new ClientSession(schemas);
    session.handleJsonl(readFileSync(join(fixturesDir(), `${scenario}.live.jsonl`), "utf8"));
    const replay = JSON.parse(
      readFileSync(join(fixturesDir(), `${scenario}.replay.json`), "utf8"),
    ) as Replay;
    for (const turn of replay.turns) {
      schemas.check<v2.Turn>("Turn", turn);
    }
    assert.ok(session.validated > 5, "every message is validated");
    assert.deepEqual(
      withoutItemTimes(asRecorded(session.state.turns)),
      withoutItemTimes(replay.turns),
    );
    assert.equal(session.state.pendingRequests.size, 0, "every approval was resolved");
  });
}

test("turn statuses follow completion, interruption, failure and rollback", () => {
  const statuses = (scenario: string): string[] => {
    const session = new ClientSession(schemas);
    session.handleJsonl(readFileSync(join(fixturesDir(), `${scenario}.live.jsonl`), "utf8"));
    return session.state.turns.map((turn) => `${turn.id}:${turn.status}`);
  };
  assert.deepEqual(statuses("streamed_answer"), ["turn-1:completed"]);
  assert.deepEqual(statuses("interrupted_turn"), ["turn-1:completed", "turn-2:interrupted"]);
  assert.deepEqual(statuses("failed_turn"), ["turn-1:failed"]);
  assert.deepEqual(statuses("rollback"), ["turn-1:completed", "turn-3:completed"]);
});
