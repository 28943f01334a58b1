// What instrumentation.ts installs when a Next server process starts: the request peer-address hook
// (rate limits and local-only metrics) and the draining flag on SIGTERM/SIGINT. Next keeps its own signal
// handlers (close the server, finish requests in flight, exit); these listeners only add to them.
import { markDraining } from "./draining";
import { installPeerAddressHook } from "../http/peer-address";

export function installServerHooks(): void {
  installPeerAddressHook();
  process.once("SIGTERM", markDraining);
  process.once("SIGINT", markDraining);
}
