// next-auth (v4) configuration: email + password always, GitHub when it is configured. Sessions
// are JWTs in an encrypted cookie that carry only the user id and a session id; getSession() reads
// both fresh from the database, and signing out ends the session row (lib/auth/sessions.ts).
import "server-only";
import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import { config } from "../config/env.mjs";
import { AppError } from "../errors";
import { log } from "../log";
import { clientIp, signInWithPassword } from "./credentials";
import { githubUser, signInWithGithub } from "./github";
import { endSession, startSession } from "./sessions";

export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function secureCookies(): boolean {
  return config().APP_URL.startsWith("https://");
}

/** The session cookie next-auth writes (and getSession() reads). */
export function sessionCookieName(): string {
  return secureCookies() ? "__Secure-next-auth.session-token" : "next-auth.session-token";
}

// next-auth v4 takes its own base URL only from process.env.NEXTAUTH_URL; give it APP_URL so one
// variable configures the site.
function ensureNextAuthUrl() {
  // eslint-disable-next-line no-restricted-properties
  process.env.NEXTAUTH_URL ||= config().APP_URL;
}

/** An AppError becomes its code, which next-auth hands to the sign-in page as `error`. */
function asSignInError(err: unknown): Error {
  if (err instanceof AppError) return new Error(err.code);
  log.error("sign-in failed", { err });
  return new Error("internal");
}

let cached: NextAuthOptions | undefined;

export function authOptions(): NextAuthOptions {
  if (cached) return cached;
  ensureNextAuthUrl();
  const c = config();
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        try {
          const user = await signInWithPassword({
            email: String(credentials?.email ?? ""),
            password: String(credentials?.password ?? ""),
            ip: clientIp(req?.headers),
          });
          return { id: user.id, email: user.email, name: user.name };
        } catch (err) {
          throw asSignInError(err);
        }
      },
    }),
  ];
  if (c.GITHUB_ID && c.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: c.GITHUB_ID, clientSecret: c.GITHUB_SECRET }));
  }
  cached = {
    secret: c.AUTH_SECRET,
    useSecureCookies: secureCookies(),
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE_SECONDS },
    pages: { signIn: "/signin", error: "/signin" },
    providers,
    events: {
      // The cookie may live on in a copy; the row is what makes it worthless.
      async signOut({ token }) {
        await endSession(token?.sid);
      },
    },
    logger: {
      error: (code, metadata) => log.error(`next-auth: ${code}`, { metadata }),
      warn: (code) => log.warn(`next-auth: ${code}`),
      debug: () => {},
    },
    callbacks: {
      async signIn({ account, profile }) {
        if (account?.provider !== "github") return true;
        const p = (profile ?? {}) as { login?: string; name?: string | null; email?: string | null; avatar_url?: string };
        try {
          await signInWithGithub({
            providerAccountId: account.providerAccountId,
            login: p.login,
            name: p.name,
            email: p.email,
            image: p.avatar_url,
          });
          return true;
        } catch (err) {
          return `/signin?error=${encodeURIComponent(asSignInError(err).message)}`;
        }
      },
      async jwt({ token, user, account }) {
        if (account?.provider === "github") {
          const person = await githubUser(account.providerAccountId);
          return person ? { sub: person.id, sid: await startSession(person.id, SESSION_MAX_AGE_SECONDS) } : {};
        }
        if (user) return { sub: user.id, sid: await startSession(user.id, SESSION_MAX_AGE_SECONDS) };
        return { sub: token.sub, sid: token.sid };
      },
      async session({ session, token }) {
        return { ...session, user: { id: token.sub } } as typeof session;
      },
    },
  };
  return cached;
}
