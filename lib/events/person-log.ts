// A short log of each person's events (their steps, installs and scans changed), kept as a Redis
// stream beside the pub/sub wake-ups, so a browser that reconnects with `Last-Event-ID` gets what
// it missed, up to LOG_MAX events back; past that it is told to reload (`reset`). The events say
// only what kind of thing changed: the page reads the thing itself through its usual, checked route.
import "server-only";
import type { ChainableCommander } from "ioredis";
import { key, redis } from "../redis";

export const PERSON_EVENT_TYPES = ["steps", "installs", "scans"] as const;
export type PersonEventType = (typeof PERSON_EVENT_TYPES)[number];
export type PersonEvent = { id: string; type: PersonEventType };

/** How many events a person's log keeps (about: Redis trims whole nodes). */
export const LOG_MAX = 200;
const LOG_TTL_S = 24 * 60 * 60;
const STREAM_ID = /^\d{1,20}-\d{1,20}$/;

// Channel prefixes (lib/events `channels`) whose wake-ups are also a person's event.
const PREFIXES: [string, PersonEventType][] = [
  ["user-steps:", "steps"],
  ["installs:user:", "installs"],
  ["scans:user:", "scans"],
];

const logKey = (userId: string) => key("events-log", userId);

export function personEventOf(channel: string): { userId: string; type: PersonEventType } | null {
  for (const [prefix, type] of PREFIXES) {
    if (channel.startsWith(prefix) && channel.length > prefix.length)
      return { userId: channel.slice(prefix.length), type };
  }
  return null;
}

export const isStreamId = (text: string) => STREAM_ID.test(text);

/** -1, 0, 1 as stream id `a` is before, equal to, after `b`. */
export function compareStreamIds(a: string, b: string): number {
  const [am, as] = a.split("-").map(BigInt) as [bigint, bigint];
  const [bm, bs] = b.split("-").map(BigInt) as [bigint, bigint];
  if (am !== bm) return am < bm ? -1 : 1;
  return as === bs ? 0 : as < bs ? -1 : 1;
}

/** Queues the append of the person's event for `channel`, if it is one, on a pipeline. */
export function appendPersonEvent(pipeline: ChainableCommander, channel: string): void {
  const event = personEventOf(channel);
  if (!event) return;
  const k = logKey(event.userId);
  pipeline.xadd(k, "MAXLEN", "~", LOG_MAX, "*", "type", event.type).expire(k, LOG_TTL_S);
}

export async function eventsAfter(userId: string, afterId: string, count: number): Promise<PersonEvent[]> {
  const rows = await redis().xrange(logKey(userId), `(${afterId}`, "+", "COUNT", count);
  const events: PersonEvent[] = [];
  for (const [id, fields] of rows) {
    const type = fields[fields.indexOf("type") + 1];
    if ((PERSON_EVENT_TYPES as readonly string[]).includes(type ?? ""))
      events.push({ id, type: type as PersonEventType });
  }
  return events;
}

/** The id of the person's newest event, or "0-0". */
export async function latestEventId(userId: string): Promise<string> {
  const rows = await redis().xrevrange(logKey(userId), "+", "-", "COUNT", 1);
  return rows[0]?.[0] ?? "0-0";
}

/** Whether events after `afterId` were trimmed away (or the whole log expired): the client must reload. */
export async function missedEvents(userId: string, afterId: string): Promise<boolean> {
  let info: unknown[];
  try {
    info = (await redis().xinfo("STREAM", logKey(userId))) as unknown[];
  } catch {
    // No log at all: anything after a real id is gone.
    return afterId !== "0-0";
  }
  const at = info.indexOf("max-deleted-entry-id");
  const deleted = at >= 0 ? String(info[at + 1]) : "0-0";
  if (isStreamId(deleted) && compareStreamIds(afterId, deleted) < 0) return true;
  // An id newer than anything logged is not ours to trust: reload.
  const last = await latestEventId(userId);
  return compareStreamIds(afterId, last) > 0;
}
