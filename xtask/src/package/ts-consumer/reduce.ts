// A downstream program written against the installed `codex-app-server-protocol` package
// only: it validates every message of a notification stream with the package's validator and
// reduces the stream into turns with the package's types. `cargo xtask package` compiles it
// with `tsc --strict` in a fresh project and compares its summary with its own count.

import { readFileSync } from "node:fs";

import {
  SchemaError,
  Validator,
  type JSONRPCMessage,
  type ServerNotification,
  type ServerRequest,
  type v2,
} from "codex-app-server-protocol";

interface Summary {
  messages: number;
  notifications: number;
  requests: number;
  turns: number;
  completedTurns: number;
  itemsCompleted: Record<string, number>;
  agentText: number;
}

const validator = new Validator();

function reduce(text: string): Summary {
  const turns = new Map<string, v2.Turn>();
  const itemsCompleted: Record<string, number> = {};
  const summary: Summary = {
    messages: 0,
    notifications: 0,
    requests: 0,
    turns: 0,
    completedTurns: 0,
    itemsCompleted,
    agentText: 0,
  };
  for (const line of text.split("\n")) {
    if (line.trim() === "") {
      continue;
    }
    const message: JSONRPCMessage = validator.check("JSONRPCMessage", JSON.parse(line));
    summary.messages += 1;
    if (!("method" in message)) {
      continue;
    }
    if ("id" in message) {
      const request: ServerRequest = validator.check("ServerRequest", message);
      summary.requests += request.method.length > 0 ? 1 : 0;
      continue;
    }
    const notification: ServerNotification = validator.check("ServerNotification", message);
    summary.notifications += 1;
    switch (notification.method) {
      case "turn/started":
      case "turn/completed": {
        const turn: v2.Turn = notification.params.turn;
        turns.set(turn.id, turn);
        break;
      }
      case "item/completed": {
        const item: v2.ThreadItem = notification.params.item;
        itemsCompleted[item.type] = (itemsCompleted[item.type] ?? 0) + 1;
        if (item.type === "agentMessage") {
          summary.agentText += item.text.length;
        }
        break;
      }
      default:
        break;
    }
  }
  summary.turns = turns.size;
  summary.completedTurns = [...turns.values()].filter((turn) => turn.status === "completed").length;
  return summary;
}

function refusesBadInput(): boolean {
  try {
    validator.check("ServerNotification", { method: "turn/started", params: {} });
    return false;
  } catch (error) {
    return error instanceof SchemaError && error.issues.length > 0;
  }
}

if (!refusesBadInput()) {
  throw new Error("the validator accepted a turn/started without its turn");
}
const results: Record<string, Summary> = {};
for (const file of process.argv.slice(2)) {
  results[file] = reduce(readFileSync(file, "utf8"));
}
process.stdout.write(`${JSON.stringify(results)}\n`);
