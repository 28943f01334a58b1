// Wake-ups across processes: a step changed, a job is waiting for a Link. Long-polls wait on
// these instead of hammering the database; every wait also has a timeout, so a lost message only
// costs latency, never correctness (the database stays the source of truth).
import "server-only";
import { EventEmitter } from "node:events";
import { Redis } from "ioredis";
import { config } from "../config/env.mjs";
import { key, redis } from "../redis";
import { appendPersonEvent, personEventOf } from "./person-log";

const holder = globalThis as unknown as {
  openvibeEvents?: { sub: Redis; emitter: EventEmitter; ready: Promise<unknown> };
};

function bus() {
  if (!holder.openvibeEvents) {
    const sub = new Redis(config().REDIS_URL, { maxRetriesPerRequest: null });
    // A Redis that is away costs wake-ups, not answers: waits fall back to their timeouts.
    sub.on("error", () => {});
    const emitter = new EventEmitter();
    emitter.setMaxListeners(0);
    const pattern = key("events", "*");
    const prefix = key("events", "");
    sub.on("pmessage", (_pattern, channel: string) => {
      const name = channel.slice(prefix.length);
      if (!isOwnEcho(name)) emitter.emit(name);
    });
    holder.openvibeEvents = { sub, emitter, ready: sub.psubscribe(pattern) };
  }
  return holder.openvibeEvents;
}

export const channels = {
  /** A step moved in a way its waiters act on: it was decided, or it ended. */
  step: (stepId: string) => `step:${stepId}`,
  /** A step's run moved on without ending (placed, started): what progress reports follow. */
  stepProgress: (stepId: string) => `step-progress:${stepId}`,
  userSteps: (userId: string) => `user-steps:${userId}`,
  userJobs: (userId: string) => `jobs:user:${userId}`,
  poolJobs: () => "jobs:pool",
  /** A person's installs changed (MCP clients' tool lists). */
  userInstalls: (userId: string) => `installs:user:${userId}`,
  /** A version the person published was scanned (their dashboard, the skill page). */
  userScans: (userId: string) => `scans:user:${userId}`,
  /** Something about one Link changed (a job it holds was withdrawn, its runner was turned off). */
  link: (linkId: string) => `link:${linkId}`,
};

/**
 * How long a wake-up this process gave its own waiters is expected back from Redis. Its echo wakes
 * nobody a second time (each would read the database again for nothing); one that does not come
 * back in time stops being expected.
 */
const ECHO_WINDOW_MS = 1_000;
/** Per name, when each of its published wake-ups that already woke this process's waiters went out. */
const echoes = new Map<string, number[]>();

function isOwnEcho(name: string): boolean {
  const sent = echoes.get(name);
  if (!sent) return false;
  const now = Date.now();
  while (sent.length && now - sent[0]! > ECHO_WINDOW_MS) sent.shift();
  const echo = sent.shift() !== undefined;
  if (!sent.length) echoes.delete(name);
  return echo;
}

let prunedAt = 0;

function expectEchoes(names: Set<string>): void {
  const now = Date.now();
  // Echoes that never came (Redis away, the subscription not confirmed yet) are not kept.
  if (now - prunedAt > ECHO_WINDOW_MS) {
    prunedAt = now;
    for (const [name, sent] of echoes) if (now - sent[sent.length - 1]! > ECHO_WINDOW_MS) echoes.delete(name);
  }
  for (const name of names) if (!personEventOf(name)) echoes.set(name, [...(echoes.get(name) ?? []), now]);
}

/** Names notified in this turn of the event loop, published together when it ends. */
let batch: { names: Set<string>; published: Promise<void> } | null = null;

export function notify(...names: string[]): Promise<void> {
  // Waiters in this process on a wake-up that no person's log records (a job for a Link, a step
  // for its agent: they read PostgreSQL, where the change is already committed) are woken now,
  // without the round trip through Redis; the published message then finds them gone.
  const local = holder.openvibeEvents?.emitter;
  if (local) for (const name of names) if (!personEventOf(name)) local.emit(name);
  // A burst of calls notifies the same few channels: each is published once for all of them.
  if (!batch) {
    const next = { names: new Set<string>(), published: Promise.resolve() };
    next.published = new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      batch = null;
      return publish(next.names);
    });
    batch = next;
  }
  for (const name of names) batch.names.add(name);
  return batch.published;
}

async function publish(names: Set<string>): Promise<void> {
  // One round trip. Redis runs a pipeline in order: the person's log first, so whoever the
  // wake-up reaches finds the event in it.
  const pipeline = redis().pipeline();
  if (holder.openvibeEvents) expectEchoes(names);
  for (const name of names) appendPersonEvent(pipeline, name);
  for (const name of names) pipeline.publish(key("events", name), "1");
  const failed = (await pipeline.exec())?.find(([err]) => err);
  if (failed) throw failed[0];
}

/** Wake-ups on some names, counted from the moment it is made (see `watch`). */
export interface Watch {
  /** True at once if a wake-up came since the last call (or since the watch began); else waits. */
  next(timeoutMs: number, signal?: AbortSignal): Promise<boolean>;
  close(): void;
}

/**
 * Listens on `names` from now on, so that a wake-up that comes while the caller reads the state it
 * waits on is not lost: `next()` then answers at once. With Redis down, `next()` is a plain sleep.
 */
export function watch(names: string[]): Watch {
  const { emitter, ready } = bus();
  // Listening before the subscription is confirmed only risks a missed wake-up, never a wrong one.
  ready.catch(() => undefined);
  let missed = false;
  let waiting: ((woken: boolean) => void) | null = null;
  const wake = () => {
    if (waiting) waiting(true);
    else missed = true;
  };
  for (const name of names) emitter.on(name, wake);
  return {
    next(timeoutMs, signal) {
      if (missed) {
        missed = false;
        return Promise.resolve(true);
      }
      // A wait still pending (given up on by a caller that raced it) ends now.
      waiting?.(false);
      if (signal?.aborted) return Promise.resolve(false);
      return new Promise<boolean>((resolve) => {
        const done = (woken: boolean) => {
          clearTimeout(timer);
          signal?.removeEventListener("abort", abort);
          if (waiting === done) waiting = null;
          resolve(woken);
        };
        const abort = () => done(false);
        const timer = setTimeout(() => done(false), Math.max(0, timeoutMs));
        signal?.addEventListener("abort", abort);
        waiting = done;
      });
    },
    close() {
      for (const name of names) emitter.off(name, wake);
      waiting?.(false);
    },
  };
}

/**
 * Resolves when any of `names` is notified, or after `timeoutMs`; false on timeout or abort. With
 * Redis down it is a plain sleep: the timer runs from the start, whatever the subscription does.
 */
export async function waitFor(names: string[], timeoutMs: number, signal?: AbortSignal): Promise<boolean> {
  const watching = watch(names);
  try {
    return await watching.next(timeoutMs, signal);
  } finally {
    watching.close();
  }
}

export async function closeEvents(): Promise<void> {
  const events = holder.openvibeEvents;
  holder.openvibeEvents = undefined;
  if (events) await events.sub.quit();
}
