// The `skill.run` step (HO1 kind, ADR-060): an agent asks to run one tool of an installed skill
// version; the person approves it (once, always for exactly that version's tool, or denies) unless
// a grant already covers it; the run's result goes back to the agent as untrusted data.
import "server-only";
import { Ajv2020, type ValidateFunction } from "../contracts/tool-args";
import type { AgentPrincipal } from "../agents";
import type { NetPolicy, Tool } from "../contracts/types";
import { db, Prisma, type Step } from "../db";
import { AppError } from "../errors";
import { channels, notify, waitFor } from "../events";
import { grantAlwaysAllow, hasAlwaysAllow, requireRunnableInstall } from "../installs";
import { NET_WORDS } from "../registry/plain-words";
import { submitStepJob, finishStep } from "../runs/submit";
import { scheduleAt, TIMER_JOBS } from "../runs/timers";

export const SKILL_RUN_KIND = "skill.run";
export const SKILL_RUN_LABEL = "running a skill's code in a sandbox";
/** How long a step waits for the person's decision. */
export const APPROVAL_WINDOW_MS = 10 * 60_000;
export const MAX_INPUT_BYTES = 64 * 1024;
export const MAX_WAIT_SECONDS = 30;
const TERMINAL = new Set(["succeeded", "failed", "denied", "expired", "no_node", "insufficient_balance"]);
const SKILL_REF = /^([a-z0-9][a-z0-9-]{1,62}[a-z0-9])@(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;

export function skillRunTarget(slug: string, version: string, tool: string, net: NetPolicy) {
  return `${slug}@${version} ${tool}${net === "public" ? " · internet" : ""}`;
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
const validators = new Map<string, ValidateFunction>();

function validatorFor(versionId: string, tool: Tool): ValidateFunction {
  const cacheKey = `${versionId}:${tool.name}`;
  let validate = validators.get(cacheKey);
  if (!validate) {
    validate = ajv.compile(tool.args);
    if (validators.size > 500) validators.clear();
    validators.set(cacheKey, validate);
  }
  return validate;
}

export type CallRequest = { skill: string; tool: string; input: unknown };

/** POST /api/v1/steps: validates everything, records the step, and runs it at once under a grant. */
export async function createSkillRunStep(agent: AgentPrincipal, call: CallRequest) {
  const ref = SKILL_REF.exec(call.skill);
  if (!ref)
    throw new AppError("step.skill_ref_invalid", 'Name the skill as "<slug>@<version>", e.g. "csv-stats@1.2.0".');
  const [, slug, version] = ref as unknown as [string, string, string];
  const { install, version: row } = await requireRunnableInstall({ userId: agent.userId, slug, version });
  if (install.projectId !== agent.projectId) {
    throw new AppError("step.skill_not_installed", `${slug}@${version} is not installed in this agent's project.`);
  }
  const document = row.document as unknown as { tools?: Tool[] };
  const tool = document.tools?.find((t) => t.name === call.tool);
  if (!tool) {
    const names = (document.tools ?? []).map((t) => t.name).join(", ") || "none";
    throw new AppError("step.tool_unknown", `${slug}@${version} has no tool "${call.tool}" (its tools: ${names}).`);
  }
  if (Buffer.byteLength(JSON.stringify(call.input ?? null)) > MAX_INPUT_BYTES) {
    throw new AppError("step.input_invalid", `A tool's input is at most ${MAX_INPUT_BYTES} bytes of JSON.`);
  }
  const validate = validatorFor(row.id, tool);
  if (!validate(call.input)) {
    throw new AppError("step.input_invalid", `The input does not match ${call.tool}'s arguments.`, {
      details: (validate.errors ?? []).map((e) => ({
        path: e.instancePath || "/",
        message: e.message ?? "is invalid",
        keyword: e.keyword,
      })),
    });
  }

  const grant = await hasAlwaysAllow({ userId: agent.userId, versionId: row.id, tool: tool.name });
  const now = new Date();
  const step = await db.step.create({
    data: {
      userId: agent.userId,
      projectId: agent.projectId,
      agentId: agent.agentId,
      versionId: row.id,
      kind: SKILL_RUN_KIND,
      label: SKILL_RUN_LABEL,
      target: skillRunTarget(slug, version, tool.name, tool.net),
      tool: tool.name,
      input: call.input as Prisma.InputJsonValue,
      net: tool.net === "openvibe-only" ? "openvibe_only" : tool.net,
      approval: grant ? "grant" : null,
      expiresAt: new Date(now.getTime() + APPROVAL_WINDOW_MS),
    },
  });
  if (grant) {
    await submitStepJob(step.id, true);
  } else {
    await scheduleAt(TIMER_JOBS.stepExpire, { stepId: step.id }, step.expiresAt, `expire-${step.id}`);
    await notify(channels.userSteps(agent.userId));
  }
  return stepForAgent(await db.step.findUniqueOrThrow({ where: { id: step.id } }));
}

const netOf = (step: Pick<Step, "net">): NetPolicy => (step.net === "openvibe_only" ? "openvibe-only" : step.net);

/** What the agent sees: never stderr, and the result as untrusted data. */
export function stepForAgent(step: Step & { job?: { id: string } | null }) {
  return {
    id: step.id,
    kind: step.kind,
    label: step.label,
    target: step.target,
    status: step.status,
    created_at: step.createdAt,
    expires_at: step.expiresAt,
    ...(step.message ? { message: step.message } : {}),
    ...(step.status === "no_node" ? { run_on_my_machine: "/dashboard/links" } : {}),
    ...(step.wallMs !== null ? { wall_ms: step.wallMs } : {}),
    ...(step.exitStatus ? { exit_status: step.exitStatus } : {}),
    ...(step.status === "succeeded" && step.result ? { result: step.result } : {}),
  };
}

async function expireIfDue(step: Step): Promise<Step> {
  if (step.status !== "pending_approval" || step.expiresAt > new Date()) return step;
  await finishStep(step.id, step.userId, "expired", "Nobody approved this step in time.");
  return db.step.findUniqueOrThrow({ where: { id: step.id } });
}

/** GET /api/v1/steps/<id>?wait=<s>: long-polls until the step ends (or the wait runs out). */
export async function getStepForAgent(agent: AgentPrincipal, stepId: string, waitSeconds = 0) {
  const deadline = Date.now() + Math.min(Math.max(waitSeconds, 0), MAX_WAIT_SECONDS) * 1000;
  const find = async () => {
    const step = await db.step.findFirst({ where: { id: stepId, userId: agent.userId, agentId: agent.agentId } });
    if (!step) throw new AppError("step.not_found", "That step was not found.");
    return expireIfDue(step);
  };
  let step = await find();
  while (!TERMINAL.has(step.status) && Date.now() < deadline) {
    await waitFor([channels.step(stepId)], Math.min(1_000, deadline - Date.now()));
    step = await find();
  }
  return stepForAgent(step);
}

export type Decision = "once" | "always" | "deny";

/** The person's answer to a pending step. Someone else's step answers 404. */
export async function decideStep(userId: string, stepId: string, decision: Decision) {
  const found = await db.step.findFirst({ where: { id: stepId, userId } });
  if (!found) throw new AppError("step.not_found", "That step was not found.");
  const step = await expireIfDue(found);
  if (step.status !== "pending_approval")
    throw new AppError("step.not_pending", `This step is already ${step.status.replace(/_/g, " ")}.`);
  if (decision === "deny") {
    await finishStep(stepId, userId, "denied", "The person denied this run.");
  } else {
    if (decision === "always") await grantAlwaysAllow({ userId, versionId: step.versionId, tool: step.tool });
    await db.step.update({ where: { id: stepId }, data: { approval: decision } });
    await submitStepJob(stepId, false);
  }
  return stepForPerson(await db.step.findUniqueOrThrow({ where: { id: stepId }, include: stepInclude }));
}

const stepInclude = {
  agent: { select: { name: true } },
  job: { select: { id: true, state: true, placement: true, wallMsUsed: true, costMicros: true } },
} as const;

type PersonStep = Prisma.StepGetPayload<{ include: typeof stepInclude }>;

/** What the person sees of a step (the dashboard). */
export function stepForPerson(step: PersonStep) {
  const inputText = JSON.stringify(step.input);
  return {
    id: step.id,
    kind: step.kind,
    label: step.label,
    target: step.target,
    status: step.status,
    agent: step.agent?.name ?? null,
    net: netOf(step),
    net_words: NET_WORDS[netOf(step)],
    input_preview: inputText.length > 400 ? `${inputText.slice(0, 400)}…` : inputText,
    message: step.message,
    created_at: step.createdAt,
    expires_at: step.expiresAt,
    job: step.job
      ? {
          id: step.job.id,
          state: step.job.state,
          placement: step.job.placement,
          wall_ms: step.job.wallMsUsed,
          cost_micros: step.job.costMicros,
        }
      : null,
  };
}

export async function listSteps(userId: string, filter: { pending?: boolean; limit?: number } = {}) {
  const steps = await db.step.findMany({
    where: { userId, ...(filter.pending ? { status: "pending_approval", expiresAt: { gt: new Date() } } : {}) },
    orderBy: { createdAt: "desc" },
    take: Math.min(filter.limit ?? 50, 200),
    include: stepInclude,
  });
  return steps.map(stepForPerson);
}

/** Timer: a step nobody decided by its expiry ends `expired`. */
export async function onStepExpire(stepId: string) {
  const step = await db.step.findUnique({ where: { id: stepId } });
  if (step) await expireIfDue(step);
}
