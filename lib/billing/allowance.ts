// HO7: what an agent may spend per day (UTC) on runs it makes alone, under an "always allow" grant
// with nobody clicking. A running total on the allowance row, changed under that row's lock in the
// same transaction as the hold it reserves and the settlement that gives part of it back, so
// parallel solo calls cannot all pass the same check. Runs a person approved never count.
import "server-only";
import { db, type DbTx } from "../db";
import { formatMicros } from "./rates";

const utcDay = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
const dayText = (d: Date | string) => (d instanceof Date ? d.toISOString() : d).slice(0, 10);
const sameDay = (a: Date | string | null, b: Date) => a !== null && dayText(a) === dayText(b);

export type AllowanceCheck = { ok: true } | { ok: false; reason: string };

/**
 * Reserves a solo run's worst case against the agent's allowance for today, or says why the person
 * must decide. Call inside the submission transaction: the allowance row stays locked until it ends.
 */
export async function reserveAllowance(
  tx: DbTx,
  agentId: string,
  worstCaseMicros: bigint,
  now = new Date(),
): Promise<AllowanceCheck> {
  const rows = await tx.$queryRaw<{ dailyLimitMicros: bigint; spentDay: Date | string | null; spentMicros: bigint }[]>`
    SELECT "dailyLimitMicros", "spentDay", "spentMicros" FROM "AgentAllowance" WHERE "agentId" = ${agentId} FOR UPDATE`;
  const row = rows[0];
  const limit = row?.dailyLimitMicros ?? 0n;
  const today = utcDay(now);
  const spent = row && sameDay(row.spentDay, today) ? row.spentMicros : 0n;
  if (!row || spent + worstCaseMicros > limit) {
    const left = limit - spent > 0n ? limit - spent : 0n;
    return {
      ok: false,
      reason: `This run can cost up to ${formatMicros(worstCaseMicros)} and the agent has ${formatMicros(left)} of its daily allowance left, so it needs your approval.`,
    };
  }
  await tx.agentAllowance.update({
    where: { agentId },
    data: { spentDay: today, spentMicros: spent + worstCaseMicros },
  });
  return { ok: true };
}

/** Gives back the unused part of a solo run's reservation, if it was made today (UTC). */
export async function releaseAllowance(tx: DbTx, agentId: string, micros: bigint, reservedAt: Date): Promise<void> {
  if (micros <= 0n) return;
  await tx.$executeRaw`
    UPDATE "AgentAllowance" SET "spentMicros" = GREATEST(0, "spentMicros" - ${micros})
    WHERE "agentId" = ${agentId} AND "spentDay" = ${utcDay(reservedAt)}::date`;
}

/** What an agent's solo runs hold or used today (UTC). */
export async function agentSpentToday(agentId: string, now = new Date()): Promise<bigint> {
  const row = await db.agentAllowance.findUnique({
    where: { agentId },
    select: { spentDay: true, spentMicros: true },
  });
  return row && sameDay(row.spentDay, utcDay(now)) ? row.spentMicros : 0n;
}
