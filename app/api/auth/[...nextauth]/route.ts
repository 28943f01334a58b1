import NextAuth from "next-auth";
import { authOptions, credentialsFormError } from "@/lib/auth";
import { config } from "@/lib/config/env.mjs";
import { errorBody, notFound } from "@/lib/errors";
import { clientIp } from "@/lib/http/client-ip";
import { json } from "@/lib/http/route";
import { consume, RateLimitedError, rateKey, rateLimitHeaders, type RateState } from "@/lib/http/rate-limit";

type Ctx = { params: Promise<{ nextauth: string[] }> };

// next-auth answers an action it does not have for a provider (GET callback/credentials, …)
// with a 500: only the actions the site uses reach it, the rest are 404.
const ACTIONS = {
  GET: new Set(["providers", "session", "csrf", "signin", "signout", "error", "signin/github", "callback/github"]),
  POST: new Set(["signin/credentials", "signin/github", "callback/credentials", "signout", "session", "_log"]),
};

// Options are built on first request, so a build without runtime secrets still succeeds.
async function handler(req: Request, ctx: Ctx) {
  return (await known(req, ctx, "GET")) ?? limited(req, ctx, false);
}

/** Malformed sign-in input gets the app's JSON error shape (4xx) before next-auth sees it. */
async function post(req: Request, ctx: Ctx) {
  const { nextauth } = await ctx.params;
  return (await known(req, ctx, "POST")) ?? limited(req, ctx, nextauth.join("/") === "callback/credentials");
}

/** A 404 for what next-auth would not handle (GitHub's actions only when it is configured). */
async function known(req: Request, ctx: Ctx, method: keyof typeof ACTIONS): Promise<Response | null> {
  const action = ((await ctx.params).nextauth ?? []).join("/");
  const github = action.endsWith("/github");
  if (ACTIONS[method].has(action) && (!github || Boolean(config().GITHUB_ID))) return null;
  return json(errorBody(notFound("That sign-in action")), 404);
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
