// The transparency log of listings (server side): appending events inside the registry's
// transactions, signing checkpoints, and what the /api/v1/log endpoints answer. The client side —
// proof checks, signed notes, leaves and the whole `verify` procedure — lives in pure modules
// (verify.ts, note.ts, leaf.ts, verify-version.ts) that the CLI and the Link import directly.
export { appendToLog } from "./append";
export { signCheckpoint, freshCheckpoint, latestCheckpoint, CHECKPOINT_MAX_AGE_MS } from "./checkpoint";
export { logSigner, LOCAL_KEY_FILE } from "./keys";
export {
  logKey,
  checkpointNote,
  inclusionProof,
  consistencyProof,
  logEntries,
  versionEntries,
  logStatusOf,
} from "./service";
export { LOG_EVENTS, type LogEvent } from "./leaf";
