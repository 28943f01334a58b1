// The `skill.run` step (HO1 kind, ADR-060): an agent asks to run one tool of an installed skill
// version; the person approves it (once, always for exactly that version's tool, or denies) unless
// a grant already covers it; the run's result goes back to the agent as untrusted data.
import "server-only";
import { Ajv2020, type ValidateFunction } from "../contracts/tool-args";
import type { AgentPrincipal } from "../agents";
import type { Tool } from "../contracts/types";
import { db, Prisma, type Step } from "../db";
import { AppError } from "../errors";
import { channels, watch } from "../events";
import { log } from "../log";
import { grantAlwaysAllow, hasAlwaysAllow, requireRunnableInstall } from "../installs";
import { netPolicySchema, type NetPolicy } from "../protocol";
import { NET_WORDS } from "../registry/plain-words";
import {
  createStep,
  endPendingStep,
  EXPIRY_WORDS,
  isStepFinal,
  recordApproval,
  releaseStepKey,
  submitAtOnce,
} from "../runs/lifecycle";
import { callBytes, submitStepJob, withinCaps } from "../runs/submit";
import { OWN_LINKS_FIRST_MS } from "../runs/constants";
import { readAgentStep, readStepStatus, type AgentStep } from "./agent-step";
import { readCallContext } from "./call-context";
import { ranOnWords } from "../runs/view";
import { storedAttestation } from "../runs/attestation";
import { formatMicros, worstCaseCost } from "../billing/rates";

export const SKILL_RUN_KIND = "skill.run";
export const SKILL_RUN_LABEL = "running a skill's code in a sandbox";
/** How long a step waits for the person's decision. */
export const APPROVAL_WINDOW_MS = 10 * 60_000;
export const MAX_INPUT_BYTES = 64 * 1024;
export const MAX_WAIT_SECONDS = 30;
/**
 * A long poll's own look at its step when no wake-up came: wake-ups announce every move, so this
 * only bounds the latency a lost one costs (and its reads: 100 agents waiting in a queue).
 */
const RECHECK_MS = 5_000;
/** At an approval's expiry the check comes at once, but never in a tighter loop than this. */
const EXPIRY_RECHECK_MIN_MS = 50;
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
type SkillRef = { slug: string; version: string };

/**
 * POST /api/v1/steps: validates everything, records the step, and runs it at once under a grant.
 * With an idempotency key the same call twice makes one step: the second gets the first one back.
 * The plain call under a grant is read in one statement and written in one (submitAtOnce); every
 * other case, and every refusal, goes the long way. Once the step is stored the call is answered
 * with it, whatever fails after: a grant's submission that does not go through now is made by the
 * dispatch sweep from the step's outbox row.
 */
export async function createSkillRunStep(
  agent: AgentPrincipal,
  call: CallRequest,
  options: { idempotencyKey?: string | null; waitSeconds?: number; signal?: AbortSignal } = {},
) {
  const accepted: Accepted = {};
  const step = await acceptCall(agent, call, options.idempotencyKey ?? null, accepted);
  // `Prefer: wait=N`: the answer is the step once it ends (or after N s), without a second request.
  if (!options.waitSeconds || isStepFinal(step.status)) return step;
  return getStepForAgent(agent, step.id, options.waitSeconds, options.signal, accepted.queued);
}

/** The step a call queued in one statement, as that statement stored it. */
type Accepted = { queued?: AgentStep };

async function acceptCall(agent: AgentPrincipal, call: CallRequest, key: string | null, accepted: Accepted) {
  const ref = SKILL_REF.exec(call.skill);
  if (!ref) return createTheLongWay(agent, call, key);
  const [, slug, version] = ref as unknown as [string, string, string];
  const now = new Date();
  const context = await readCallContext({
    userId: agent.userId,
    projectId: agent.projectId,
    agentId: agent.agentId,
    slug,
    version,
    tool: call.tool,
    idempotencyKey: key,
    keyReuseAfterMs: KEY_REUSE_AFTER_MS,
    now,
  });
  if (context?.earlierStepId) return agentStepById(context.earlierStepId);
  // An unknown tool goes the long way too, which names the tools there are.
  if (!context?.runnable || !context.tool) return createTheLongWay(agent, call, key);
  const tool = validCall({ slug, version }, context.versionId, { tools: [context.tool] }, call);
  if (
    context.granted &&
    call.input !== undefined &&
    withinCaps(tool.limits) &&
    context.links.own + context.links.pool > 0
  ) {
    const submitted = await submitAtOnce({
      step: stepData(
        { agent, ref: { slug, version }, versionId: context.versionId, tool, call, key, grant: true },
        now,
      ),
      skillSlug: slug,
      limits: tool.limits,
      worstCaseMicros: worstCaseCost(tool.limits.wall_ms),
      pins: context.pins,
      call: callBytes(tool, call.input),
      poolAllowed: context.allowPool,
      poolAfter: new Date(now.getTime() + (context.links.own > 0 ? OWN_LINKS_FIRST_MS : 0)),
      now,
    });
    if (submitted.kind === "queued") {
      const job = { id: submitted.jobId, placement: null, costMicros: null, attestation: null, link: null };
      accepted.queued = { ...submitted.step, job };
      return stepForAgent(accepted.queued);
    }
  }
  return recordCall({
    agent,
    ref: { slug, version },
    versionId: context.versionId,
    tool,
    call,
    key,
    grant: context.granted,
  });
}

/** Every check made query by query (lib/installs), each refusal in its own words. */
async function createTheLongWay(agent: AgentPrincipal, call: CallRequest, key: string | null) {
  if (key) {
    const earlier = await db.step.findFirst({
      where: {
        agentId: agent.agentId,
        idempotencyKey: key,
        createdAt: { gt: new Date(Date.now() - KEY_REUSE_AFTER_MS) },
      },
      include: agentInclude,
    });
    if (earlier) return stepForAgent(earlier);
  }
  const ref = SKILL_REF.exec(call.skill);
  if (!ref)
    throw new AppError("step.skill_ref_invalid", 'Name the skill as "<slug>@<version>", e.g. "csv-stats@1.2.0".');
  const [, slug, version] = ref as unknown as [string, string, string];
  const { install, version: row } = await requireRunnableInstall({ userId: agent.userId, slug, version });
  if (install.projectId !== agent.projectId) {
    throw new AppError("step.skill_not_installed", `${slug}@${version} is not installed in this agent's project.`);
  }
  const tool = validCall({ slug, version }, row.id, row.document, call);
  const grant = await hasAlwaysAllow({ userId: agent.userId, versionId: row.id, tool: tool.name });
  return recordCall({ agent, ref: { slug, version }, versionId: row.id, tool, call, key, grant });
}

/** The tool the call names, with its input checked against the tool's arguments. */
function validCall(ref: SkillRef, versionId: string, versionDocument: unknown, call: CallRequest): Tool {
  const document = versionDocument as { tools?: Tool[] };
  const tool = document.tools?.find((t) => t.name === call.tool);
  if (!tool) {
    const names = (document.tools ?? []).map((t) => t.name).join(", ") || "none";
    throw new AppError(
      "step.tool_unknown",
      `${ref.slug}@${ref.version} has no tool "${call.tool}" (its tools: ${names}).`,
    );
  }
  if (Buffer.byteLength(JSON.stringify(call.input ?? null)) > MAX_INPUT_BYTES) {
    throw new AppError("step.input_invalid", `A tool's input is at most ${MAX_INPUT_BYTES} bytes of JSON.`);
  }
  const validate = validatorFor(versionId, tool);
  if (!validate(call.input)) {
    throw new AppError("step.input_invalid", `The input does not match ${call.tool}'s arguments.`, {
      details: (validate.errors ?? []).map((e) => ({
        path: e.instancePath || "/",
        message: e.message ?? "is invalid",
        keyword: e.keyword,
      })),
    });
  }
  return tool;
}

/** One agent call, checked: its skill version and tool, its idempotency key, and whether a grant covers it. */
type CheckedCall = {
  agent: AgentPrincipal;
  ref: SkillRef;
  versionId: string;
  tool: Tool;
  call: CallRequest;
  key: string | null;
  grant: boolean;
};

function stepData({ agent, ref, versionId, tool, call, key, grant }: CheckedCall, now: Date) {
  return {
    userId: agent.userId,
    projectId: agent.projectId,
    agentId: agent.agentId,
    versionId,
    kind: SKILL_RUN_KIND,
    label: SKILL_RUN_LABEL,
    target: skillRunTarget(ref.slug, ref.version, tool.name, tool.net),
    tool: tool.name,
    input: call.input as Prisma.InputJsonValue,
    net: tool.net,
    approval: grant ? ("grant" as const) : null,
    expiresAt: new Date(now.getTime() + APPROVAL_WINDOW_MS),
    idempotencyKey: key,
  };
}

/** Records the step (waiting for the person, or under its grant with its outbox row) and submits a granted one. */
async function recordCall(checked: CheckedCall) {
  const { agent, grant } = checked;
  const data = stepData(checked, new Date());
  const step = await createKeyedStep(agent, data, grant ? "submit" : "awaits_person");
  if (!step.created) return stepForAgent(step.step);
  if (grant) {
    try {
      await submitStepJob(step.step.id, true);
    } catch (err) {
      log.warn("step.submit_deferred", { stepId: step.step.id, err });
    }
  }
  try {
    return await agentStepById(step.step.id);
  } catch (err) {
    log.warn("step.reread_failed", { stepId: step.step.id, err });
    return stepForAgent({ ...step.step, job: null });
  }
}

async function agentStepById(stepId: string) {
  return stepForAgent(await db.step.findUniqueOrThrow({ where: { id: stepId }, include: agentInclude }));
}

/** After a day a key may name a new call: the old step lets go of it. */
const KEY_REUSE_AFTER_MS = 24 * 60 * 60_000;

async function createKeyedStep(
  agent: AgentPrincipal,
  data: Parameters<typeof createStep>[0],
  mode: Parameters<typeof createStep>[1],
): Promise<{ created: true; step: Step } | { created: false; step: AgentStep }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return { created: true, step: await createStep(data, mode) };
    } catch (err) {
      const clash = err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002";
      if (!clash || !data.idempotencyKey || attempt > 0) throw err;
      // The same call at the same moment: the one that got in first is the answer.
      const where = { agentId: agent.agentId, idempotencyKey: data.idempotencyKey };
      const existing = await db.step.findFirst({ where, include: agentInclude });
      if (existing && existing.createdAt.getTime() > Date.now() - KEY_REUSE_AFTER_MS)
        return { created: false, step: existing };
      if (existing) await releaseStepKey(existing.id);
    }
  }
}

const netOf = (step: Pick<Step, "net">): NetPolicy => netPolicySchema.parse(step.net);

const agentInclude = {
  job: {
    select: { id: true, placement: true, costMicros: true, attestation: true, link: { select: { name: true } } },
  },
} as const;

/** What the agent sees: never stderr, the result as untrusted data, its run, where it ran and what it cost. */
export function stepForAgent(step: AgentStep) {
  const ranOn = step.job ? ranOnWords(step.job) : null;
  // The Link's signed statement of the result, checkable by anyone with `openvibe verify-run`.
  const attestation = step.job ? storedAttestation(step.job.attestation) : null;
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
    ...(step.job ? { run_id: step.job.id } : {}),
    ...(ranOn ? { ran_on: ranOn } : {}),
    // Set when the run is settled (what it was charged; 0 when its hold came back in full).
    ...(step.job && step.job.costMicros !== null
      ? { cost_micros: step.job.costMicros.toString(), cost: formatMicros(step.job.costMicros) }
      : {}),
    ...(attestation ? { attestation } : {}),
  };
}

/** The agent's step now (a pending one past its window expired first); another's is step.not_found. */
async function findAgentStep(agent: AgentPrincipal, stepId: string): Promise<AgentStep> {
  const step = await readAgentStep(stepId, agent);
  if (!step) throw new AppError("step.not_found", "That step was not found.");
  if (!(await expireIfDue(step))) return step;
  return (await readAgentStep(stepId, agent))!;
}

/** The agent's answer for its step now, with its run's state and placement (MCP's progress), in one read. */
export async function agentStepWithRun(agent: AgentPrincipal, stepId: string) {
  const step = await findAgentStep(agent, stepId);
  return {
    view: stepForAgent(step),
    run: step.job ? { id: step.job.id, state: step.job.state ?? null, placement: step.job.placement } : null,
  };
}

/** A pending step past its approval window ends `expired` as soon as anyone looks at it. */
async function expireIfDue(step: Pick<Step, "id" | "status" | "expiresAt">): Promise<boolean> {
  if (step.status !== "pending_approval" || step.expiresAt > new Date()) return false;
  return endPendingStep(step.id, "expire", EXPIRY_WORDS.approval, (s) => s.expiresAt <= new Date());
}

/**
 * GET /api/v1/steps/<id>?wait=<s>: long-polls until the step ends (or the wait runs out). The loop
 * ends with its request: once `signal` aborts (the agent hung up) it makes no further query.
 * `known`: the step as its acceptance stored it a moment ago, with no I/O between that and this
 * call (so no wake-up can have come between): it is not read back before the wait.
 */
export async function getStepForAgent(
  agent: AgentPrincipal,
  stepId: string,
  waitSeconds = 0,
  signal?: AbortSignal,
  known?: AgentStep,
) {
  const deadline = Date.now() + Math.min(Math.max(waitSeconds, 0), MAX_WAIT_SECONDS) * 1000;
  const find = () => findAgentStep(agent, stepId);
  // Listening from before the first read: a change while it reads is not waited a second for.
  const watching = deadline > Date.now() ? watch([channels.step(stepId)]) : null;
  try {
    let step = known ?? (await find());
    // A wake-up reads the whole step at once (it moved). The check every RECHECK_MS (for a lost
    // wake-up) and at a pending approval's expiry reads only the status, and the whole step again
    // once that moved.
    let moved = false;
    while (watching && !isStepFinal(step.status) && Date.now() < deadline && !signal?.aborted) {
      const expiry = step.status === "pending_approval" ? step.expiresAt.getTime() - Date.now() : Infinity;
      const wait = Math.max(EXPIRY_RECHECK_MIN_MS, Math.min(RECHECK_MS, deadline - Date.now(), expiry));
      const woken = await watching.next(wait, signal);
      if (signal?.aborted) break;
      if (woken) {
        step = await find();
        moved = false;
        continue;
      }
      const now = await readStepStatus(stepId);
      const due = now?.status === "pending_approval" && now.expiresAt <= new Date();
      if (now && !due && !isStepFinal(now.status)) {
        moved ||= now.status !== step.status;
        step = { ...step, status: now.status, expiresAt: now.expiresAt };
        continue;
      }
      step = await find();
      moved = false;
    }
    if (moved) step = await find();
    return stepForAgent(step);
  } finally {
    watching?.close();
  }
}

export type Decision = "once" | "always" | "deny";

/** The person's answer to a pending step. Someone else's step answers 404. */
export async function decideStep(userId: string, stepId: string, decision: Decision) {
  const found = await db.step.findFirst({ where: { id: stepId, userId } });
  if (!found) throw new AppError("step.not_found", "That step was not found.");
  await expireIfDue(found);
  const notPending = async () => {
    const now = await db.step.findUniqueOrThrow({ where: { id: stepId } });
    return new AppError("step.not_pending", `This step is already ${now.status.replace(/_/g, " ")}.`);
  };
  if (decision === "deny") {
    if (!(await endPendingStep(stepId, "deny", "The person denied this run.", (s) => s.expiresAt > new Date())))
      throw await notPending();
  } else {
    if (!(await recordApproval(stepId, decision))) throw await notPending();
    if (decision === "always") await grantAlwaysAllow({ userId, versionId: found.versionId, tool: found.tool });
    const outcome = await submitStepJob(stepId, false);
    if (outcome.kind === "not_pending") {
      // It reached its deadline meanwhile: the expiry wins, and says so.
      await expireIfDue(await db.step.findUniqueOrThrow({ where: { id: stepId } }));
      throw await notPending();
    }
  }
  return stepForPerson(await db.step.findUniqueOrThrow({ where: { id: stepId }, include: personStepInclude }));
}

/** What a person's view of a step reads along with it (stepForPerson). */
export const personStepInclude = {
  agent: { select: { name: true } },
  job: {
    select: {
      id: true,
      state: true,
      placement: true,
      wallMsUsed: true,
      costMicros: true,
      link: { select: { name: true } },
    },
  },
} as const;

type PersonStep = Prisma.StepGetPayload<{ include: typeof personStepInclude }>;

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
          ran_on: ranOnWords(step.job),
          wall_ms: step.job.wallMsUsed,
          cost_micros: step.job.costMicros,
        }
      : null,
  };
}

/** Timer: a step nobody decided by its expiry ends `expired`. */
export async function onStepExpire(stepId: string) {
  const step = await db.step.findUnique({ where: { id: stepId } });
  if (step) await expireIfDue(step);
}
