// The socket address a request really came from, for "local only" decisions. Next's request
// objects carry only headers, and X-Forwarded-For is whatever the client wrote, so the address
// is taken from Node's HTTP server as each request starts (the `http.server.request.start`
// diagnostics channel) and carried to the handler in an AsyncLocalStorage.
import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";
import { BlockList, isIP, type Socket } from "node:net";

type Holder = { storage: AsyncLocalStorage<{ remoteAddress?: string }>; installed: boolean };
// On globalThis: instrumentation.ts and each route bundle may load their own copy of this module.
const KEY = Symbol.for("openvibe.requestSocket");
const globals = globalThis as unknown as Record<symbol, Holder | undefined>;
const holder: Holder = (globals[KEY] ??= { storage: new AsyncLocalStorage(), installed: false });

/** Subscribes once per process; every HTTP server in it then records each request's address. */
export function installRequestSocketHook(): void {
  if (holder.installed) return;
  holder.installed = true;
  diagnostics.subscribe("http.server.request.start", (message) => {
    const { socket } = message as { socket?: Socket };
    // Runs synchronously just before the server emits `request`, so everything the request
    // handler does after this (every await) sees this store.
    holder.storage.enterWith({ remoteAddress: socket?.remoteAddress });
  });
}

/** The peer address of the current request's socket, or undefined outside one (or without the hook). */
export function requestSocketAddress(): string | undefined {
  return holder.storage.getStore()?.remoteAddress;
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

/** 127.0.0.0/8, ::1, and IPv4-mapped loopback (::ffff:127.x.x.x). */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)?.[1];
  const candidate = mapped ?? address;
  const family = isIP(candidate);
  if (family === 0) return false;
  return LOOPBACK.check(candidate, family === 4 ? "ipv4" : "ipv6");
}
