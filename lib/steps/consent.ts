// Cost before consent: what a waiting step's call can cost at most, on the person's own Link and on
// the pool, against their balance now. When the balance cannot cover what the run would hold, the
// approval card says so and offers "Top up and approve" instead of a click that would fail.
import "server-only";
import { z } from "zod";
import { callCost } from "../billing/call-cost";
import { balanceOf } from "../billing/ledger";
import { WALL_MS_DEFAULT } from "../contracts/limits";
import { db, Prisma } from "../db";

export type StepCost = {
  own_micros: string;
  pool_micros: string;
  /** What approving holds from the balance while it runs (its worst case). */
  hold_micros: string;
  /** The balance covers the hold now. */
  covered: boolean;
};

export type ConsentFacts = { balance_micros: string; costs: Record<string, StepCost> };

const toolsSchema = z
  .array(
    z.object({ name: z.string(), limits: z.object({ wall_ms: z.number().int().positive() }).partial().optional() }),
  )
  .catch([]);

/** The person's balance and the cost of each of their steps named in `stepIds` (others' are left out). */
export async function consentFacts(userId: string, stepIds: string[]): Promise<ConsentFacts> {
  const ids = [...new Set(stepIds)].slice(0, 200);
  const [balance, steps] = await Promise.all([
    balanceOf(userId),
    ids.length
      ? db.step.findMany({ where: { id: { in: ids }, userId }, select: { id: true, tool: true, versionId: true } })
      : Promise.resolve([]),
  ]);
  const versionIds = [...new Set(steps.map((s) => s.versionId))];
  // Only the tools of each document, not its resources.
  const versions = versionIds.length
    ? await db.$queryRaw<{ id: string; tools: unknown }[]>(
        Prisma.sql`SELECT id, document->'tools' AS tools FROM "SkillVersion" WHERE id IN (${Prisma.join(versionIds)})`,
      )
    : [];
  const toolsOf = new Map(versions.map((v) => [v.id, toolsSchema.parse(v.tools ?? [])]));
  const costs: Record<string, StepCost> = {};
  for (const s of steps) {
    const tool = toolsOf.get(s.versionId)?.find((t) => t.name === s.tool);
    const c = callCost(tool?.limits?.wall_ms ?? WALL_MS_DEFAULT);
    costs[s.id] = {
      own_micros: c.own_micros.toString(),
      pool_micros: c.pool_micros.toString(),
      hold_micros: c.hold_micros.toString(),
      covered: balance >= c.hold_micros,
    };
  }
  return { balance_micros: balance.toString(), costs };
}
