// Redis connections. Every key this app writes goes under REDIS_PREFIX, so tests (and several
// deployments) can share one Redis without touching each other's data.
import "server-only";
import { Redis } from "ioredis";
import { config } from "../config/env.mjs";

const holder = globalThis as unknown as { openvibeRedis?: Redis };

/** The shared command connection (not for blocking commands: BullMQ makes its own). */
export function redis(): Redis {
  holder.openvibeRedis ??= new Redis(config().REDIS_URL, { maxRetriesPerRequest: 3, lazyConnect: false });
  return holder.openvibeRedis;
}

/** A key under this deployment's prefix, e.g. key("ratelimit", "signin", email). */
export function key(...parts: string[]): string {
  return [config().REDIS_PREFIX, ...parts].join(":");
}

/** Options for a BullMQ Queue/Worker: its own connection and the same prefix. */
export function bullConnection() {
  return {
    connection: new Redis(config().REDIS_URL, { maxRetriesPerRequest: null }),
    prefix: `${config().REDIS_PREFIX}:bull`,
  };
}

/** Closes the shared connection if this process opened one (scripts that must exit when done). */
export async function closeRedis(): Promise<void> {
  const client = holder.openvibeRedis;
  holder.openvibeRedis = undefined;
  if (client) await client.quit().catch(() => client.disconnect());
}
