// Failed sign-in counting in Redis, shared by every app instance: 5 failures per email and IP
// (and 20 per email from anywhere, so rotating IPs does not buy unlimited guesses) in a 15-minute
// window; a successful sign-in clears both counters.
import "server-only";
import { createHash } from "node:crypto";
import { AppError } from "../errors";
import { key, redis } from "../redis";

export const SIGNIN_WINDOW_SECONDS = 15 * 60;
export const SIGNIN_MAX_FAILURES_PER_IP = 5;
export const SIGNIN_MAX_FAILURES_PER_EMAIL = 20;

// Hashed so Redis never holds a person's email address or IP in clear text.
const digest = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 32);

function keys(email: string, ip: string) {
  return {
    pair: key("ratelimit", "signin", "pair", digest(`${email}\n${ip}`)),
    email: key("ratelimit", "signin", "email", digest(email)),
  };
}

/** Throws `auth.rate_limited` (429) when this email (from this IP) has failed too often. */
export async function assertSignInAllowed(email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  const [pair, total] = (await redis().mget(k.pair, k.email)).map((v) => Number(v ?? 0));
  if ((pair ?? 0) < SIGNIN_MAX_FAILURES_PER_IP && (total ?? 0) < SIGNIN_MAX_FAILURES_PER_EMAIL) return;
  const ttl = Math.max(await redis().ttl(k.pair), await redis().ttl(k.email), 1);
  const minutes = Math.ceil(ttl / 60);
  throw new AppError(
    "auth.rate_limited",
    `Too many failed sign-ins for this email. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    { details: { retryAfterSeconds: ttl } },
  );
}

export async function recordSignInFailure(email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  await redis()
    .multi()
    .incr(k.pair)
    .expire(k.pair, SIGNIN_WINDOW_SECONDS, "NX")
    .incr(k.email)
    .expire(k.email, SIGNIN_WINDOW_SECONDS, "NX")
    .exec();
}

export async function clearSignInFailures(email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  await redis().del(k.pair, k.email);
}
