// First GitHub sign-in creates the person (with their default project) and remembers the GitHub
// account; later sign-ins find them by that account. An email that already belongs to an
// account is never linked automatically: GitHub does not promise the address is verified, and
// linking on it would hand that account to whoever controls the GitHub profile.
import "server-only";
import { AppError } from "../errors";
import { db } from "../db";
import { createUser, HANDLE_PATTERN, handleBase, normalizeEmail, type PublicUser } from "./users";

export type GithubProfile = {
  providerAccountId: string;
  login?: string | null;
  name?: string | null;
  email?: string | null;
  image?: string | null;
};

export async function signInWithGithub(profile: GithubProfile): Promise<PublicUser> {
  const providerAccountId = String(profile.providerAccountId);
  const existing = await githubUser(providerAccountId);
  if (existing) return existing;

  if (!profile.email) {
    throw new AppError("auth.forbidden", "Your GitHub account has no email we can use: make one public or sign up with email.");
  }
  const email = normalizeEmail(profile.email);
  if (await db.user.findUnique({ where: { email }, select: { id: true } })) {
    throw new AppError(
      "auth.account_not_linked",
      "An account with this email already exists: sign in with your email and password instead.",
    );
  }
  const login = profile.login?.toLowerCase() ?? "";
  const loginIsFree = HANDLE_PATTERN.test(login) && !(await db.user.findUnique({ where: { handle: login }, select: { id: true } }));
  const user = await createUser({
    email,
    name: profile.name?.trim() || profile.login || email.split("@")[0] || "GitHub user",
    handle: loginIsFree && handleBase(login) === login ? login : undefined,
    image: profile.image ?? null,
  });
  try {
    await db.account.create({ data: { userId: user.id, provider: "github", providerAccountId } });
  } catch (err) {
    // A parallel first sign-in with the same GitHub account won: keep theirs, drop ours.
    const winner = await githubUser(providerAccountId);
    if (!winner) throw err;
    await db.user.delete({ where: { id: user.id } });
    return winner;
  }
  return user;
}

export async function githubUser(providerAccountId: string): Promise<PublicUser | null> {
  const account = await db.account.findUnique({
    where: { provider_providerAccountId: { provider: "github", providerAccountId: String(providerAccountId) } },
    select: { user: { select: { id: true, email: true, name: true, handle: true } } },
  });
  return account?.user ?? null;
}
