// Messages between web processes for one MCP session. A client's answer to our elicitation, or its
// cancel of a call, may arrive at any process; it is published on the session's Redis channel and
// the process whose server is waiting for it takes it. Redis only carries the message: a lost one
// costs that wait (the step itself is in PostgreSQL), never a step or a result.
import "server-only";
import { Redis } from "ioredis";
import { JSONRPCMessageSchema, type JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { config } from "../config/env.mjs";
import { log } from "../log";
import { key, redis } from "../redis";

export type RelayMessage = { kind: "jsonrpc"; message: JSONRPCMessage } | { kind: "closed" };
type Listener = (message: RelayMessage) => void;

const relaySchema = z.union([
  z.object({ kind: z.literal("jsonrpc"), message: JSONRPCMessageSchema }),
  z.object({ kind: z.literal("closed") }),
]);

const holder = globalThis as unknown as {
  openvibeMcpRelay?: { sub: Redis; listeners: Map<string, Set<Listener>>; ready: Promise<unknown> };
};

const channelOf = (sessionId: string) => key("mcp", "session", sessionId);

// One pattern subscription per process, made once: a call that waits on its session adds a
// listener, with no subscribe and unsubscribe round trips of its own. Messages are few (answers
// to elicitations, cancels, "closed"), so a process dropping those for sessions it does not serve
// costs little.
function relay() {
  if (!holder.openvibeMcpRelay) {
    const sub = new Redis(config().REDIS_URL, { maxRetriesPerRequest: null });
    const listeners = new Map<string, Set<Listener>>();
    sub.on("pmessage", (_pattern: string, channel: string, payload: string) => {
      const set = listeners.get(channel);
      if (!set?.size) return;
      let parsed: RelayMessage;
      try {
        parsed = relaySchema.parse(JSON.parse(payload)) as RelayMessage;
      } catch (err) {
        log.warn("mcp relay: dropped a malformed message", { channel, err });
        return;
      }
      for (const listener of set) listener(parsed);
    });
    sub.on("error", (err) => log.warn("mcp relay: redis subscriber error", { err }));
    const ready = sub.psubscribe(channelOf("*"));
    holder.openvibeMcpRelay = { sub, listeners, ready };
  }
  return holder.openvibeMcpRelay;
}

export async function publishToSession(sessionId: string, message: RelayMessage): Promise<void> {
  await redis().publish(channelOf(sessionId), JSON.stringify(message));
}

/** Listens to a session's channel until the returned function is called; resolves once subscribed. */
export async function listenToSession(sessionId: string, listener: Listener): Promise<() => Promise<void>> {
  const { listeners, ready } = relay();
  const channel = channelOf(sessionId);
  let set = listeners.get(channel);
  if (!set) {
    set = new Set();
    listeners.set(channel, set);
  }
  set.add(listener);
  await ready;
  let done = false;
  return async () => {
    if (done) return;
    done = true;
    const current = listeners.get(channel);
    current?.delete(listener);
    if (current && current.size === 0) listeners.delete(channel);
  };
}

export async function closeRelay(): Promise<void> {
  const r = holder.openvibeMcpRelay;
  holder.openvibeMcpRelay = undefined;
  if (r) await r.sub.quit();
}
