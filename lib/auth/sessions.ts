// Browser sessions as rows. The next-auth JWT only names a session (`sid`); every request reads
// the row, so signing out ends that cookie everywhere at once — a copied cookie stops working too.
import "server-only";
import { randomBytes } from "node:crypto";
import { db } from "../db";
import type { PublicUser } from "./users";

export const SESSION_ID_PATTERN = /^[A-Za-z0-9_-]{32}$/;

/** A new session for `userId`, valid for `maxAgeSeconds`; returns its id (for the JWT). */
export async function startSession(userId: string, maxAgeSeconds: number): Promise<string> {
  const id = randomBytes(24).toString("base64url");
  await db.authSession.create({ data: { id, userId, expiresAt: new Date(Date.now() + maxAgeSeconds * 1000) } });
  return id;
}

/** Ends a session (sign-out); an unknown or already ended one is a no-op. */
export async function endSession(id: unknown): Promise<void> {
  if (typeof id !== "string" || !SESSION_ID_PATTERN.test(id)) return;
  await db.authSession.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
}

/** The person of a live session that belongs to `userId`, else null (ended, expired, unknown). */
export async function sessionUser(id: unknown, userId: string): Promise<PublicUser | null> {
  if (typeof id !== "string" || !SESSION_ID_PATTERN.test(id)) return null;
  const row = await db.authSession.findUnique({
    where: { id },
    select: {
      userId: true,
      revokedAt: true,
      expiresAt: true,
      user: { select: { id: true, email: true, name: true, handle: true } },
    },
  });
  if (!row || row.userId !== userId || row.revokedAt || row.expiresAt.getTime() <= Date.now()) return null;
  return row.user;
}
