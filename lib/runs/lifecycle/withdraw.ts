// Instant disable: when a person disables or uninstalls a skill, revokes a grant, when an author
// retires a version (or its scan fails), or when a Link is revoked, every job that can no longer
// run is cancelled at once (hold returned) and every step still waiting for approval is ended. A
// Link holding one of the jobs hears it at its next heartbeat (every second while it runs a job)
// and kills the run; a result it sends afterwards is refused.
import "server-only";
import { db, type Prisma } from "../../db";
import type { CancelCode } from "../../protocol";
import { cancelJob } from "./jobs";
import { endPendingStep } from "./steps";
import { JOB_ACTIVE } from "./table";
import { CANCEL_WORDS, type CancelReason } from "./words";

export type WithdrawScope = {
  /** Whose jobs; omitted for everyone's (a retired version). */
  userId?: string;
  versionIds?: string[];
  tool?: string;
  linkId?: string;
  /** Only jobs placed on the pool (a machine whose pool approval was withdrawn). */
  placement?: "pool";
};

export type Withdrawn = { jobs: number; steps: number };

const CODE_OF: Record<CancelReason, CancelCode> = {
  disabled: "run.job.cancelled",
  uninstalled: "run.job.cancelled",
  moved: "run.job.cancelled",
  grantRevoked: "run.job.cancelled",
  linkRevoked: "run.job.cancelled",
  poolRevoked: "run.job.cancelled",
  retired: "run.job.revoked",
  scanFailed: "run.job.revoked",
};

export async function withdraw(scope: WithdrawScope, reason: CancelReason): Promise<Withdrawn> {
  if (!scope.userId && !scope.versionIds && !scope.linkId) throw new Error("withdraw needs a scope");
  const where: Prisma.RunJobWhereInput = {
    state: { in: [...JOB_ACTIVE] },
    ...(scope.userId ? { userId: scope.userId } : {}),
    ...(scope.versionIds ? { versionId: { in: scope.versionIds } } : {}),
    ...(scope.tool ? { tool: scope.tool } : {}),
    ...(scope.linkId ? { linkId: scope.linkId } : {}),
    ...(scope.placement ? { placement: scope.placement } : {}),
  };
  const jobs = await db.runJob.findMany({ where, select: { id: true }, take: 10_000 });
  let cancelled = 0;
  for (const { id } of jobs) if ((await cancelJob(id, CODE_OF[reason], CANCEL_WORDS[reason])).applied) cancelled++;

  let ended = 0;
  // A step still waiting for the person is theirs to decide, grant or not; only a skill or version
  // that can no longer run ends it.
  if (!scope.linkId && reason !== "grantRevoked") {
    const pending = await db.step.findMany({
      where: {
        status: "pending_approval",
        ...(scope.userId ? { userId: scope.userId } : {}),
        ...(scope.versionIds ? { versionId: { in: scope.versionIds } } : {}),
        ...(scope.tool ? { tool: scope.tool } : {}),
      },
      select: { id: true },
      take: 10_000,
    });
    for (const { id } of pending) if (await endPendingStep(id, "cancel", CANCEL_WORDS[reason])) ended++;
  }
  return { jobs: cancelled, steps: ended };
}
