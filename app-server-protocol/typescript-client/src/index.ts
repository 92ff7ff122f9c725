// A minimal Codex app-server client: schema validation, thread-state reduction, sessions.

export { ClientSession } from "./session";
export type { Party, TranscriptEntry } from "./session";
export { ThreadState } from "./threadState";
export { RemoteClient, RemoteError } from "./remote";
export { ProtocolSchemas, SchemaError } from "./validate";
export { bundlePath, crateRoot, fixturesDir } from "./paths";
