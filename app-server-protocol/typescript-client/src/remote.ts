// A client of a server of the protocol over WebSocket (`codex-thread serve --listen ws://…`,
// `codex app-server --listen ws://…`): each request's response is validated against the
// generated schema of its method's response before it is handed back typed, so a caller
// never reads a shape the server did not promise.

import WebSocket from "ws";

import type { JSONRPCMessage, RequestId } from "codex-app-server-protocol";
import { ProtocolSchemas } from "./validate";

/** A JSON-RPC error the server answered with. */
export class RemoteError extends Error {
  constructor(
    readonly method: string,
    readonly code: number,
    message: string,
  ) {
    super(`${method} failed: ${code} ${message}`);
  }
}

interface Pending {
  method: string;
  schema: string;
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
}

export class RemoteClient {
  private nextId = 1;
  private readonly pending = new Map<RequestId, Pending>();
  /** Every message the server sent, validated as a `JSONRPCMessage`. */
  readonly received: JSONRPCMessage[] = [];

  private constructor(
    private readonly socket: WebSocket,
    private readonly schemas: ProtocolSchemas,
  ) {
    socket.on("message", (data) => this.receive(String(data)));
    socket.on("close", () => this.failAll(new Error("the connection closed")));
    socket.on("error", (error) => this.failAll(error));
  }

  /** Connects to `url`, sending `token` as a bearer token when given. */
  static connect(url: string, schemas: ProtocolSchemas, token?: string): Promise<RemoteClient> {
    const headers: Record<string, string> =
      token === undefined ? {} : { Authorization: `Bearer ${token}` };
    const socket = new WebSocket(url, { headers });
    return new Promise((resolve, reject) => {
      socket.once("open", () => resolve(new RemoteClient(socket, schemas)));
      socket.once("error", reject);
      socket.once("unexpected-response", (_request, response) =>
        reject(new Error(`the handshake was refused: ${response.statusCode}`)),
      );
    });
  }

  /** Calls `method` with `params`; the result, checked against the schema `schema`. */
  request<T>(method: string, params: unknown, schema: string): Promise<T> {
    const id = this.nextId++;
    const message = params === undefined ? { id, method } : { id, method, params };
    return new Promise<T>((resolve, reject) => {
      this.pending.set(id, {
        method,
        schema,
        resolve: (value) => resolve(value as T),
        reject,
      });
      this.socket.send(JSON.stringify(message));
    });
  }

  /** Sends a notification (`initialized`). */
  notify(method: string): void {
    this.socket.send(JSON.stringify({ method }));
  }

  close(): void {
    this.socket.close();
  }

  private receive(text: string): void {
    const message = this.schemas.check<JSONRPCMessage>("JSONRPCMessage", JSON.parse(text));
    this.received.push(message);
    if (!("id" in message) || "method" in message) {
      return;
    }
    const pending = this.pending.get(message.id);
    if (pending === undefined) {
      return;
    }
    this.pending.delete(message.id);
    if ("error" in message) {
      pending.reject(new RemoteError(pending.method, message.error.code, message.error.message));
      return;
    }
    try {
      pending.resolve(this.schemas.check(pending.schema, message.result));
    } catch (error) {
      pending.reject(error as Error);
    }
  }

  private failAll(error: Error): void {
    for (const pending of this.pending.values()) {
      pending.reject(error);
    }
    this.pending.clear();
  }
}
