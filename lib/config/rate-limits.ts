// Every rate limit of the API, named once: how many requests (points) a key may make per window.
// Keys: a signed-in person or each of their API tokens, each agent, each Link, and the client IP
// for anonymous requests (lib/http/rate-limit.ts). Generous where people and their tools work,
// tight where a request is costly or a guess (sign-in, sign-up, publish).
import { config } from "./env.mjs";

export type RateLimit = { points: number; durationSeconds: number };

/** A signed-in person (session) or one API token, on any API route. */
export const PERSON_RATE_LIMIT: RateLimit = { points: 600, durationSeconds: 60 };
/** One agent token: tool calls and step long-polls. */
export const AGENT_RATE_LIMIT: RateLimit = { points: 600, durationSeconds: 60 };
/** One Link: polls, heartbeats, inputs and results of the jobs it runs side by side. */
export const LINK_RATE_LIMIT: RateLimit = { points: 1200, durationSeconds: 60 };
/** One client IP on public routes without credentials (search, listings, contracts, pairing). */
export const ANONYMOUS_RATE_LIMIT: RateLimit = { points: 300, durationSeconds: 60 };
/** Requests with credentials that fail to authenticate, per client IP, before it must wait. */
export const AUTH_FAILURE_RATE_LIMIT: RateLimit = { points: 30, durationSeconds: 10 * 60 };
/** Sign-in attempts (email and password) per client IP. */
export const SIGN_IN_RATE_LIMIT: RateLimit = { points: 10, durationSeconds: 5 * 60 };
/** Failed sign-ins per email from one IP, and per email from anywhere (rotating IPs buys nothing). */
export const SIGN_IN_FAILURES_PER_EMAIL_AND_IP: RateLimit = { points: 5, durationSeconds: 15 * 60 };
export const SIGN_IN_FAILURES_PER_EMAIL: RateLimit = { points: 20, durationSeconds: 15 * 60 };
/** New accounts per client IP. */
export const SIGN_UP_RATE_LIMIT: RateLimit = { points: 5, durationSeconds: 60 * 60 };
/** Publish requests (dry runs included) per person. */
export const PUBLISH_RATE_LIMIT: RateLimit = { points: 30, durationSeconds: 60 * 60 };

export const RATE_LIMITS = {
  person: PERSON_RATE_LIMIT,
  agent: AGENT_RATE_LIMIT,
  link: LINK_RATE_LIMIT,
  anonymous: ANONYMOUS_RATE_LIMIT,
  authFailure: AUTH_FAILURE_RATE_LIMIT,
  signIn: SIGN_IN_RATE_LIMIT,
  signInFailuresPerEmailAndIp: SIGN_IN_FAILURES_PER_EMAIL_AND_IP,
  signInFailuresPerEmail: SIGN_IN_FAILURES_PER_EMAIL,
  signUp: SIGN_UP_RATE_LIMIT,
  publish: PUBLISH_RATE_LIMIT,
} as const satisfies Record<string, RateLimit>;

export type RateLimitName = keyof typeof RATE_LIMITS;

/** Per-email lockouts count one person's guesses, not an address's traffic: never scaled. */
const UNSCALED = new Set<RateLimitName>(["signInFailuresPerEmailAndIp", "signInFailuresPerEmail"]);

/** The limit in force: the named constant times RATE_LIMIT_SCALE (tests raise it; never below 1×). */
export function rateLimit(name: RateLimitName): RateLimit {
  const { points, durationSeconds } = RATE_LIMITS[name];
  const scale = UNSCALED.has(name) ? 1 : config().RATE_LIMIT_SCALE;
  return { points: Math.round(points * scale), durationSeconds };
}
