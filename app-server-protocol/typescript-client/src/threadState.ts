// The client's view of one thread, reduced from server notifications: streaming deltas are
// appended to the active item, `item/completed` replaces the item with the final one, turn
// notifications set status and timing, approvals stay open until `serverRequest/resolved`.
// It mirrors the Rust reference reducer (`codex_app_server_protocol::ThreadState`).

import type { RequestId, ServerNotification, ServerRequest, v2 } from "codex-app-server-protocol";

type ThreadItem = v2.ThreadItem;
type TimedThreadItem = v2.TimedThreadItem;
type Turn = v2.Turn;

/** Paragraph indexes beyond this are ignored rather than allocated. */
const MAX_PARAGRAPH_INDEX = 4096;

export class ThreadState {
  /** The turns, oldest first, with every item seen. */
  turns: Turn[] = [];
  /** The last token usage reported. */
  tokenUsage: v2.ThreadTokenUsage | null = null;
  /** Approval requests not yet resolved, by request id. */
  readonly pendingRequests = new Map<RequestId, ServerRequest>();
  /** Error notifications received, in order. */
  readonly errors: v2.ErrorNotification[] = [];

  /** A server request stays pending until `serverRequest/resolved`. */
  applyRequest(request: ServerRequest): void {
    this.pendingRequests.set(request.id, request);
  }

  /** The client's own `thread/rollback` succeeded: drop the last `numTurns` turns. */
  rollback(numTurns: number): void {
    this.turns = this.turns.slice(0, Math.max(0, this.turns.length - numTurns));
  }

  applyNotification(notification: ServerNotification): void {
    switch (notification.method) {
      case "turn/started": {
        const turn = this.turn(notification.params.turn.id);
        turn.status = notification.params.turn.status;
        turn.startedAt = notification.params.turn.startedAt ?? turn.startedAt;
        return;
      }
      case "turn/completed": {
        const done = notification.params.turn;
        const turn = this.turn(done.id);
        turn.status = done.status;
        turn.error = done.error;
        turn.startedAt = done.startedAt ?? turn.startedAt;
        turn.completedAt = done.completedAt;
        turn.durationMs = done.durationMs;
        if (done.itemsView === "full") {
          turn.items = done.items;
        }
        return;
      }
      case "item/started":
        upsert(this.turn(notification.params.turnId), notification.params.item).startedAtMs =
          notification.params.startedAtMs;
        return;
      case "item/completed": {
        const entry = upsert(this.turn(notification.params.turnId), notification.params.item);
        entry.startedAtMs ??= notification.params.item.startedAtMs ?? null;
        entry.completedAtMs = notification.params.completedAtMs;
        return;
      }
      case "item/agentMessage/delta": {
        const { turnId, itemId, delta } = notification.params;
        const item = this.item(turnId, itemId, () => ({
          type: "agentMessage",
          moderation: null,
          id: itemId,
          text: "",
          phase: null,
          memoryCitation: null,
          delivery: null,
          questions: null,
        }));
        if (item.type === "agentMessage") {
          item.text += delta;
        }
        return;
      }
      case "item/plan/delta": {
        const { turnId, itemId, delta } = notification.params;
        const item = this.item(turnId, itemId, () => ({ type: "plan", id: itemId, text: "" }));
        if (item.type === "plan") {
          item.text += delta;
        }
        return;
      }
      case "item/reasoning/summaryTextDelta": {
        const { turnId, itemId, delta, summaryIndex } = notification.params;
        const item = this.reasoning(turnId, itemId);
        if (item.type === "reasoning") {
          appendAt(item.summary, summaryIndex, delta);
        }
        return;
      }
      case "item/reasoning/summaryPartAdded": {
        const { turnId, itemId, summaryIndex } = notification.params;
        const item = this.reasoning(turnId, itemId);
        if (item.type === "reasoning") {
          appendAt(item.summary, summaryIndex, "");
        }
        return;
      }
      case "item/reasoning/textDelta": {
        const { turnId, itemId, delta, contentIndex } = notification.params;
        const item = this.reasoning(turnId, itemId);
        if (item.type === "reasoning") {
          appendAt(item.content, contentIndex, delta);
        }
        return;
      }
      case "item/commandExecution/outputDelta": {
        const { turnId, itemId, delta } = notification.params;
        const item = this.turn(turnId).items.find((candidate) => candidate.id === itemId);
        if (item !== undefined && item.type === "commandExecution") {
          item.aggregatedOutput = (item.aggregatedOutput ?? "") + delta;
        }
        return;
      }
      case "serverRequest/resolved":
        this.pendingRequests.delete(notification.params.requestId);
        return;
      case "thread/tokenUsage/updated":
        this.tokenUsage = notification.params.tokenUsage;
        return;
      case "error":
        this.errors.push(notification.params);
        return;
      case "thread/started":
        if (this.turns.length === 0) {
          this.turns = notification.params.thread.turns;
        }
        return;
      case "thread/status/changed":
      case "thread/name/updated":
      case "turn/diff/updated":
      case "item/commandExecution/terminalInteraction":
      case "warning":
      case "deprecationNotice":
        return;
      default:
        assertNever(notification);
    }
  }

  /** The turn `turnId`, created (running, no items) when not seen before. */
  private turn(turnId: string): Turn {
    let turn = this.turns.find((candidate) => candidate.id === turnId);
    if (turn === undefined) {
      turn = {
        id: turnId,
        rootTurnId: null,
        items: [],
        itemsView: "full",
        status: "inProgress",
        error: null,
        startedAt: null,
        completedAt: null,
        durationMs: null,
      };
      this.turns.push(turn);
    }
    return turn;
  }

  private item(turnId: string, itemId: string, create: () => ThreadItem): TimedThreadItem {
    const turn = this.turn(turnId);
    let item = turn.items.find((candidate) => candidate.id === itemId);
    if (item === undefined) {
      item = untimed(create());
      turn.items.push(item);
    }
    return item;
  }

  private reasoning(turnId: string, itemId: string): TimedThreadItem {
    return this.item(turnId, itemId, () => ({ type: "reasoning", id: itemId, summary: [], content: [] }));
  }
}

/** An item as a turn holds it before any time is known. */
function untimed(item: ThreadItem): TimedThreadItem {
  return { ...item, startedAtMs: null, completedAtMs: null };
}

/** Replaces the item with the same id in place (keeping the times recorded so far), or
 * appends it; the entry either way. */
function upsert(turn: Turn, item: ThreadItem): TimedThreadItem {
  const index = turn.items.findIndex((candidate) => candidate.id === item.id);
  const existing = index >= 0 ? turn.items[index] : undefined;
  const entry: TimedThreadItem = {
    ...item,
    startedAtMs: existing?.startedAtMs ?? null,
    completedAtMs: existing?.completedAtMs ?? null,
  };
  if (index >= 0) {
    turn.items[index] = entry;
  } else {
    turn.items.push(entry);
  }
  return entry;
}

/** Appends `text` to paragraph `index`, creating empty paragraphs up to it. */
function appendAt(paragraphs: string[], index: number, text: string): void {
  if (!Number.isInteger(index) || index < 0 || index > MAX_PARAGRAPH_INDEX) {
    return;
  }
  while (paragraphs.length <= index) {
    paragraphs.push("");
  }
  paragraphs[index] += text;
}

function assertNever(value: never): never {
  throw new Error(`unhandled notification ${JSON.stringify(value)}`);
}
