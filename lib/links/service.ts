// A person's Links as the dashboard and the Link itself see them: state reports (runner on/off,
// pool offer), online status, listing and revoking. Someone else's Link answers 404.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";

/** A Link long-polls every few seconds; unseen for this long, it counts as offline. */
export const ONLINE_WINDOW_MS = 45_000;

export const isOnline = (lastSeenAt: Date | null, now = Date.now()) =>
  lastSeenAt !== null && now - lastSeenAt.getTime() <= ONLINE_WINDOW_MS;

export type LinkState = { runner: "on" | "off"; pool: boolean };

/** What a Link reports on every heartbeat; the dashboard shows it. */
export async function reportLinkState(linkId: string, state: LinkState) {
  const link = await db.link.update({
    where: { id: linkId },
    data: { runnerEnabled: state.runner === "on", poolOffer: state.pool, lastSeenAt: new Date() },
    select: { id: true, name: true, runnerEnabled: true, poolOffer: true, userId: true },
  });
  return { link_id: link.id, name: link.name, runner: link.runnerEnabled ? "on" : "off", pool: link.poolOffer };
}

export async function listLinks(userId: string) {
  const links = await db.link.findMany({ where: { userId }, orderBy: { createdAt: "desc" } });
  const now = Date.now();
  return links.map((l) => ({
    id: l.id,
    name: l.name,
    online: !l.revokedAt && isOnline(l.lastSeenAt, now),
    lastSeenAt: l.lastSeenAt,
    runner: l.runnerEnabled ? ("on" as const) : ("off" as const),
    pool: l.poolOffer,
    jobsRun: l.jobsRun,
    revokedAt: l.revokedAt,
    createdAt: l.createdAt,
  }));
}

/** Revoking is immediate: the Link's next signed request is refused with `link.revoked`. */
export async function revokeLink(userId: string, linkId: string) {
  const link = await db.link.findFirst({ where: { id: linkId, userId }, select: { id: true, revokedAt: true } });
  if (!link) throw new AppError("link.not_found", "That Link was not found.");
  if (link.revokedAt) return { id: link.id, revokedAt: link.revokedAt };
  const revokedAt = new Date();
  await db.$transaction([
    db.link.update({ where: { id: link.id }, data: { revokedAt, runnerEnabled: false, poolOffer: false } }),
    db.auditEvent.create({
      data: { userId, actor: `user:${userId}`, action: "link.revoked", subjectType: "link", subjectId: link.id },
    }),
  ]);
  return { id: link.id, revokedAt };
}
