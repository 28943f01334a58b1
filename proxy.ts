// Runs before every page: sets the page's Content-Security-Policy with a fresh nonce (on the
// request too, where Next.js reads it to put the nonce on its own scripts), and sends people
// without a session cookie straight to sign-in before a protected page renders. The redirect is
// only the fast path: every protected page still checks the session itself (requireUser),
// because a cookie being present says nothing about it being valid.
import { NextResponse, type NextRequest } from "next/server";
import { config as appConfig } from "./lib/config/env.mjs";
import { newNonce, pageCsp } from "./lib/http/security-headers.mjs";

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

function hasSessionCookie(req: NextRequest): boolean {
  return req.cookies.getAll().some(({ name }) => SESSION_COOKIES.some((c) => name === c || name.startsWith(`${c}.`)));
}

const isProtected = (path: string) => path === "/dashboard" || path.startsWith("/dashboard/");

/** A path Next.js could not decode would end in its own 500: answer 400 before it tries. */
function undecodable(pathname: string): boolean {
  try {
    decodeURIComponent(pathname);
    return pathname.includes("%00");
  } catch {
    return true;
  }
}

export function proxy(req: NextRequest) {
  if (undecodable(req.nextUrl.pathname)) {
    return NextResponse.json(
      { error: { code: "request.invalid", message: "The address is not valid: check its percent-encoding." } },
      { status: 400 },
    );
  }
  // API answers get their headers from next.config.mjs; pages get the nonce policy below.
  if (req.nextUrl.pathname.startsWith("/api/")) return NextResponse.next();
  const nonce = newNonce();
  const csp = pageCsp(nonce, { dev: appConfig().NODE_ENV === "development" });
  let res: NextResponse;
  if (isProtected(req.nextUrl.pathname) && !hasSessionCookie(req)) {
    const url = req.nextUrl.clone();
    url.pathname = "/signin";
    url.search = `?next=${encodeURIComponent(req.nextUrl.pathname + req.nextUrl.search)}`;
    res = NextResponse.redirect(url);
  } else {
    const headers = new Headers(req.headers);
    headers.set("x-nonce", nonce);
    headers.set("content-security-policy", csp);
    res = NextResponse.next({ request: { headers } });
  }
  res.headers.set("content-security-policy", csp);
  return res;
}

export const config = {
  // Every page, and every API path with a percent sign (the only ones that can fail to decode); not
  // Next's static files. A plain API path skips the proxy: agents and Links call those many times a
  // second, and running it for them cost 2–4 points of bench:load's throughput (README).
  matcher: [
    {
      source: "/((?!_next/static|_next/image|favicon.ico|api/[^%]*$).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
