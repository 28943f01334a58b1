// What instrumentation.ts installs when a Next server process starts: the request socket hook
// (for local-only metrics) and the draining flag on SIGTERM/SIGINT. Next keeps its own signal
// handlers (close the server, finish requests in flight, exit); these listeners only add to them.
import { markDraining } from "./draining";
import { installRequestSocketHook } from "./request-socket";

export function installServerHooks(): void {
  installRequestSocketHook();
  process.once("SIGTERM", markDraining);
  process.once("SIGINT", markDraining);
}
