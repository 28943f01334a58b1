// "Run again" on a run page: a new `skill.run` step with the same tool and input as that run's step.
// It follows the usual rules: the install must still be runnable, and it waits for the person's
// approval unless an "always allow" grant covers exactly that version's tool.
import "server-only";
import type { Tool } from "../contracts/types";
import { db, type Prisma } from "../db";
import { AppError } from "../errors";
import { hasAlwaysAllow, requireRunnableInstall } from "../installs";
import { log } from "../log";
import { createStep } from "../runs/lifecycle";
import { submitStepJob } from "../runs/submit";
import { APPROVAL_WINDOW_MS, SKILL_RUN_KIND, SKILL_RUN_LABEL, skillRunTarget } from "./index";

export async function runAgain(userId: string, jobId: string): Promise<{ step_id: string; status: string }> {
  const job = await db.runJob.findFirst({
    where: { id: jobId, userId },
    include: { step: true, version: { select: { version: true, skill: { select: { slug: true } } } } },
  });
  if (!job?.step) throw new AppError("run.job.not_found", "That run was not found.");
  const slug = job.version.skill.slug;
  const { install, version } = await requireRunnableInstall({ userId, slug, version: job.version.version });
  if (install.projectId !== job.projectId) {
    throw new AppError("step.skill_not_installed", `${slug}@${job.version.version} is not installed in that project.`);
  }
  const tool = (version.document as unknown as { tools?: Tool[] }).tools?.find((t) => t.name === job.step!.tool);
  if (!tool) throw new AppError("step.tool_unknown", `${slug}@${job.version.version} has no tool "${job.step.tool}".`);
  const grant = await hasAlwaysAllow({ userId, versionId: version.id, tool: tool.name });
  const step = await createStep(
    {
      userId,
      projectId: job.projectId,
      agentId: job.step.agentId,
      versionId: version.id,
      kind: SKILL_RUN_KIND,
      label: SKILL_RUN_LABEL,
      target: skillRunTarget(slug, job.version.version, tool.name, tool.net),
      tool: tool.name,
      input: job.step.input as Prisma.InputJsonValue,
      net: tool.net,
      approval: grant ? "grant" : null,
      expiresAt: new Date(Date.now() + APPROVAL_WINDOW_MS),
    },
    grant ? "submit" : "awaits_person",
  );
  if (grant) {
    try {
      // The person asked for it on the page: not the agent acting alone.
      await submitStepJob(step.id, false);
    } catch (err) {
      log.warn("step.submit_deferred", { stepId: step.id, err });
    }
  }
  const now = await db.step.findUniqueOrThrow({ where: { id: step.id }, select: { status: true } });
  return { step_id: step.id, status: now.status };
}
