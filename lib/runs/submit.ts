// Submitting the Run job of an approved `skill.run` step, as the person: class `function`, the
// runner artifact, the listing's pinned code (media id and sha256 from the listing, never re-read
// from the document) plus the call as `job.json`, `net` exactly as declared, limits as declared.
// No Link that could take it: the step ends `no_node`; there is no fallback anywhere else.
import "server-only";
import { ulid } from "ulid";
import { worstCaseCost } from "../billing/rates";
import { canonicalJson, type Tool } from "../contracts";
import { db } from "../db";
import { AppError } from "../errors";
import { requireRunnableVersion } from "../installs/runnable";
import { ONLINE_WINDOW_MS } from "../links/service";
import { LIMIT_CAPS, type PinnedInput } from "../protocol";
import { OWN_LINKS_FIRST_MS } from "./constants";
import { endPendingStep, settleSubmission, submitJob, type SubmitOutcome as Submitted } from "./lifecycle";

export type SubmitOutcome = Submitted | { kind: "blocked"; reason: string } | { kind: "no_node" };

export const NO_NODE_WORDS =
  "No Link can run this now: none of your machines has the skill runner on and online, and no OpenVibe pool machine is available to this project. Run it on your machine: pair a Link and turn its skill runner on.";

/**
 * Where a job for this person could run right now: their own Links with the runner on, then the
 * machines an operator approved for OpenVibe's pool (when the project allows the pool).
 */
export async function eligibleLinks(userId: string, allowPool: boolean, now = new Date()) {
  const since = new Date(now.getTime() - ONLINE_WINDOW_MS);
  const online = { revokedAt: null, runnerEnabled: true, lastSeenAt: { gte: since } };
  const [own, pool] = await Promise.all([
    db.link.count({ where: { ...online, userId } }),
    allowPool
      ? db.link.count({ where: { ...online, poolOffer: true, poolApprovedAt: { not: null }, userId: { not: userId } } })
      : Promise.resolve(0),
  ]);
  return { own, pool };
}

export const withinCaps = (limits: Tool["limits"]) =>
  limits.wall_ms <= LIMIT_CAPS.wall_ms && limits.mem_bytes <= LIMIT_CAPS.mem_bytes;

export function checkLimits(limits: Tool["limits"]) {
  if (!withinCaps(limits)) {
    throw new AppError(
      "run.limits.exceeded",
      `Limits above the caps (${LIMIT_CAPS.wall_ms} ms, ${LIMIT_CAPS.mem_bytes} bytes) are refused, never lowered.`,
    );
  }
}

/** `job.json`: the call as canonical JSON. */
export const callBytes = (tool: Tool, input: unknown) =>
  Buffer.from(canonicalJson({ tool: tool.name, entry: tool.entry, input }), "utf8");

/**
 * Submits the job of a step that is `pending_approval` and has just been approved (by the person,
 * or by an "always allow" grant when `agentAlone`). The lifecycle does it in one transaction under
 * the step's lock; this prepares what it needs.
 */
export async function submitStepJob(stepId: string, agentAlone: boolean): Promise<SubmitOutcome> {
  const outcome = await submitOnce(stepId, agentAlone);
  // Whatever it came to, nothing is owed from the outbox now (a queued job settled it already).
  if (outcome.kind !== "queued") await settleSubmission(stepId);
  return outcome;
}

async function submitOnce(stepId: string, agentAlone: boolean): Promise<SubmitOutcome> {
  const step = await db.step.findUniqueOrThrow({
    where: { id: stepId },
    include: {
      project: { select: { allowPool: true } },
      version: { include: { skill: { select: { slug: true } }, listing: { include: { code: true } } } },
    },
  });
  if (step.status !== "pending_approval") return { kind: "not_pending" };
  // Re-checked at submission: a skill disabled, uninstalled or retired since the call runs nothing.
  try {
    await requireRunnableVersion({ userId: step.userId, versionId: step.versionId });
  } catch (err) {
    if (!(err instanceof AppError) || !err.code.startsWith("step.")) throw err;
    await endPendingStep(stepId, "block", err.message);
    return { kind: "blocked", reason: err.message };
  }
  const document = step.version.document as unknown as { tools?: Tool[] };
  const tool = document.tools?.find((t) => t.name === step.tool);
  if (!tool || !step.version.listing)
    throw new AppError("step.tool_unknown", `The tool ${step.tool} is not in this version.`);
  checkLimits(tool.limits);

  const allowPool = step.project.allowPool;
  const links = await eligibleLinks(step.userId, allowPool);
  if (links.own === 0 && links.pool === 0) {
    await endPendingStep(stepId, "noNode", NO_NODE_WORDS);
    return { kind: "no_node" };
  }

  const now = new Date();
  const pins: PinnedInput[] = step.version.listing.code.map((c) => ({
    name: c.name,
    media_id: c.mediaId,
    sha256: c.sha256,
    size_bytes: c.sizeBytes,
  }));
  return submitJob({
    stepId,
    jobId: `job_${ulid().toLowerCase()}`,
    agentAlone,
    versionId: step.versionId,
    tool: tool.name,
    skillSlug: step.version.skill.slug,
    net: tool.net,
    limits: tool.limits,
    worstCaseMicros: worstCaseCost(tool.limits.wall_ms),
    pins,
    call: callBytes(tool, step.input),
    poolAllowed: allowPool,
    poolAfter: new Date(now.getTime() + (links.own > 0 ? OWN_LINKS_FIRST_MS : 0)),
    now,
  });
}
