// Who is asking. getSession() is the one way server components learn it; route handlers use
// sessionPrincipal(req) / apiPrincipal(req), which read the same cookie from the request itself.
import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { getToken } from "next-auth/jwt";
import { NextRequest } from "next/server";
import { config } from "../config/env.mjs";
import { AppError } from "../errors";
import { verifyApiToken } from "./api-tokens";
import { sessionCookieName } from "./next-auth";
import type { Principal, SessionUser } from "./principal";
import type { ApiTokenScope } from "./scopes";
import { safeNextPath } from "./next-path";
import { sessionUser } from "./sessions";

export { safeNextPath } from "./next-path";

/**
 * The person a Cookie header's session names, read with next-auth's own getToken (which joins the
 * `.0`, `.1`… chunks it splits big cookies into). Only the cookie is handed over: getToken would
 * otherwise take a bearer token from the Authorization header for a session.
 */
async function userFromCookieHeader(cookie: string | null): Promise<SessionUser | null> {
  if (!cookie) return null;
  const name = sessionCookieName();
  const payload = await getToken({
    req: new NextRequest("http://session.invalid/", { headers: { cookie } }),
    cookieName: name,
    secureCookie: name.startsWith("__Secure-"),
    secret: config().AUTH_SECRET,
  });
  const userId = typeof payload?.sub === "string" ? payload.sub : undefined;
  if (!userId) return null;
  // Read fresh so a signed-out session or a deleted person's cookie stops working at once.
  const user = await sessionUser(payload?.sid, userId);
  return user ? { userId: user.id, email: user.email, name: user.name, handle: user.handle } : null;
}

/** The signed-in person of this request (server components, actions, route handlers), or null. */
export const getSession = cache(async (): Promise<SessionUser | null> => {
  const jar = await cookies();
  return userFromCookieHeader(
    jar
      .getAll()
      .map((c) => `${c.name}=${encodeURIComponent(c.value)}`)
      .join("; "),
  );
});

/** For pages: the signed-in person, or a redirect to /signin that comes back to `nextPath`. */
export async function requireUser(nextPath: string): Promise<SessionUser> {
  const user = await getSession();
  if (!user) redirect(`/signin?next=${encodeURIComponent(safeNextPath(nextPath))}`);
  return user;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const MAX_AUTHORIZATION_CHARS = 512;

/** A cookie-authenticated change must come from this site's own pages (defence against CSRF). */
function assertSameOrigin(req: Request) {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const origin = req.headers.get("origin");
  if (!origin) return;
  const host = req.headers.get("x-forwarded-host") ?? req.headers.get("host") ?? new URL(req.url).host;
  let originHost: string;
  try {
    originHost = new URL(origin).host;
  } catch {
    originHost = "";
  }
  if (originHost !== host) {
    throw new AppError("auth.forbidden", "This request came from another site: use OpenVibe Skills' own pages.");
  }
}

/** The secret of an `Authorization: Bearer …` header, null without the header, `auth.token_invalid` if malformed. */
function bearerSecret(req: Request): string | null {
  const authorization = req.headers.get("authorization");
  if (!authorization) return null;
  // A token is 47 characters: a longer header is refused before any pattern reads it.
  const match = authorization.length <= MAX_AUTHORIZATION_CHARS ? /^Bearer\s+(\S+)\s*$/i.exec(authorization) : null;
  if (!match?.[1]) {
    throw new AppError("auth.token_invalid", "Send the API token as `Authorization: Bearer ovp_…`.");
  }
  return match[1];
}

/**
 * For session-only routes (topping up, managing tokens, deciding steps): the session's person, or
 * `auth.required` (401). A valid API token is refused with `auth.session_required` (403).
 */
export async function sessionPrincipal(req: Request): Promise<Principal> {
  // Only a personal API token is answered as one: any other Authorization (a JWT, an agent token)
  // is ignored here, as it always was, and the cookie alone decides.
  const secret = /^Bearer\s+(ovp_\S*)\s*$/i.exec(
    (req.headers.get("authorization") ?? "").slice(0, MAX_AUTHORIZATION_CHARS),
  )?.[1];
  if (secret) {
    await verifyApiToken(secret);
    throw new AppError(
      "auth.session_required",
      "This needs a browser session: sign in on the site, an API token cannot do it.",
    );
  }
  const user = await userFromCookieHeader(req.headers.get("cookie"));
  if (!user)
    throw new AppError("auth.required", "Sign in first (or send an API token as `Authorization: Bearer ovp_…`).");
  assertSameOrigin(req);
  return { ...user, via: "session" };
}

/** For API routes any token may call (/me): a bearer API token when one is sent (and then only it), else the session. */
export async function apiPrincipal(req: Request): Promise<Principal> {
  const secret = bearerSecret(req);
  return secret === null ? sessionPrincipal(req) : verifyApiToken(secret);
}

/** For API routes: the session's person, or a bearer API token that has `scope` (else `auth.scope_missing`, 403). */
export function scopedPrincipal(scope: ApiTokenScope): (req: Request) => Promise<Principal> {
  return async (req) => {
    const principal = await apiPrincipal(req);
    if (principal.via === "token" && !principal.scopes.includes(scope)) {
      throw new AppError("auth.scope_missing", `This API token lacks the \`${scope}\` scope: create one that has it.`, {
        details: { scope },
      });
    }
    return principal;
  };
}
