// Rate limits on every API route, counted in Redis with rate-limiter-flexible so every app
// instance shares them. A request is counted against the principal it authenticated as (person,
// API token, agent, Link) or, without credentials, against its client IP; failed authentications
// count against the IP too. Over a limit: 429 `rate.limited` with Retry-After and RateLimit-*
// headers (IETF draft "RateLimit header fields"). If Redis is unreachable, each process limits
// from memory instead, so losing Redis never opens the gates nor closes the API.
import { createHash } from "node:crypto";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import { rateLimit, type RateLimitName } from "../config/rate-limits";
import { AppError } from "../errors";
import { key, redis } from "../redis";

const limiters = new Map<string, RateLimiterRedis>();

function limiter(name: RateLimitName): RateLimiterRedis {
  const { points, durationSeconds } = rateLimit(name);
  const id = `${key("ratelimit", name)}:${points}:${durationSeconds}`;
  let l = limiters.get(id);
  if (!l) {
    l = new RateLimiterRedis({
      storeClient: redis(),
      keyPrefix: key("ratelimit", name),
      points,
      duration: durationSeconds,
      insuranceLimiter: new RateLimiterMemory({ points, duration: durationSeconds }),
    });
    limiters.set(id, l);
  }
  return l;
}

/** Redis never holds an IP, email or token in clear text. */
export const rateKey = (...parts: string[]) => createHash("sha256").update(parts.join("\n")).digest("hex").slice(0, 32);

export type RateState = {
  name: RateLimitName;
  limit: number;
  remaining: number;
  resetSeconds: number;
  windowSeconds: number;
};

function state(name: RateLimitName, res: RateLimiterRes): RateState {
  const { points, durationSeconds } = rateLimit(name);
  return {
    name,
    limit: points,
    remaining: Math.max(0, res.remainingPoints),
    resetSeconds: Math.max(1, Math.ceil(res.msBeforeNext / 1000)),
    windowSeconds: durationSeconds,
  };
}

/** The headers that describe a limit's state; with Retry-After when it is spent. */
export function rateLimitHeaders(s: RateState, limited: boolean): Record<string, string> {
  return {
    "RateLimit-Limit": String(s.limit),
    "RateLimit-Remaining": String(s.remaining),
    "RateLimit-Reset": String(s.resetSeconds),
    "RateLimit-Policy": `${s.limit};w=${s.windowSeconds}`,
    ...(limited ? { "Retry-After": String(s.resetSeconds) } : {}),
  };
}

/** 429 `rate.limited`, carrying the headers its response needs. */
export class RateLimitedError extends AppError {
  readonly headers: Record<string, string>;
  constructor(readonly rate: RateState) {
    const wait = rate.resetSeconds;
    const words = wait >= 120 ? `${Math.ceil(wait / 60)} minutes` : `${wait} second${wait === 1 ? "" : "s"}`;
    super("rate.limited", `Too many requests: wait ${words} and try again.`, {
      details: { limit: rate.name, retry_after_seconds: wait },
    });
    this.headers = rateLimitHeaders(rate, true);
  }
}

/** Counts `points` against `name` for `id`; throws RateLimitedError when the limit is spent. */
export async function consume(name: RateLimitName, id: string, points = 1): Promise<RateState> {
  try {
    return state(name, await limiter(name).consume(id, points));
  } catch (err) {
    if (err instanceof RateLimiterRes) throw new RateLimitedError(state(name, err));
    throw err;
  }
}

/**
 * What `id` has spent on `name`, or null when nothing: one GET (sent with the request's other
 * commands), and the limiter's own read (a MULTI, for the time left) only once it is spent. With
 * Redis away, the limiter's read answers from memory.
 */
async function readSpent(name: RateLimitName, id: string): Promise<RateLimiterRes | null> {
  const l = limiter(name);
  if (redis().status === "ready") {
    const consumed = await redis()
      .get(l.getKey(id))
      .catch(() => undefined);
    if (consumed === null || (consumed !== undefined && Number(consumed) < rateLimit(name).points)) return null;
  }
  return l.get(id);
}

/** Reads of one limit and id still in flight: requests that ask at the same moment share one. */
const spentReads = new Map<string, Promise<RateLimiterRes | null>>();

/** Throws RateLimitedError if `id` has already spent `name`, without counting anything. */
export async function assertNotSpent(name: RateLimitName, id: string): Promise<void> {
  const readKey = `${name}\n${id}`;
  let read = spentReads.get(readKey);
  if (!read) {
    read = readSpent(name, id).finally(() => spentReads.delete(readKey));
    spentReads.set(readKey, read);
  }
  const res = await read;
  if (res && res.consumedPoints >= rateLimit(name).points) {
    throw new RateLimitedError(state(name, res));
  }
}

/** Gives `points` back to `id` on `name` (a request that turned out not to count). */
export async function refund(name: RateLimitName, id: string, points = 1): Promise<void> {
  await limiter(name).reward(id, points);
}

/** Forgets what `id` has spent on `name` (e.g. failed sign-ins once one succeeds). */
export async function reset(name: RateLimitName, id: string): Promise<void> {
  await limiter(name).delete(id);
}
