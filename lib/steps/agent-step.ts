// A step as its agent reads it, with its run's id, placement, cost, Link name and signed statement:
// one prepared statement (the agent's long-poll reads it on every change of its step), and the
// step's status alone for the wake-ups in between. Someone else's step is not found.
import "server-only";
import { sqlPool, type Step } from "../db";

export type AgentJob = {
  id: string;
  /** The run's state (queued, placed, running, succeeded…), for MCP's progress; read by readAgentStep. */
  state?: string;
  placement: "own" | "pool" | null;
  costMicros: bigint | null;
  attestation?: unknown;
  link: { name: string } | null;
};

/** What the agent's answer is made of (lib/steps `stepForAgent`). */
export type AgentStep = Pick<
  Step,
  | "id"
  | "kind"
  | "label"
  | "target"
  | "status"
  | "createdAt"
  | "expiresAt"
  | "message"
  | "wallMs"
  | "exitStatus"
  | "result"
> & { job: AgentJob | null };

const ms = (column: string) => `round(extract(epoch FROM ${column}) * 1000)::float8`;

const AGENT_STEP_SQL = `
  SELECT s.id, s.kind, s.label, s.target, s.status::text AS status, ${ms('s."createdAt"')} AS "createdAtMs",
         ${ms('s."expiresAt"')} AS "expiresAtMs", s.message, s."wallMs", s."exitStatus", s.result,
         j.id AS "jobId", j.state::text AS "jobState", j.placement::text AS placement, j."costMicros"::text AS "costMicros", j.attestation,
         l.name AS "linkName"
  FROM "Step" AS s
  LEFT JOIN "RunJob" AS j ON j."stepId" = s.id
  LEFT JOIN "Link" AS l ON l.id = j."linkId"
  WHERE s.id = $1 AND s."userId" = $2 AND s."agentId" = $3`;

type Row = Omit<AgentStep, "createdAt" | "expiresAt" | "job"> & {
  createdAtMs: number;
  expiresAtMs: number;
  jobId: string | null;
  jobState: string | null;
  placement: AgentJob["placement"];
  costMicros: string | null;
  attestation: unknown;
  linkName: string | null;
};

/** The agent's own step, or null. */
export async function readAgentStep(
  stepId: string,
  agent: { userId: string; agentId: string },
): Promise<AgentStep | null> {
  const { rows } = await sqlPool().query<Row>({
    name: "step-for-agent",
    text: AGENT_STEP_SQL,
    values: [stepId, agent.userId, agent.agentId],
  });
  const row = rows[0];
  if (!row) return null;
  const { createdAtMs, expiresAtMs, jobId, jobState, placement, costMicros, attestation, linkName, ...step } = row;
  return {
    ...step,
    createdAt: new Date(createdAtMs),
    expiresAt: new Date(expiresAtMs),
    job: jobId
      ? {
          id: jobId,
          state: jobState ?? "queued",
          placement,
          costMicros: costMicros === null ? null : BigInt(costMicros),
          attestation,
          link: linkName === null ? null : { name: linkName },
        }
      : null,
  };
}

/** A step's status and deadline alone, for a long-poll's wake-ups. */
export async function readStepStatus(stepId: string): Promise<{ status: Step["status"]; expiresAt: Date } | null> {
  const { rows } = await sqlPool().query<{ status: Step["status"]; expiresAtMs: number }>({
    name: "step-status",
    text: `SELECT status::text AS status, ${ms('"expiresAt"')} AS "expiresAtMs" FROM "Step" WHERE id = $1`,
    values: [stepId],
  });
  const row = rows[0];
  return row ? { status: row.status, expiresAt: new Date(row.expiresAtMs) } : null;
}
