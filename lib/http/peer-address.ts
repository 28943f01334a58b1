// The TCP peer address of each request, for route handlers that Next.js gives only a Request.
// Next fills `x-forwarded-for` from the socket only when the client did not send one, so that
// header cannot tell a client's own address from a forged one. This hook, installed once per server
// process (instrumentation.ts), writes the socket's address into PEER_ADDRESS_HEADER on every
// incoming request before Next sees it, overwriting whatever a client sent under that name.
import { subscribe } from "node:diagnostics_channel";
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";

export const PEER_ADDRESS_HEADER = "x-openvibe-peer-address";

const holder = globalThis as unknown as { openvibePeerHook?: boolean };

/** True once the hook runs in this process: only then is PEER_ADDRESS_HEADER the socket's own. */
export function peerHookInstalled(): boolean {
  return holder.openvibePeerHook === true;
}

export function installPeerAddressHook(): void {
  if (holder.openvibePeerHook) return;
  subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as { request: IncomingMessage; socket: Socket };
    request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "unknown";
  });
  holder.openvibePeerHook = true;
}

/** The TCP peer address of a request, or undefined when the hook does not run in this process. */
export function peerAddressOf(req: Request): string | undefined {
  if (!peerHookInstalled()) return undefined;
  return req.headers.get(PEER_ADDRESS_HEADER) ?? undefined;
}
