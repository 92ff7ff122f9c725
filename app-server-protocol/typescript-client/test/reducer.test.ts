// The reducer's streaming rules, message by message, and the validator's refusals.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { ServerNotification, v2 } from "../../schema/typescript";
import { ClientSession, ProtocolSchemas, SchemaError, ThreadState } from "../src";

const schemas = new ProtocolSchemas();
const threadId = "01977300-0000-7000-8000-0000000000ff";

function notify(value: unknown): ServerNotification {
  return schemas.check<ServerNotification>("ServerNotification", value);
}

test("deltas append to the active item and the completed item replaces it", () => {
  const state = new ThreadState();
  state.applyNotification(
    notify({
      method: "turn/started",
      params: {
        threadId,
        turn: {
          id: "t1",
          items: [],
          itemsView: "notLoaded",
          status: "inProgress",
          error: null,
          startedAt: 10,
          completedAt: null,
          durationMs: null,
        },
      },
    }),
  );
  const started: v2.ThreadItem = {
    type: "agentMessage",
    id: "m1",
    text: "",
    phase: null,
    memoryCitation: null,
  };
  state.applyNotification(
    notify({ method: "item/started", params: { item: started, threadId, turnId: "t1", startedAtMs: 1 } }),
  );
  for (const delta of ["Hel", "lo"]) {
    state.applyNotification(
      notify({ method: "item/agentMessage/delta", params: { threadId, turnId: "t1", itemId: "m1", delta } }),
    );
  }
  assert.equal((state.turns[0]?.items[0] as { text: string }).text, "Hello");

  state.applyNotification(
    notify({
      method: "item/completed",
      params: {
        item: { ...started, text: "Hello, world", phase: "final_answer" },
        threadId,
        turnId: "t1",
        completedAtMs: 2,
      },
    }),
  );
  assert.deepEqual(state.turns[0]?.items, [{ ...started, text: "Hello, world", phase: "final_answer" }]);
  assert.equal(state.turns[0]?.status, "inProgress");
});

test("reasoning deltas fill their paragraph by index", () => {
  const state = new ThreadState();
  const params = { threadId, turnId: "t1", itemId: "r1" };
  state.applyNotification(notify({ method: "item/reasoning/summaryTextDelta", params: { ...params, delta: "b", summaryIndex: 1 } }));
  state.applyNotification(notify({ method: "item/reasoning/summaryTextDelta", params: { ...params, delta: "a", summaryIndex: 0 } }));
  state.applyNotification(notify({ method: "item/reasoning/textDelta", params: { ...params, delta: "raw", contentIndex: 0 } }));
  assert.deepEqual(state.turns[0]?.items[0], { type: "reasoning", id: "r1", summary: ["a", "b"], content: ["raw"] });
});

test("invalid messages are refused with the schema's reasons", () => {
  const session = new ClientSession(schemas);
  // An unknown item type.
  assert.throws(
    () =>
      session.handle({
        from: "server",
        message: {
          method: "item/completed",
          params: { item: { type: "telepathy", id: "x" }, threadId, turnId: "t", completedAtMs: 0 },
        },
      }),
    SchemaError,
  );
  // A missing required field.
  assert.throws(
    () => session.handle({ from: "server", message: { method: "turn/completed", params: { threadId } } }),
    SchemaError,
  );
  // A request id that is neither a string nor an integer.
  assert.throws(() => schemas.check("RequestId", 1.5), SchemaError);
  // Numbers that do not fit a JavaScript integer are refused, not rounded.
  assert.throws(
    () =>
      schemas.check("ItemStartedNotification", {
        item: { type: "contextCompaction", id: "c" },
        threadId,
        turnId: "t",
        startedAtMs: 2 ** 60,
      }),
    SchemaError,
  );
});

test("approval decisions are checked against the answer schema", () => {
  schemas.check("CommandExecutionApprovalDecision", "acceptForSession");
  schemas.check("CommandExecutionApprovalDecision", {
    acceptWithExecpolicyAmendment: { execpolicy_amendment: ["cargo", "test"] },
  });
  assert.throws(() => schemas.check("FileChangeApprovalDecision", "maybe"), SchemaError);
});
