// The one place MCP reaches the steps layer: a tool call creates the same `skill.run` step as the
// REST API (lib/steps decides grants, allowances, balance and placement), and its state is read
// back through lib/steps' agent view. Run id and placement come from the view when it carries them,
// else from the step's job row, so MCP keeps working whichever shape the steps layer grows into.
import "server-only";
import type { AgentPrincipal } from "../agents";
import { db } from "../db";
import { AppError } from "../errors";
import { agentStepWithRun, createSkillRunStep, getStepForAgent, personStepInclude, stepForPerson } from "../steps";

export type RunPlacement = "own" | "pool";

/** A step as MCP needs it: plain fields, the result's data unwrapped, the run's id and placement. */
export type McpStep = {
  id: string;
  status: string;
  target: string;
  label: string;
  expiresAt: Date;
  message: string | null;
  /** The tool's output (untrusted data), only when the step succeeded. */
  data?: unknown;
  runId: string | null;
  jobState: string | null;
  placement: RunPlacement | null;
  wallMs: number | null;
  exitStatus: string | null;
  attestation?: unknown;
};

export const TERMINAL_STATUSES = new Set(["succeeded", "failed", "denied", "expired", "no_node", "insufficient_balance"]);

type AgentView = Awaited<ReturnType<typeof getStepForAgent>> & {
  run_id?: string;
  placement?: string | null;
  attestation?: unknown;
  job?: { id?: string; state?: string; placement?: string | null; attestation?: unknown } | null;
};

type KnownRun = { id: string; state: string | null; placement: RunPlacement | null } | null;

async function withJob(view: AgentView, known?: KnownRun): Promise<McpStep> {
  let runId = known?.id ?? view.run_id ?? view.job?.id ?? null;
  let jobState = known?.state ?? view.job?.state ?? null;
  let placement = (known?.placement ?? view.placement ?? view.job?.placement ?? null) as RunPlacement | null;
  if (known === undefined && (!runId || !jobState)) {
    const job = await db.runJob.findUnique({ where: { stepId: view.id }, select: { id: true, state: true, placement: true } });
    runId ??= job?.id ?? null;
    jobState ??= job?.state ?? null;
    placement ??= job?.placement ?? null;
  }
  const result = view.result as { data?: unknown } | undefined;
  const attestation = view.attestation ?? view.job?.attestation;
  return {
    id: view.id,
    status: view.status,
    target: view.target,
    label: view.label,
    expiresAt: new Date(view.expires_at),
    message: view.message ?? null,
    ...(view.status === "succeeded" && result ? { data: result.data } : {}),
    runId,
    jobState,
    placement,
    wallMs: view.wall_ms ?? null,
    exitStatus: view.exit_status ?? null,
    ...(attestation !== undefined && attestation !== null ? { attestation } : {}),
  };
}

/** tools/call: the same step POST /api/v1/steps makes, with the same rules. */
export async function startSkillRun(agent: AgentPrincipal, call: { skill: string; tool: string; input: unknown }) {
  const view = (await createSkillRunStep(agent, call)) as AgentView;
  // Just made: its run, if it has one, is as far as its id says (the run's next look reads the rest).
  return withJob(view, view.run_id ? { id: view.run_id, state: null, placement: null } : undefined);
}

/** The step now (its agent only; anyone else's answers step.not_found). */
export async function readSkillRun(agent: AgentPrincipal, stepId: string) {
  const { view, run } = await agentStepWithRun(agent, stepId);
  return withJob(view as AgentView, run);
}

/** One step of the signed-in person, as the dashboard shows it (the approval page of an elicitation). */
export async function personStep(userId: string, stepId: string) {
  const row = await db.step.findFirst({
    where: { id: stepId, userId },
    include: personStepInclude,
  });
  if (!row) throw new AppError("step.not_found", "That step was not found.");
  return stepForPerson(row);
}
