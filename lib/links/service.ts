// A person's Links as the dashboard and the Link itself see them: state reports (runner on/off,
// pool offer), online status, listing, turning the runner off remotely and revoking. Someone
// else's Link answers 404.
//
// The off switch: the machine's own `openvibe-link skills on|off` is the authority. Each switch
// there counts up `runner_epoch`, and a report older than the newest one the server has seen never
// changes the runner. The dashboard can only turn a runner off: it marks the epoch it last saw, and
// the runner stays off until the machine reports a newer `skills on`.
import "server-only";
import { db, sqlPool, utcText } from "../db";
import { AppError } from "../errors";
import type { LinkReport, Runner } from "../protocol";
import { Effects, withdraw } from "../runs/lifecycle";
import { recordAudit } from "../audit";

/** A Link long-polls every few seconds; unseen for this long, it counts as offline. */
export const ONLINE_WINDOW_MS = 45_000;

export const isOnline = (lastSeenAt: Date | null, now = Date.now()) =>
  lastSeenAt !== null && now - lastSeenAt.getTime() <= ONLINE_WINDOW_MS;

export type LinkStateView = { link_id: string; name: string; runner: Runner; pool: boolean; pool_approved: boolean };

/** A report that changes nothing rewrites `lastSeenAt` only when it is older than this. */
export const SEEN_REFRESH_MS = 2_000;

const NEXT_RUNNER = `CASE
      WHEN $3::int < "runnerEpoch" THEN "runnerEnabled"
      WHEN "remoteOffEpoch" IS NOT NULL AND $3::int <= "remoteOffEpoch" THEN false
      ELSE $4 END`;
const NEXT_REMOTE_OFF = `CASE
      WHEN $3::int >= "runnerEpoch" AND ("remoteOffEpoch" IS NULL OR $3::int > "remoteOffEpoch") THEN NULL
      ELSE "remoteOffEpoch" END`;

// $1 now, $2 the pool offer, $3 the report's runner epoch, $4 the runner on, $5 the Link, $6 the
// oldest `lastSeenAt` a report that changes nothing leaves as it is. Such a report (a busy Link
// polls many times a second) writes nothing: the row is only read.
const REPORT_SQL = `
  WITH moved AS (
    UPDATE "Link" SET
      "lastSeenAt" = $1::timestamp,
      "poolOffer" = $2,
      "runnerEnabled" = ${NEXT_RUNNER},
      "remoteOffEpoch" = ${NEXT_REMOTE_OFF},
      "runnerEpoch" = GREATEST("runnerEpoch", $3::int)
    WHERE id = $5 AND (
      "lastSeenAt" IS NULL OR "lastSeenAt" < $6::timestamp
      OR "poolOffer" IS DISTINCT FROM $2 OR $3::int > "runnerEpoch"
      OR "runnerEnabled" IS DISTINCT FROM ${NEXT_RUNNER}
      OR "remoteOffEpoch" IS DISTINCT FROM ${NEXT_REMOTE_OFF})
    RETURNING id, name, "runnerEnabled", "poolOffer", "poolApprovedAt"
  )
  SELECT * FROM moved
  UNION ALL
  SELECT id, name, "runnerEnabled", "poolOffer", "poolApprovedAt" FROM "Link"
  WHERE id = $5 AND NOT EXISTS (SELECT 1 FROM moved)`;

/**
 * What a Link reports on every poll and heartbeat; answers the runner as the server now treats it.
 * One statement (the row's own lock): a report older than the newest switch changes nothing, and
 * the dashboard's "off" holds until a switch newer than the one it saw.
 */
export async function reportLinkState(linkId: string, report: LinkReport): Promise<LinkStateView> {
  const now = new Date();
  const { rows } = await sqlPool().query<{
    id: string;
    name: string;
    runnerEnabled: boolean;
    poolOffer: boolean;
    poolApprovedAt: Date | null;
  }>({
    name: "link-report-state",
    text: REPORT_SQL,
    values: [utcText(now), report.pool, report.runner_epoch, report.runner === "on", linkId, utcText(new Date(now.getTime() - SEEN_REFRESH_MS))],
  });
  const link = rows[0];
  if (!link) throw new AppError("link.not_found", "That Link was not found.");
  return {
    link_id: link.id,
    name: link.name,
    runner: link.runnerEnabled ? "on" : "off",
    pool: link.poolOffer,
    pool_approved: link.poolApprovedAt !== null,
  };
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
    /** The dashboard turned it off; the machine's owner turns it on again there. */
    runnerOffRemotely: l.remoteOffEpoch !== null,
    pool: l.poolOffer,
    poolApproved: l.poolApprovedAt !== null,
    jobsRun: l.jobsRun,
    revokedAt: l.revokedAt,
    createdAt: l.createdAt,
  }));
}

async function ownLink(userId: string, linkId: string) {
  const link = await db.link.findFirst({ where: { id: linkId, userId } });
  if (!link) throw new AppError("link.not_found", "That Link was not found.");
  return link;
}

/**
 * The dashboard's "turn the skill runner off". Only off: turning it on is the machine owner's
 * `openvibe-link skills on`. The server stops dispatching to it now; the Link hears it at its next
 * poll or heartbeat and turns its own switch off.
 */
export async function turnRunnerOff(userId: string, linkId: string) {
  const link = await ownLink(userId, linkId);
  if (link.revokedAt) throw new AppError("link.not_found", "That Link was not found.");
  await db.$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM "Link" WHERE id = ${linkId} FOR UPDATE`;
    const current = await tx.link.findUniqueOrThrow({ where: { id: linkId } });
    await tx.link.update({
      where: { id: linkId },
      data: { runnerEnabled: false, remoteOffEpoch: current.runnerEpoch },
    });
    await recordAudit(tx, {
      userId,
      actor: `user:${userId}`,
      action: "link.runner_off",
      subjectType: "link",
      subjectId: linkId,
    });
  });
  await new Effects().linkChanged(linkId).run();
  return { id: linkId, runner: "off" as const };
}

/**
 * Revoking is immediate: the Link's next signed request is refused with `link.revoked`, and every
 * job it holds is cancelled (hold returned).
 */
export async function revokeLink(userId: string, linkId: string) {
  const link = await ownLink(userId, linkId);
  if (link.revokedAt) return { id: link.id, revokedAt: link.revokedAt };
  const revokedAt = new Date();
  await db.$transaction([
    db.link.update({ where: { id: link.id }, data: { revokedAt, runnerEnabled: false, poolOffer: false } }),
    recordAudit(db, {
      userId,
      actor: `user:${userId}`,
      action: "link.revoked",
      subjectType: "link",
      subjectId: link.id,
    }),
  ]);
  await withdraw({ linkId: link.id }, "linkRevoked");
  return { id: link.id, revokedAt };
}
