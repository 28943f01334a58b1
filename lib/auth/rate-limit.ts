// Failed sign-ins, counted in Redis (rate-limiter-flexible) and shared by every app instance:
// 5 failures per email and IP, and 20 per email from anywhere (so rotating IPs does not buy
// unlimited guesses), per 15-minute window (lib/config/rate-limits.ts); a successful sign-in
// clears both. The request rate of sign-in itself is limited per IP in the next-auth route.
import "server-only";
import { AppError } from "../errors";
import { assertNotSpent, consume, RateLimitedError, rateKey, reset } from "../http/rate-limit";

function keys(email: string, ip: string) {
  return { pair: rateKey("signin", email, ip), email: rateKey("signin", email) };
}

const lockedOut = (err: RateLimitedError) => {
  const minutes = Math.ceil(err.rate.resetSeconds / 60);
  return new AppError(
    "auth.rate_limited",
    `Too many failed sign-ins for this email. Wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`,
    { details: { retryAfterSeconds: err.rate.resetSeconds } },
  );
};

/** Throws `auth.rate_limited` (429) when this email (from this IP) has failed too often. */
export async function assertSignInAllowed(email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  try {
    await assertNotSpent("signInFailuresPerEmailAndIp", k.pair);
    await assertNotSpent("signInFailuresPerEmail", k.email);
  } catch (err) {
    throw err instanceof RateLimitedError ? lockedOut(err) : err;
  }
}

export async function recordSignInFailure(email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  const spent = (err: unknown) => {
    if (!(err instanceof RateLimitedError)) throw err;
  };
  await consume("signInFailuresPerEmailAndIp", k.pair).catch(spent);
  await consume("signInFailuresPerEmail", k.email).catch(spent);
}

export async function clearSignInFailures(email: string, ip: string): Promise<void> {
  const k = keys(email, ip);
  await reset("signInFailuresPerEmailAndIp", k.pair);
  await reset("signInFailuresPerEmail", k.email);
}
