// A client session: every message read is validated against the generated schema, typed by
// its direction and method, and reduced into a ThreadState. Responses are paired with the
// requests they answer (a `thread/rollback` response drops turns; approvals are answered).

import { isDeepStrictEqual } from "node:util";

import type {
  ClientRequest,
  JSONRPCMessage,
  RequestId,
  ServerNotification,
  ServerRequest,
  v2,
} from "codex-app-server-protocol";
import { ThreadState } from "./threadState";
import { ProtocolSchemas } from "./validate";

/** Who sent a message. */
export type Party = "server" | "client";

/** One line of a transcript: a message and its sender. */
export interface TranscriptEntry {
  from: Party;
  message: JSONRPCMessage;
}

/** Schema of the response to each client request method. */
const CLIENT_RESPONSES: Record<ClientRequest["method"], string> = {
  initialize: "InitializeResponse",
  "thread/start": "ThreadStartResponse",
  "thread/resume": "ThreadResumeResponse",
  "thread/read": "ThreadReadResponse",
  "thread/rollback": "ThreadRollbackResponse",
  "turn/start": "TurnStartResponse",
  "turn/interrupt": "TurnInterruptResponse",
  "thread/list": "ThreadListResponse",
  "thread/loaded/list": "ThreadLoadedListResponse",
  "thread/unsubscribe": "ThreadUnsubscribeResponse",
  "thread/turns/list": "ThreadTurnsListResponse",
  "thread/items/list": "ThreadItemsListResponse",
  "account/read": "GetAccountResponse",
  "model/list": "ModelListResponse",
  "configRequirements/read": "ConfigRequirementsReadResponse",
  "config/read": "ConfigReadResponse",
  "skills/list": "SkillsListResponse",
};

/** Schema of the client's answer to each server request method. */
const SERVER_REQUEST_ANSWERS: Record<ServerRequest["method"], string> = {
  "item/commandExecution/requestApproval": "CommandExecutionRequestApprovalResponse",
  "item/fileChange/requestApproval": "FileChangeRequestApprovalResponse",
};

export class ClientSession {
  readonly state = new ThreadState();
  /** How many messages were validated. */
  validated = 0;
  private readonly sentRequests = new Map<RequestId, ClientRequest>();
  private readonly receivedRequests = new Map<RequestId, ServerRequest>();

  constructor(private readonly schemas: ProtocolSchemas = new ProtocolSchemas()) {}

  /** Validates and reduces one transcript entry. Throws on any schema violation. */
  handle(entry: TranscriptEntry): void {
    const message = this.schemas.check<JSONRPCMessage>("JSONRPCMessage", entry.message);
    this.validated += 1;
    const isRequest = "method" in message && "id" in message;
    const isNotification = "method" in message && !("id" in message);
    if (entry.from === "server") {
      if (isNotification) {
        this.state.applyNotification(this.schemas.check<ServerNotification>("ServerNotification", message));
      } else if (isRequest) {
        const request = this.schemas.check<ServerRequest>("ServerRequest", message);
        this.receivedRequests.set(request.id, request);
        this.state.applyRequest(request);
      } else if ("result" in message) {
        this.onResponse(message.id, message.result);
      } else if ("error" in message) {
        this.sentRequests.delete(message.id);
      }
    } else if (isRequest) {
      const request = this.schemas.check<ClientRequest>("ClientRequest", message);
      this.sentRequests.set(request.id, request);
    } else if ("result" in message) {
      const request = this.receivedRequests.get(message.id);
      if (request === undefined) {
        throw new Error(`client answered unknown server request ${String(message.id)}`);
      }
      this.schemas.check(SERVER_REQUEST_ANSWERS[request.method], message.result);
      this.receivedRequests.delete(message.id);
    }
  }

  /** Reduces a whole transcript, one JSON message per line. */
  handleJsonl(text: string): void {
    for (const line of text.split("\n")) {
      if (line.trim() !== "") {
        this.handle(JSON.parse(line) as TranscriptEntry);
      }
    }
  }

  private onResponse(id: RequestId, result: unknown): void {
    const request = this.sentRequests.get(id);
    if (request === undefined) {
      throw new Error(`response to unknown client request ${String(id)}`);
    }
    this.sentRequests.delete(id);
    this.schemas.check(CLIENT_RESPONSES[request.method], result);
    if (request.method === "thread/rollback") {
      this.state.rollback(request.params.numTurns);
      const answer = result as v2.ThreadRollbackResponse;
      // The server's view after the rollback must be the client's own.
      // Item times aside: the server's history has the file's, the client the notifications'
      // (see `scenarios::without_item_times`).
      if (!isDeepStrictEqual(withoutItemTimes(answer.thread.turns), withoutItemTimes(this.state.turns))) {
        throw new Error("thread/rollback response disagrees with the client's reduced turns");
      }
    }
  }
}

/** `turns` without item times. */
function withoutItemTimes(turns: v2.Turn[]): v2.Turn[] {
  return turns.map((turn) => ({
    ...turn,
    items: turn.items.map((item) => ({ ...item, startedAtMs: null, completedAtMs: null })),
  }));
}
