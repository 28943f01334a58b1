import NextAuth from "next-auth";
import { authOptions, credentialsFormError } from "@/lib/auth";
import { config } from "@/lib/config/env.mjs";
import { errorBody } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import { json } from "@/lib/http/route";
import { consume, RateLimitedError, rateKey, rateLimitHeaders, type RateState } from "@/lib/http/rate-limit";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// Options are built on first request, so a build without runtime secrets still succeeds.
async function handler(req: Request, ctx: Ctx) {
  return limited(req, ctx, false);
}

/** Malformed sign-in input gets the app's JSON error shape (4xx) before next-auth sees it. */
async function post(req: Request, ctx: Ctx) {
  const { nextauth } = await ctx.params;
  return limited(req, ctx, nextauth.join("/") === "callback/credentials");
}

/** Every next-auth request counts per IP; a credentials sign-in also against the sign-in limit. */
async function limited(req: Request, ctx: Ctx, signIn: boolean): Promise<Response> {
  const ip = rateKey("ip", clientIp(req.headers));
  let state: RateState;
  try {
    state = await consume("anonymous", ip);
    if (signIn) state = await consume("signIn", ip);
  } catch (err) {
    if (!(err instanceof RateLimitedError)) throw err;
    // next-auth's client reads `url` and hands its `error` to the sign-in page.
    const url = `${config().APP_URL.replace(/\/$/, "")}/signin?error=rate.limited`;
    const res = json({ ...errorBody(err), url }, err.status);
    for (const [k, v] of Object.entries(err.headers)) res.headers.set(k, v);
    return res;
  }
  if (signIn) {
    const problem = await credentialsFormError(req.clone());
    if (problem) return json(errorBody(problem), problem.status);
  }
  const res = await NextAuth(authOptions())(req, ctx);
  try {
    for (const [k, v] of Object.entries(rateLimitHeaders(state, false))) res.headers.set(k, v);
  } catch {
    // A redirect's headers are immutable; it goes out without the rate-limit headers.
  }
  return res;
}

export { handler as GET, post as POST };
