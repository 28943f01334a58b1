// "A second call with the same arguments attaches to the same step": the live step of this agent
// for exactly this version's tool and input (waiting, queued or running), or one that ended since
// without its outcome reaching the MCP client (it got the "approve at this URL" answer instead).
import "server-only";
import type { AgentPrincipal } from "../agents";
import { db, Prisma } from "../db";

/** How long an ended step whose outcome the client has not seen can still be picked up. */
export const UNDELIVERED_WINDOW_MS = 15 * 60_000;
const ENDED = ["succeeded", "failed", "denied", "expired", "no_node", "insufficient_balance"] as const;

export async function findLiveStep(
  agent: AgentPrincipal,
  call: { versionId: string; tool: string; input: Record<string, unknown> },
): Promise<string | null> {
  const now = new Date();
  const since = new Date(now.getTime() - UNDELIVERED_WINDOW_MS);
  const undelivered = await db.mcpStepCall.findMany({
    where: { agentId: agent.agentId, deliveredAt: null, createdAt: { gt: since } },
    select: { stepId: true },
    orderBy: { createdAt: "desc" },
    take: 100,
  });
  const step = await db.step.findFirst({
    where: {
      userId: agent.userId,
      agentId: agent.agentId,
      versionId: call.versionId,
      tool: call.tool,
      // jsonb equality: the same arguments whatever their key order.
      input: { equals: call.input as Prisma.InputJsonValue },
      OR: [
        { status: "pending_approval", expiresAt: { gt: now } },
        { status: { in: ["queued", "running"] } },
        ...(undelivered.length
          ? [{ id: { in: undelivered.map((u) => u.stepId) }, status: { in: [...ENDED] }, updatedAt: { gt: since } }]
          : []),
      ],
    },
    orderBy: { createdAt: "desc" },
    select: { id: true },
  });
  return step?.id ?? null;
}

/** Remembers that an MCP client is waiting on this step's outcome. */
export async function recordMcpCall(agent: AgentPrincipal, stepId: string): Promise<void> {
  await db.mcpStepCall.upsert({
    where: { stepId },
    create: { stepId, agentId: agent.agentId },
    update: { deliveredAt: null },
  });
  await db.mcpStepCall.deleteMany({
    where: { agentId: agent.agentId, createdAt: { lt: new Date(Date.now() - 24 * 3_600_000) } },
  });
}

/** The client got the outcome: a later identical call is a new run. */
export async function markDelivered(stepId: string): Promise<void> {
  await db.mcpStepCall.updateMany({ where: { stepId, deliveredAt: null }, data: { deliveredAt: new Date() } });
}
