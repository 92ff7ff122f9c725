// The reducer's streaming rules, message by message, and the validator's refusals.

import assert from "node:assert/strict";
import { test } from "node:test";

import type { ServerNotification, v2 } from "codex-app-server-protocol";
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
          rootTurnId: null,
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
    moderation: null,
    id: "m1",
    text: "",
    phase: null,
    memoryCitation: null,
    delivery: null,
    questions: null,
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
  assert.deepEqual(state.turns[0]?.items, [
    { ...started, text: "Hello, world", phase: "final_answer", startedAtMs: 1, completedAtMs: 2 },
  ]);
  assert.equal(state.turns[0]?.status, "inProgress");
});

test("reasoning deltas fill their paragraph by index", () => {
  const state = new ThreadState();
  const params = { threadId, turnId: "t1", itemId: "r1" };
  state.applyNotification(notify({ method: "item/reasoning/summaryTextDelta", params: { ...params, delta: "b", summaryIndex: 1 } }));
  state.applyNotification(notify({ method: "item/reasoning/summaryTextDelta", params: { ...params, delta: "a", summaryIndex: 0 } }));
  state.applyNotification(notify({ method: "item/reasoning/textDelta", params: { ...params, delta: "raw", contentIndex: 0 } }));
  assert.deepEqual(state.turns[0]?.items[0], {
    type: "reasoning",
    id: "r1",
    summary: ["a", "b"],
    content: ["raw"],
    startedAtMs: null,
    completedAtMs: null,
  });
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

test("the newest item and thread shapes validate and reduce", () => {
  const output: v2.ThreadItem = {
    type: "functionCallOutput",
    id: "o1",
    name: "screenshot",
    namespace: null,
    output: [
      { type: "input_text", text: "the page" },
      { type: "input_image", file_id: "file_123" },
      { type: "input_image", image_url: "data:image/png;base64,AA", detail: "high" },
    ],
  };
  const question: v2.ThreadItem = {
    type: "agentMessage",
    moderation: null,
    id: "m2",
    text: "Which one?",
    phase: "partial_answer",
    memoryCitation: null,
    delivery: null,
    questions: [{ title: "Which one?", options: ["a", "b"] }],
  };
  const activity: v2.ThreadItem = {
    type: "subAgentActivity",
    id: "s1",
    kind: "completed",
    agentThreadId: threadId,
    agentPath: "/root/worker",
    model: "gpt-5.5",
    reasoningEffort: null,
  };
  const state = new ThreadState();
  for (const item of [output, question, activity]) {
    state.applyNotification(notify({ method: "item/completed", params: { item, threadId, turnId: "t1", completedAtMs: 3 } }));
  }
  // A turn holds each item with the time its notification gave.
  assert.deepEqual(
    state.turns[0]?.items,
    [output, question, activity].map((item) => ({ ...item, startedAtMs: null, completedAtMs: 3 })),
  );

  const thread: v2.Thread = {
    id: threadId,
    environments: null,
    extra: null,
    sessionId: "01977300-0000-7000-8000-000000000001",
    forkedFromId: "01977300-0000-7000-8000-000000000001",
    attachedToThreadId: null,
    parentThreadId: "01977300-0000-7000-8000-000000000001",
    preview: "",
    ephemeral: false,
    section: null,
    sectionEnteredAt: null,
    projectId: null,
    historyMode: "paginated",
    modelProvider: "openai",
    model: "gpt-5.5",
    reasoningEffort: null,
    createdAt: 0,
    updatedAt: 0,
    recencyAt: 0,
    status: { type: "notLoaded" },
    path: null,
    cwd: "/repo",
    cliVersion: "0.155.0",
    originator: "codex_cli_rs",
    source: { subAgent: { thread_spawn: { parent_thread_id: "01977300-0000-7000-8000-000000000001", depth: 1 } } },
    canAcceptDirectInput: null,
    threadSource: "subagent",
    agentNickname: "Scout",
    agentRole: "explorer",
    gitInfo: null,
    name: null,
    daybreakEnabled: null,
    turns: [],
  };
  notify({ method: "thread/started", params: { thread } });
  // `sessionId` is required. (`projectId` is always written, possibly as null; like every
  // nullable key, the schema's reading contract also accepts it missing.)
  const { sessionId: _session, ...withoutSession } = thread;
  assert.throws(() => notify({ method: "thread/started", params: { thread: withoutSession } }), SchemaError);
});

test("approval decisions are checked against the answer schema", () => {
  schemas.check("CommandExecutionApprovalDecision", "acceptForSession");
  schemas.check("CommandExecutionApprovalDecision", {
    acceptWithExecpolicyAmendment: { execpolicy_amendment: ["cargo", "test"] },
  });
  assert.throws(() => schemas.check("FileChangeApprovalDecision", "maybe"), SchemaError);
});
