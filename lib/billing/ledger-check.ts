// The proof that the balance columns are what the ledger says: for every person, the ledger's sum
// against User.balanceMicros, and the run holds without a settlement against User.heldMicros.
// One statement, so one snapshot: entries and columns change together in every transaction.
import "server-only";
import { db, type DbTx } from "../db";

export type LedgerDifference = {
  userId: string;
  email: string;
  balanceMicros: bigint;
  ledgerBalanceMicros: bigint;
  heldMicros: bigint;
  ledgerHeldMicros: bigint;
};

/** Every person whose columns differ from their ledger's sums (none when all is well). */
export async function ledgerDifferences(tx: DbTx = db): Promise<LedgerDifference[]> {
  return tx.$queryRaw<LedgerDifference[]>`
    WITH sums AS (
      SELECT "userId", SUM("amountMicros")::bigint AS total FROM "LedgerEntry" GROUP BY 1
    ), holds AS (
      SELECT h."userId", SUM(-h."amountMicros")::bigint AS held FROM "LedgerEntry" h
       WHERE h.kind = 'charge' AND h."idempotencyKey" LIKE 'run:%:1'
         AND NOT EXISTS (SELECT 1 FROM "LedgerEntry" r WHERE r."idempotencyKey" = left(h."idempotencyKey", -1) || '2')
       GROUP BY 1
    )
    SELECT u.id AS "userId", u.email, u."balanceMicros", coalesce(s.total, 0)::bigint AS "ledgerBalanceMicros",
           u."heldMicros", coalesce(h.held, 0)::bigint AS "ledgerHeldMicros"
      FROM "User" u
      LEFT JOIN sums s ON s."userId" = u.id
      LEFT JOIN holds h ON h."userId" = u.id
     WHERE u."balanceMicros" <> coalesce(s.total, 0) OR u."heldMicros" <> coalesce(h.held, 0)
     ORDER BY u.email`;
}
