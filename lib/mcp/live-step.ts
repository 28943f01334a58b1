// "A second call with the same arguments attaches to the same step": the live step of this agent
// for exactly this version's tool and input (waiting, queued or running), or one that ended since
// without its outcome reaching the MCP client (it got the "approve at this URL" answer instead).
// Each is one prepared statement: an MCP call makes all three.
import "server-only";
import type { AgentPrincipal } from "../agents";
import { sqlPool, utcText } from "../db";

/** How long an ended step whose outcome the client has not seen can still be picked up. */
export const UNDELIVERED_WINDOW_MS = 15 * 60_000;
/** How long a delivered call is remembered (older ones are removed as the agent calls again). */
const KEPT_MS = 24 * 3_600_000;

// $1 the agent, $2 the person, $3 the version, $4 the tool, $5 the input (jsonb equality: the same
// arguments whatever their key order), $6 now, $7 the start of the undelivered window.
const LIVE_STEP_SQL = `
  SELECT s.id FROM "Step" AS s
  WHERE s."agentId" = $1 AND s."userId" = $2 AND s."versionId" = $3 AND s.tool = $4 AND s.input = $5::jsonb
    AND ((s.status = 'pending_approval' AND s."expiresAt" > $6::timestamp)
      OR s.status IN ('queued', 'running')
      OR (s.status IN ('succeeded', 'failed', 'denied', 'expired', 'no_node', 'insufficient_balance')
          AND s."updatedAt" > $7::timestamp
          AND s.id IN (SELECT c."stepId" FROM "McpStepCall" AS c
                        WHERE c."agentId" = $1 AND c."deliveredAt" IS NULL AND c."createdAt" > $7::timestamp
                        ORDER BY c."createdAt" DESC LIMIT 100)))
  ORDER BY s."createdAt" DESC
  LIMIT 1`;

export async function findLiveStep(
  agent: AgentPrincipal,
  call: { versionId: string; tool: string; input: Record<string, unknown> },
): Promise<string | null> {
  const now = Date.now();
  const { rows } = await sqlPool().query<{ id: string }>({
    name: "mcp-live-step",
    text: LIVE_STEP_SQL,
    values: [
      agent.agentId,
      agent.userId,
      call.versionId,
      call.tool,
      JSON.stringify(call.input),
      utcText(new Date(now)),
      utcText(new Date(now - UNDELIVERED_WINDOW_MS)),
    ],
  });
  return rows[0]?.id ?? null;
}

// $1 the step, $2 the agent, $3 now, $4 the oldest delivered call kept.
const RECORD_CALL_SQL = `
  WITH recorded AS (
    INSERT INTO "McpStepCall" ("stepId", "agentId", "createdAt") VALUES ($1, $2, $3::timestamp)
    ON CONFLICT ("stepId") DO UPDATE SET "deliveredAt" = NULL
    RETURNING "stepId"
  )
  DELETE FROM "McpStepCall" WHERE "agentId" = $2 AND "createdAt" < $4::timestamp AND "stepId" NOT IN (SELECT "stepId" FROM recorded)`;

/** Remembers that an MCP client is waiting on this step's outcome (and forgets the agent's old calls). */
export async function recordMcpCall(agent: AgentPrincipal, stepId: string): Promise<void> {
  const now = Date.now();
  await sqlPool().query({
    name: "mcp-record-call",
    text: RECORD_CALL_SQL,
    values: [stepId, agent.agentId, utcText(new Date(now)), utcText(new Date(now - KEPT_MS))],
  });
}

/** The client got the outcome: a later identical call is a new run. */
export async function markDelivered(stepId: string): Promise<void> {
  await sqlPool().query({
    name: "mcp-delivered",
    text: `UPDATE "McpStepCall" SET "deliveredAt" = $2::timestamp WHERE "stepId" = $1 AND "deliveredAt" IS NULL`,
    values: [stepId, utcText(new Date())],
  });
}
