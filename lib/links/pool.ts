// OpenVibe's pool: machines an operator approved to run anyone's jobs (of projects that allow the
// pool). A Link that offers itself with `openvibe-link run --pool` serves only its own person until
// it is approved; a person's own Link never serves anyone else.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";
import { withdraw } from "../runs/lifecycle";
import { isOnline } from "./service";
import { recordAudit } from "../audit";

const notFound = () => new AppError("link.not_found", "That Link was not found.");

/** Who acted: an operator signed in on /admin, or the admin command line on the server itself. */
export type PoolActor = { operatorId: string } | { cli: true };
const actorOf = (by: PoolActor) =>
  "operatorId" in by ? { userId: by.operatorId, actor: `user:${by.operatorId}` } : { userId: null, actor: "admin-cli" };

export async function approvePoolLink(by: PoolActor, linkId: string) {
  const link = await db.link.findUnique({ where: { id: linkId } });
  if (!link || link.revokedAt) throw notFound();
  if (link.poolApprovedAt) return { id: link.id, poolApprovedAt: link.poolApprovedAt };
  const poolApprovedAt = new Date();
  await db.$transaction([
    db.link.update({ where: { id: linkId }, data: { poolApprovedAt, poolApprovedBy: actorOf(by).actor } }),
    recordAudit(db, {
        ...actorOf(by),
        action: "link.pool_approved",
        subjectType: "link",
        subjectId: linkId,
        data: { owner: link.userId, name: link.name },
      }),
  ]);
  return { id: link.id, poolApprovedAt };
}

/** Takes a machine out of the pool; other people's jobs it holds are cancelled (holds returned). */
export async function revokePoolLink(by: PoolActor, linkId: string) {
  const link = await db.link.findUnique({ where: { id: linkId } });
  if (!link) throw notFound();
  if (!link.poolApprovedAt) return { id: link.id, poolApprovedAt: null };
  await db.$transaction([
    db.link.update({ where: { id: linkId }, data: { poolApprovedAt: null, poolApprovedBy: null } }),
    recordAudit(db, {
        ...actorOf(by),
        action: "link.pool_revoked",
        subjectType: "link",
        subjectId: linkId,
        data: { owner: link.userId, name: link.name },
      }),
  ]);
  await withdraw({ linkId, placement: "pool" }, "poolRevoked");
  return { id: link.id, poolApprovedAt: null };
}

export type PoolLinkView = {
  id: string;
  name: string;
  owner: string;
  online: boolean;
  runner: "on" | "off";
  offered: boolean;
  approved_at: Date | null;
  jobs_run: number;
};

/** Every machine that offers itself to the pool or is approved for it (operators only). */
export async function listPoolLinks(): Promise<PoolLinkView[]> {
  const links = await db.link.findMany({
    where: { revokedAt: null, OR: [{ poolOffer: true }, { poolApprovedAt: { not: null } }] },
    include: { user: { select: { handle: true } } },
    orderBy: [{ poolApprovedAt: { sort: "desc", nulls: "first" } }, { createdAt: "desc" }],
    take: 500,
  });
  const now = Date.now();
  return links.map((l) => ({
    id: l.id,
    name: l.name,
    owner: l.user.handle,
    online: isOnline(l.lastSeenAt, now),
    runner: l.runnerEnabled ? "on" : "off",
    offered: l.poolOffer,
    approved_at: l.poolApprovedAt,
    jobs_run: l.jobsRun,
  }));
}
