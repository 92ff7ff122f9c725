// `codex-thread serve` as this client sees it over WebSocket: the bundled sample session
// placed in a fresh home, listed, read and paged, every response validated against the schema
// of its method's response and used through the generated types; a write is refused.

import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, test } from "node:test";

import type { InitializeResponse, v2 } from "codex-app-server-protocol";
import { ProtocolSchemas, RemoteClient, RemoteError, crateRoot } from "../src";

const SAMPLE_THREAD = "0197a2c4-5e00-7c3a-9d41-2f6b8e1c0a55";

let home: string;
let server: ChildProcess;
let client: RemoteClient;

/** The `codex-thread` binary `cargo xtask ci` built; the test fails without it. */
function binary(): string {
  const path = process.env.CODEX_THREAD_BIN;
  if (path === undefined || path === "") {
    throw new Error("CODEX_THREAD_BIN is not set: run the client's tests with `cargo xtask ci`");
  }
  return path;
}

/** Starts `codex-thread serve` on a free loopback port; the address it listens on. */
function serve(codexHome: string): Promise<string> {
  server = spawn(binary(), ["serve", "--listen", "ws://127.0.0.1:0", "--home", codexHome], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  return new Promise((resolve, reject) => {
    let said = "";
    server.stderr?.on("data", (chunk: Buffer) => {
      said += chunk.toString();
      const address = said.split(/\s+/).find((word) => word.startsWith("ws://"));
      if (address !== undefined) {
        resolve(address);
      }
    });
    server.once("exit", (code) => reject(new Error(`serve exited (${code}): ${said}`)));
  });
}

before(async () => {
  home = mkdtempSync(join(tmpdir(), "codex-serve-"));
  const day = join(home, "sessions", "2025", "06", "02");
  mkdirSync(day, { recursive: true });
  copyFileSync(
    join(crateRoot(), "..", "cli", "sample", "session.jsonl"),
    join(day, `rollout-2025-06-02T09-00-00-${SAMPLE_THREAD}.jsonl`),
  );
  const address = await serve(home);
  client = await RemoteClient.connect(address, new ProtocolSchemas());
  const hello = await client.request<InitializeResponse>(
    "initialize",
    { clientInfo: { name: "codex-app-server-client", version: "0.1.0" } },
    "InitializeResponse",
  );
  assert.match(hello.userAgent, /^codex_thread_serve\/\d+\.\d+\.\d+/);
  client.notify("initialized");
});

after(() => {
  client?.close();
  server?.kill();
  rmSync(home, { recursive: true, force: true });
});

test("thread/list lists the sample thread without its turns", async () => {
  const page = await client.request<v2.ThreadListResponse>("thread/list", {}, "ThreadListResponse");
  assert.deepEqual(
    page.data.map((thread) => thread.id),
    [SAMPLE_THREAD],
  );
  const [thread] = page.data;
  assert.equal(thread?.turns.length, 0);
  assert.equal(thread?.status.type, "notLoaded");
  assert.equal(page.nextCursor, null);
});

test("thread/read with turns, and turns and items paged from the end", async () => {
  const read = await client.request<v2.ThreadReadResponse>(
    "thread/read",
    { threadId: SAMPLE_THREAD, includeTurns: true },
    "ThreadReadResponse",
  );
  const turns = read.thread.turns;
  assert.ok(turns.length >= 2, `${turns.length} turn(s)`);
  const last = await client.request<v2.ThreadTurnsListResponse>(
    "thread/turns/list",
    { threadId: SAMPLE_THREAD, limit: 1, itemsView: "full" },
    "ThreadTurnsListResponse",
  );
  assert.deepEqual(last.data, [turns[turns.length - 1]]);
  assert.notEqual(last.nextCursor, null);
  const before = await client.request<v2.ThreadTurnsListResponse>(
    "thread/turns/list",
    { threadId: SAMPLE_THREAD, limit: 1, itemsView: "full", cursor: last.nextCursor },
    "ThreadTurnsListResponse",
  );
  assert.deepEqual(before.data, [turns[turns.length - 2]]);
  const items = await client.request<v2.ThreadItemsListResponse>(
    "thread/items/list",
    { threadId: SAMPLE_THREAD, limit: 2, sortDirection: "desc" },
    "ThreadItemsListResponse",
  );
  const lastItems = turns[turns.length - 1]?.items ?? [];
  assert.deepEqual(
    items.data.map((entry) => entry.item.id),
    lastItems.slice(-2).reverse().map((item) => item.id),
  );
});

test("a write is refused as a read-only archive", async () => {
  await assert.rejects(
    client.request("turn/start", { threadId: SAMPLE_THREAD, input: [] }, "TurnStartResponse"),
    (error: unknown) => error instanceof RemoteError && error.code === -32600,
  );
});
