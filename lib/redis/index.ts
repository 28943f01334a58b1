// Redis connections. Every key this app writes goes under REDIS_PREFIX, so tests (and several
// deployments) can share one Redis without touching each other's data.
//
// Connections used while answering a request fail fast when Redis is down (one reconnect attempt,
// bounded connect and command times), so the request answers 503 (lib/errors/outage.ts) instead of
// hanging. Only BullMQ Workers, which must wait out an outage, keep retrying for ever.
import "server-only";
import { Redis, type RedisOptions } from "ioredis";
import { config } from "../config/env.mjs";
import { log } from "../log";

const holder = globalThis as unknown as { openvibeRedis?: Redis };

/** Options for a connection a request waits on: every command settles within the bounds of lib/config. */
export function requestPathOptions(): RedisOptions {
  const c = config();
  return {
    connectTimeout: c.REDIS_CONNECT_TIMEOUT_MS,
    commandTimeout: c.REDIS_COMMAND_TIMEOUT_MS,
    // Commands sent while (re)connecting wait in the offline queue, but fail after one failed attempt.
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    // Keep reconnecting in the background (capped at 2 s) so the site recovers by itself.
    retryStrategy: (times) => Math.min(times * 100, 2_000),
  };
}

/** A connection whose errors are logged (once per 10 s), not printed by ioredis on every reconnect. */
function quietOnError(client: Redis, role: string): Redis {
  let lastLogged = 0;
  client.on("error", (err: Error) => {
    if (Date.now() - lastLogged < 10_000) return;
    lastLogged = Date.now();
    log.warn("redis.unavailable", { role, err });
  });
  return client;
}

/** The shared command connection (not for blocking commands: BullMQ makes its own). */
export function redis(): Redis {
  // Commands issued in the same tick (a request's rate limits, nonce and wake-ups, many requests'
  // under load) go out in one write: fewer round trips and system calls for the same answers.
  holder.openvibeRedis ??= quietOnError(
    new Redis(config().REDIS_URL, { ...requestPathOptions(), enableAutoPipelining: true }),
    "commands",
  );
  return holder.openvibeRedis;
}

/** A key under this deployment's prefix, e.g. key("ratelimit", "signin", email). */
export function key(...parts: string[]): string {
  return [config().REDIS_PREFIX, ...parts].join(":");
}

/** The key prefix of every BullMQ queue of this deployment. */
export function bullPrefix(): string {
  return `${config().REDIS_PREFIX}:bull`;
}

/** Options for a BullMQ Worker: its own connection that waits out an outage, and the same prefix. */
export function bullConnection() {
  return {
    connection: new Redis(config().REDIS_URL, { maxRetriesPerRequest: null }),
    prefix: bullPrefix(),
  };
}

/**
 * Options for a BullMQ Queue that requests add jobs to: a fail-fast connection. Pair every call
 * on it with `withinRedisDeadline`, because BullMQ waits for its first connection without a bound.
 */
export function queueConnection() {
  return {
    connection: quietOnError(
      new Redis(config().REDIS_URL, { ...requestPathOptions(), enableOfflineQueue: false }),
      "queue",
    ),
    prefix: bullPrefix(),
  };
}

/** Thrown when Redis did not answer within its deadline; lib/errors/outage.ts maps it to 503. */
export class RedisDeadlineError extends Error {
  override name = "RedisDeadlineError";
}

/** Settles like `work`, or rejects with RedisDeadlineError once the command timeout (plus connect time) passes. */
export async function withinRedisDeadline<T>(work: Promise<T>, what = "Redis"): Promise<T> {
  const c = config();
  const ms = c.REDIS_CONNECT_TIMEOUT_MS + c.REDIS_COMMAND_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new RedisDeadlineError(`${what} did not answer within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** Closes the shared connection if this process opened one (scripts that must exit when done). */
export async function closeRedis(): Promise<void> {
  const client = holder.openvibeRedis;
  holder.openvibeRedis = undefined;
  if (client) await client.quit().catch(() => client.disconnect());
}
