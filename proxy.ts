// Sends people without a session cookie straight to sign-in before a protected page renders.
// This is only the fast path: every protected page still checks the session itself
// (requireUser), because a cookie being present says nothing about it being valid.
import { NextResponse, type NextRequest } from "next/server";

const SESSION_COOKIES = ["next-auth.session-token", "__Secure-next-auth.session-token"];

function hasSessionCookie(req: NextRequest): boolean {
  return req.cookies.getAll().some(({ name }) => SESSION_COOKIES.some((c) => name === c || name.startsWith(`${c}.`)));
}

export function proxy(req: NextRequest) {
  if (hasSessionCookie(req)) return NextResponse.next();
  const url = req.nextUrl.clone();
  url.pathname = "/signin";
  url.search = `?next=${encodeURIComponent(req.nextUrl.pathname + req.nextUrl.search)}`;
  return NextResponse.redirect(url);
}

export const config = {
  matcher: ["/dashboard", "/dashboard/:path*"],
};
