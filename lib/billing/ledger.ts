// A person's Balance: the sum of an append-only ledger in micro-units. Every entry has a unique
// idempotency key, so a retried top-up or charge can never be recorded twice. A run holds its worst
// case when it is submitted (so the balance never goes negative) and gives back what it did not use.
// The sum and the held amount are kept on the person's row by a trigger on every entry (migration
// 20261202153117_ledger_balance), so reading or checking a balance is one row, however long the ledger.
import "server-only";
import { db, type DbTx, type LedgerKind } from "../db";
import { AppError } from "../errors";
import { releaseAllowance } from "./allowance";
import { chargeFor, formatMicros, type Placement } from "./rates";

type Tx = DbTx;

export async function balanceOf(userId: string, tx: Tx = db): Promise<bigint> {
  return (await accountOf(userId, tx)).balanceMicros;
}

/** The person's balance and what their unsettled runs hold now (0 for nobody). */
export async function accountOf(userId: string, tx: Tx = db): Promise<{ balanceMicros: bigint; heldMicros: bigint }> {
  const row = await tx.user.findUnique({ where: { id: userId }, select: { balanceMicros: true, heldMicros: true } });
  return row ?? { balanceMicros: 0n, heldMicros: 0n };
}

/**
 * Serialises balance changes of one person inside a transaction: the person's row lock, in the
 * mode the trigger's UPDATE takes anyway (so foreign keys to the person are not blocked).
 */
async function lockPerson(tx: Tx, userId: string): Promise<bigint> {
  const rows = await tx.$queryRaw<{ balanceMicros: bigint }[]>`
    SELECT "balanceMicros" FROM "User" WHERE id = ${userId} FOR NO KEY UPDATE`;
  return rows[0]?.balanceMicros ?? 0n;
}

async function append(
  tx: Tx,
  entry: {
    userId: string;
    kind: LedgerKind;
    amountMicros: bigint;
    idempotencyKey: string;
    memo: string;
    jobId?: string;
    agentId?: string | null;
    skillSlug?: string;
  },
): Promise<boolean> {
  const { count } = await tx.ledgerEntry.createMany({ data: [entry], skipDuplicates: true });
  return count === 1;
}

export const holdKey = (jobId: string) => `run:${jobId}:1`;
export const settleKey = (jobId: string) => `run:${jobId}:2`;

/**
 * Checks the person's balance covers a run's worst case; refused with `billing.insufficient_balance`
 * (and a top-up hint) when it does not. With `lock` the person's row stays locked until the
 * transaction ends: call it last, just before the hold, so the lock covers a constant amount of work.
 */
export async function ensureCovered(tx: Tx, userId: string, worstCaseMicros: bigint, lock = true): Promise<void> {
  const balance = lock ? await lockPerson(tx, userId) : await balanceOf(userId, tx);
  if (balance < worstCaseMicros) {
    throw new AppError(
      "billing.insufficient_balance",
      `This run can cost up to ${formatMicros(worstCaseMicros)} and your balance is ${formatMicros(balance)}. Top up your balance to run it.`,
      {
        details: {
          balance_micros: balance.toString(),
          needed_micros: worstCaseMicros.toString(),
          top_up: "/dashboard/balance",
        },
      },
    );
  }
}

/** Charges a run's worst case as it is submitted (after ensureCovered in the same transaction). */
export async function holdForRun(
  tx: Tx,
  p: { userId: string; jobId: string; worstCaseMicros: bigint; agentId: string | null; skillSlug: string },
): Promise<void> {
  await append(tx, {
    userId: p.userId,
    kind: "charge",
    amountMicros: -p.worstCaseMicros,
    idempotencyKey: holdKey(p.jobId),
    memo: `Run of ${p.skillSlug}: held at its limits`,
    jobId: p.jobId,
    agentId: p.agentId,
    skillSlug: p.skillSlug,
  });
}

/** Why a run ends, for the settlement's memo: only `ran` uses any of its hold. */
export type RunEnding = "ran" | "never_ran" | "cancelled" | "expired_unreported";

const ENDING_MEMO: Record<Exclude<RunEnding, "ran">, string> = {
  never_ran: "Run did not run: hold returned",
  cancelled: "Run cancelled: hold returned",
  // Its Link reported that it started, and its result never arrived in time: it may have run.
  expired_unreported: "Run expired before its result arrived: hold returned",
};

/**
 * What settling a run's hold comes to: the charge (per started second at its placement's rate,
 * never more than was held; nothing unless it ran), the refund of the rest, and the entry's memo.
 */
export function settlementOf(p: {
  heldMicros: bigint;
  ending: RunEnding;
  wallMs: number | null;
  placement: Placement | null;
}): { charged: bigint; refund: bigint; memo: string } {
  const used = p.ending === "ran" && p.wallMs !== null && p.placement !== null ? chargeFor(p.wallMs, p.placement) : 0n;
  const charged = used < p.heldMicros ? used : p.heldMicros;
  const memo =
    p.ending === "ran"
      ? `Run settled: ${formatMicros(charged)} for ${Math.ceil((p.wallMs ?? 0) / 1000) || 1} s`
      : ENDING_MEMO[p.ending];
  return { charged, refund: p.heldMicros - charged, memo };
}

/**
 * Settles a finished run: gives back the part of the hold it did not use (per started second at
 * its placement's rate; nothing used unless it ran). Recorded once, whatever is retried. The
 * refund of a solo run goes back to the agent's allowance too.
 */
export async function settleRun(
  tx: Tx,
  p: {
    userId: string;
    jobId: string;
    ending: RunEnding;
    wallMs: number | null;
    placement: Placement | null;
    /** Set when the hold's agent ran it alone: when its allowance was reserved. */
    solo?: { reservedAt: Date } | null;
  },
): Promise<{ chargedMicros: bigint; settled: boolean }> {
  const hold = await tx.ledgerEntry.findUnique({ where: { idempotencyKey: holdKey(p.jobId) } });
  if (!hold) return { chargedMicros: 0n, settled: false };
  const { charged, refund, memo } = settlementOf({ heldMicros: -hold.amountMicros, ...p });
  const settled = await append(tx, {
    userId: p.userId,
    kind: "refund",
    amountMicros: refund,
    idempotencyKey: settleKey(p.jobId),
    memo,
    jobId: p.jobId,
    agentId: hold.agentId,
    skillSlug: hold.skillSlug ?? undefined,
  });
  if (settled && p.solo && hold.agentId) await releaseAllowance(tx, hold.agentId, refund, p.solo.reservedAt);
  return { chargedMicros: charged, settled };
}

/** Adds money through the payment provider's confirmed payment (idempotent per payment id). */
export async function recordTopUp(p: { userId: string; amountMicros: bigint; paymentId: string; memo: string }) {
  if (p.amountMicros <= 0n) throw new AppError("request.invalid", "A top-up is a positive amount.");
  return db.$transaction(async (tx) => {
    await lockPerson(tx, p.userId);
    const created = await append(tx, {
      userId: p.userId,
      kind: "topup",
      amountMicros: p.amountMicros,
      idempotencyKey: `topup:${p.paymentId}`,
      memo: p.memo,
    });
    return { created, balanceMicros: await balanceOf(p.userId, tx) };
  });
}
