// A run as its person sees it (/dashboard/runs/<id>): input, output, stderr, timing, where it
// ran, cost. Where it ran is "your Link <name>" or "OpenVibe pool" (a pool machine's name and
// owner are not shown).
import "server-only";
import { config } from "../config/env.mjs";
import { db } from "../db";
import { AppError } from "../errors";
import { netPolicySchema, RUN_FILE_FORMAT, runFileSchema, type RunFile } from "../protocol";
import { storedAttestation } from "./attestation";

/** Where a job ran (or runs), in the words the run page and the agent's result use. */
export function ranOnWords(job: { placement: "own" | "pool" | null; link: { name: string } | null }): string | null {
  if (job.placement === "pool") return "OpenVibe pool";
  if (job.placement === "own" && job.link) return `your Link ${job.link.name}`;
  return null;
}

export async function getRunForPerson(userId: string, jobId: string) {
  const job = await db.runJob.findFirst({
    where: { id: jobId, userId },
    include: {
      link: { select: { id: true, name: true } },
      step: {
        select: {
          id: true,
          target: true,
          tool: true,
          input: true,
          status: true,
          message: true,
          agent: { select: { name: true } },
        },
      },
    },
  });
  if (!job) throw new AppError("run.job.not_found", "That run was not found.");
  const attestation = storedAttestation(job.attestation);
  return {
    id: job.id,
    state: job.state,
    result_status: job.resultStatus,
    /** The job had expired when its Link's result arrived: the run happened; it was not charged. */
    result_late: job.state === "expired" && job.resultStatus !== null,
    cancel_code: job.cancelCode,
    target: job.step?.target ?? null,
    agent: job.step?.agent?.name ?? null,
    input: job.step?.input ?? null,
    output: job.output,
    stderr: job.stderr ?? "",
    exit: job.exitCode,
    net: netPolicySchema.parse(job.net),
    limits: { wall_ms: job.wallMs, mem_bytes: Number(job.memBytes) },
    wall_ms: job.wallMsUsed,
    max_rss_bytes: job.maxRssBytes === null ? null : Number(job.maxRssBytes),
    cost_micros: job.costMicros,
    placement: job.placement,
    ran_on: ranOnWords(job),
    /** The person's own Link, linked from the page; a pool machine stays anonymous. */
    link: job.placement === "own" && job.link ? { id: job.link.id, name: job.link.name } : null,
    created_at: job.createdAt,
    placed_at: job.placedAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    expires_at: job.expiresAt,
    step_message: job.step?.message ?? null,
    /** The Link's signed statement of this result (with its egress record), once it reported. */
    attestation,
    egress: attestation?.statement.egress ?? null,
  };
}

/** RUN.json for `openvibe verify-run`: the attestation, the output and the stderr it vouches for. */
export async function exportRun(userId: string, jobId: string): Promise<RunFile> {
  const job = await db.runJob.findFirst({
    where: { id: jobId, userId },
    select: { id: true, attestation: true, output: true, stderr: true, resultStatus: true },
  });
  const attestation = job && storedAttestation(job.attestation);
  if (!job || !attestation) throw new AppError("run.job.not_found", "That run has no signed result to export.");
  return runFileSchema.parse({
    format: RUN_FILE_FORMAT,
    server: config().APP_URL,
    job_id: job.id,
    attestation,
    output: attestation.statement.status === "ok" ? job.output : null,
    stderr: job.stderr ?? "",
  });
}
