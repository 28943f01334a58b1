// A run as its person sees it (/dashboard/runs/<id>): input, output, stderr, timing, Link, cost.
import "server-only";
import { db } from "../db";
import { AppError } from "../errors";

export async function getRunForPerson(userId: string, jobId: string) {
  const job = await db.runJob.findFirst({
    where: { id: jobId, userId },
    include: {
      link: { select: { id: true, name: true, userId: true } },
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
  return {
    id: job.id,
    state: job.state,
    result_status: job.resultStatus,
    target: job.step?.target ?? null,
    agent: job.step?.agent?.name ?? null,
    input: job.step?.input ?? null,
    output: job.output,
    stderr: job.stderr ?? "",
    exit: job.exitCode,
    net: job.net === "openvibe_only" ? "openvibe-only" : job.net,
    limits: { wall_ms: job.wallMs, mem_bytes: Number(job.memBytes) },
    wall_ms: job.wallMsUsed,
    max_rss_bytes: job.maxRssBytes === null ? null : Number(job.maxRssBytes),
    cost_micros: job.costMicros,
    placement: job.placement,
    // A pool machine is someone else's: its name is not shown.
    link: job.link
      ? job.link.userId === userId
        ? { id: job.link.id, name: job.link.name }
        : { id: null, name: "an OpenVibe pool machine" }
      : null,
    created_at: job.createdAt,
    placed_at: job.placedAt,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    expires_at: job.expiresAt,
    step_message: job.step?.message ?? null,
  };
}
