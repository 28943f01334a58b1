// The Link's side of Run, behind /api/link/v1: long-poll for a job, heartbeat, start, fetch pinned
// inputs, report the result, hand a job back. Every request is parsed with lib/protocol's schemas
// by the route, and every answer is built through them here, so neither side trusts a shape it did
// not check. State changes go through the lifecycle.
import "server-only";
import { db, sqlPool, utcText, type RunJob } from "../db";
import { AppError } from "../errors";
import { channels, watch } from "../events";
import { checkFindingsAck } from "../installs/rules";
import type { LinkPrincipal } from "../links/authenticate";
import { reportLinkState } from "../links/service";
import { log } from "../log";
import { getMedia, readMediaBytes } from "../media";
import {
  heartbeatResponseSchema,
  INLINE_ANSWER_MAX_BYTES,
  INLINE_INPUTS_MAX_BYTES,
  JOB_CLASS,
  jobSchema,
  pinnedInputsSchema,
  pollResponseSchema,
  releaseResponseSchema,
  resultResponseSchema,
  RUNNER_ARTIFACT,
  startResponseSchema,
  type CancelCode,
  type CancelNotice,
  type HeartbeatRequest,
  type HeartbeatResponse,
  type JobResultBody,
  type PollRequest,
  type PollResponse,
  type ResultResponse,
} from "../protocol";
import { resultFacts, verifiedAttestation } from "./attestation";
import { MAX_POLL_WAIT_MS, REVOCATION_WINDOW_MS } from "./constants";
import {
  CANCEL_WORDS,
  cancelJob,
  claimJobs,
  markHandedWith,
  startClaimedJobs,
  startLeaseTimers,
  finishAtOnce,
  finishJob,
  recordLateResult,
  releaseJob as release,
  renewLeases,
  startJob as start,
  type Claimed,
  type ClaimedJob,
  type StartFacts,
} from "./lifecycle";

/** The job as a Link receives it, checked against the protocol before it leaves. */
export function jobForLink(job: ClaimedJob) {
  const { version } = job;
  return jobSchema.parse({
    id: job.id,
    class: job.class,
    artifact: { name: job.artifactName, version: job.artifactVersion },
    skill: { slug: version.skill.slug, version: version.version, tool: job.tool, integrity: version.integrity },
    inputs: job.inputs,
    net: job.net,
    limits: { wall_ms: job.wallMs, mem_bytes: Number(job.memBytes) },
    ttl_ms: job.ttlMs,
    expires_at: job.expiresAt.toISOString(),
  });
}

// $1 the Link, $2 since when. Driven from the few retired or failed versions (by their indexes),
// each probed for a job this Link was handed since then, so a poll costs the same however many jobs
// the Link ran. The probe is a subquery of its own, so no plan can turn it round and walk the
// Link's jobs instead. A version retired before the window had no job made in it (a call is
// refused once its version is retired; the minute covers a call read just before).
const REVOKED_SQL = `
  SELECT v.integrity FROM "SkillVersion" AS v
  WHERE (v."retiredAt" > $2::timestamp - interval '1 minute' OR v.status = 'failed')
    AND COALESCE((SELECT true FROM "RunJob" AS j
                   WHERE j."versionId" = v.id AND j."linkId" = $1 AND j."createdAt" > $2::timestamp
                   LIMIT 1), false)
  LIMIT 256`;

/** Integrity hashes of retired or failed versions whose jobs this Link was given recently. */
async function revokedFor(linkId: string, now = new Date()): Promise<string[]> {
  const since = new Date(now.getTime() - REVOCATION_WINDOW_MS);
  const { rows } = await sqlPool().query<{ integrity: string }>({
    name: "link-revoked-versions",
    text: REVOKED_SQL,
    values: [linkId, utcText(since)],
  });
  return rows.map((r) => r.integrity);
}

/** Whether the Link's runner is on now (a dashboard's "off" since the poll began). */
async function runnerOn(linkId: string): Promise<boolean> {
  const { rows } = await sqlPool().query<{ runnerEnabled: boolean }>({
    name: "link-runner-on",
    text: `SELECT "runnerEnabled" FROM "Link" WHERE id = $1`,
    values: [linkId],
  });
  return rows[0]?.runnerEnabled ?? false;
}

/** The jobs a Link says it holds that it must stop: withdrawn, or no longer this Link's. */
async function cancelNotices(linkId: string, held: string[]): Promise<CancelNotice[]> {
  if (!held.length) return [];
  const jobs = await db.runJob.findMany({
    where: { id: { in: held } },
    select: { id: true, linkId: true, state: true, cancelCode: true, step: { select: { message: true } } },
  });
  const byId = new Map(jobs.map((j) => [j.id, j]));
  const notices: CancelNotice[] = [];
  for (const id of held) {
    const job = byId.get(id);
    if (job && job.linkId === linkId && job.state !== "cancelled") continue;
    notices.push({
      id,
      code: job?.cancelCode === "run.job.revoked" ? "run.job.revoked" : "run.job.cancelled",
      message: (job?.state === "cancelled" && job.step?.message) || "This job is no longer this Link's.",
    });
  }
  return notices;
}

type Handover = { started: true; inputs?: { media_id: string; base64: string }[] };
type Handed = { job: ClaimedJob; handover: Handover | null };

/**
 * Long-poll: the Link reports its state, then gets the next jobs it may run (up to `max`, within
 * `mem_free_bytes`), or none after `wait_ms`. A runner that is off (on the machine, or turned off
 * from the dashboard) gets none; the claim itself re-reads the runner, so a `skills off` a moment
 * ago is already seen. The loop ends with the request (its AbortSignal) and never queries after the
 * client has gone.
 */
export async function pollForJob(
  link: LinkPrincipal,
  request: PollRequest,
  signal?: AbortSignal,
): Promise<PollResponse> {
  let state = await reportLinkState(link.linkId, request);
  const deadline = Date.now() + Math.min(request.wait_ms, MAX_POLL_WAIT_MS);
  const wake = [channels.userJobs(link.userId), channels.link(link.linkId)];
  if (state.pool && state.pool_approved) wake.push(channels.poolJobs());
  let handed: Handed[] = [];
  let revoked: Promise<string[]> | null = null;
  let woken = false;
  // Listening from before the first claim: a job placed while it runs is claimed at once after.
  const watching = watch(wake);
  try {
    while (state.runner === "on" && !signal?.aborted) {
      // The claim itself takes nothing from a runner turned off meanwhile; only a wake-up that found
      // nothing to claim asks whether that is why.
      const claimed = await claimAndHandOver(link, request);
      handed = claimed?.handed ?? [];
      revoked = claimed?.revoked ?? null;
      if (handed.length || signal?.aborted) break;
      // Every job claimed was withdrawn as it would have started: on to the next ones at once.
      if (claimed) continue;
      if (woken && !(await runnerOn(link.linkId))) {
        state = { ...state, runner: "off" };
        break;
      }
      const left = deadline - Date.now();
      if (left <= 0) break;
      // Re-check at least every second: pool jobs become claimable by time, not by a message.
      woken = await watching.next(Math.min(left, 1_000), signal);
    }
  } finally {
    watching.close();
  }
  if (signal?.aborted) {
    // Claimed just as the Link hung up (a web process stopping, a dropped connection): nobody will
    // hear of it, so it goes back to the queue now rather than when its start lease runs out (one
    // already started waits for its running lease, as a silent Link's would).
    for (const { job, handover } of handed) if (!handover) await release(link.linkId, job.id);
    return pollResponseSchema.parse({ job: null, runner: state.runner, cancel: [], revoked: [] });
  }
  const first = handed[0];
  return pollResponseSchema.parse({
    job: first ? jobForLink(first.job) : null,
    runner: state.runner,
    cancel: [],
    revoked: await (revoked ?? revokedFor(link.linkId)),
    ...(request.max === undefined
      ? (first?.handover ?? {})
      : { jobs: handed.map(({ job, handover }) => ({ job: jobForLink(job), ...handover })) }),
  });
}

/**
 * The jobs one poll claims, in the claim's order. For a Link that asked for one round trip
 * (`inline`) each is started here, after the checks of `startJob` (read by the claim itself), with
 * its inputs' bytes when they total at most INLINE_INPUTS_MAX_BYTES (and the answer's inline bytes
 * stay within INLINE_ANSWER_MAX_BYTES). A job withdrawn as it would have started (its version or
 * install changed) is cancelled and left out; null when there was nothing to claim. The answer's
 * revoked versions are read meanwhile (`revoked`).
 */
async function claimAndHandOver(
  link: LinkPrincipal,
  request: PollRequest,
): Promise<{ handed: Handed[]; revoked: Promise<string[]> } | null> {
  const claimed = await claimJobs(link, {
    max: request.max ?? 1,
    memFreeBytes: request.mem_free_bytes ?? null,
    leaseTimers: !request.inline,
    startNow: Boolean(request.inline),
  });
  if (!claimed.length) return null;
  const revoked = revokedFor(link.linkId);
  // Awaited by the answer; one the handover's error leaves behind must not be an unhandled rejection.
  revoked.catch(() => undefined);
  if (!request.inline) return { handed: claimed.map((job) => ({ job, handover: null })), revoked };
  // A job of another class or runner is handed over unstarted: the Link refuses it before it runs.
  const unstarted = claimed.filter((job) => !runsOnLinks(job));
  await startLeaseTimers(unstarted);
  const runnable: Claimed[] = [];
  for (const job of claimed.filter(runsOnLinks)) {
    // Started by the claim itself: its start checks held there.
    if (job.started) {
      runnable.push(job);
      continue;
    }
    const withdrawal = withdrawalOf(job.atStart);
    if (withdrawal) await cancelJob(job.id, withdrawal.code, withdrawal.message);
    else runnable.push(job);
  }
  const started = await startClaimedJobs(
    link.linkId,
    runnable.filter((job) => !job.started).map((job) => job.id),
  );
  for (const job of runnable) if (job.started) started.add(job.id);
  let inlineLeft = INLINE_ANSWER_MAX_BYTES;
  const handed: Handed[] = [];
  for (const job of claimed) {
    if (unstarted.includes(job)) {
      handed.push({ job, handover: null });
      continue;
    }
    if (!runnable.includes(job)) continue;
    // Moved since the claim (a cancel in between): the general way words it, or starts it.
    if (!started.has(job.id) && !(await startedAnyway(link, job.id))) continue;
    const handover = await inlineHandover(job, inlineLeft);
    for (const input of handover.inputs ?? []) inlineLeft -= Math.ceil((input.base64.length * 3) / 4);
    handed.push({ job, handover });
  }
  return { handed, revoked };
}

function runsOnLinks(job: ClaimedJob): boolean {
  return (
    job.class === JOB_CLASS &&
    job.artifactName === RUNNER_ARTIFACT.name &&
    job.artifactVersion === RUNNER_ARTIFACT.version
  );
}

async function startedAnyway(link: LinkPrincipal, jobId: string): Promise<boolean> {
  try {
    await startJob(link, jobId);
    return true;
  } catch (err) {
    if (err instanceof AppError) return false;
    throw err;
  }
}

/**
 * A started job's handover, with its inputs' bytes (from the media rows the claim read) when they
 * total at most INLINE_INPUTS_MAX_BYTES and fit in what the answer has left.
 */
async function inlineHandover(job: Claimed, inlineLeft: number): Promise<Handover> {
  const pinned = pinnedInputsSchema.parse(job.inputs);
  const total = pinned.reduce((sum, input) => sum + input.size_bytes, 0);
  if (total > Math.min(INLINE_INPUTS_MAX_BYTES, inlineLeft)) return { started: true };
  const rows = new Map(job.media.map((m) => [m.id, m]));
  const inputs = await Promise.all(
    pinned.map(async (input) => {
      const row = rows.get(input.media_id);
      const bytes = row
        ? await readMediaBytes({ ...row, inlineBytes: row.inline === null ? null : Buffer.from(row.inline, "base64") })
        : (await getMedia(input.media_id)).bytes;
      return { media_id: input.media_id, base64: bytes.toString("base64") };
    }),
  );
  return { started: true, inputs };
}

/** Every few seconds, and every second while the Link holds a job: state, leases, withdrawals. */
export async function heartbeat(link: LinkPrincipal, request: HeartbeatRequest): Promise<HeartbeatResponse> {
  const state = await reportLinkState(link.linkId, {
    runner: request.runner,
    runner_epoch: request.runner_epoch,
    pool: request.pool,
  });
  const held = request.running ?? [];
  await renewLeases(link.linkId, held);
  const [cancel, revoked] = await Promise.all([cancelNotices(link.linkId, held), revokedFor(link.linkId)]);
  return heartbeatResponseSchema.parse({ ...state, cancel, revoked, server_time: Date.now() });
}

async function ownedJob(link: LinkPrincipal, jobId: string): Promise<RunJob> {
  const job = await db.runJob.findUnique({ where: { id: jobId } });
  // Another Link's (or person's) job is indistinguishable from no job at all.
  if (!job || job.linkId !== link.linkId) throw new AppError("run.job.not_found", "That job was not found.");
  return job;
}

function withdrawnError(job: RunJob): AppError {
  const code = job.cancelCode === "run.job.revoked" ? "run.job.revoked" : "run.job.cancelled";
  return new AppError(code, code === "run.job.revoked" ? CANCEL_WORDS.retired : "This job was cancelled.");
}

/** Why a placed job may not start after all (its version or its install changed), in one query. */
async function withdrawalAtStart(job: RunJob): Promise<{ code: CancelCode; message: string } | null> {
  const rows = await db.$queryRaw<StartFacts[]>`
    SELECT v."retiredAt" IS NOT NULL AS retired, v.status, l."findingsHash", i.enabled, i."findingsAckHash" AS ack
    FROM "SkillVersion" AS v
    LEFT JOIN "Listing" AS l ON l."versionId" = v.id
    LEFT JOIN "Install" AS i ON i."userId" = ${job.userId} AND i."versionId" = v.id
    WHERE v.id = ${job.versionId}`;
  return withdrawalOf(rows[0] ?? null);
}

/** Why a job whose version and install read so may not start (null: it may). */
function withdrawalOf(v: StartFacts | null): { code: CancelCode; message: string } | null {
  if (!v || v.retired) return { code: "run.job.revoked", message: CANCEL_WORDS.retired };
  if (v.status === "failed") return { code: "run.job.revoked", message: CANCEL_WORDS.scanFailed };
  if (v.enabled === null) return { code: "run.job.cancelled", message: CANCEL_WORDS.uninstalled };
  if (!v.enabled) return { code: "run.job.cancelled", message: CANCEL_WORDS.disabled };
  if (v.status === "scanning" || !checkFindingsAck(v.status, v.findingsHash, v.ack).ok)
    return {
      code: "run.job.cancelled",
      message: "Its scan findings changed since they were confirmed, so this run was cancelled.",
    };
  return null;
}

/**
 * Start (placed → running). Checked once more first: a version retired or failed since the job was
 * placed is withdrawn (`run.job.revoked`), and so is a skill its person can no longer run.
 */
export async function startJob(link: LinkPrincipal, jobId: string) {
  const job = await ownedJob(link, jobId);
  if (job.state === "cancelled") throw withdrawnError(job);
  if (job.state === "placed") {
    const withdrawal = await withdrawalAtStart(job);
    if (withdrawal) {
      await cancelJob(jobId, withdrawal.code, withdrawal.message);
      throw new AppError(withdrawal.code, withdrawal.message);
    }
  }
  const moved = await start(link.linkId, jobId);
  const now = moved.job ?? job;
  if (!moved.applied && now.state !== "running") {
    if (now.state === "cancelled") throw withdrawnError(now);
    throw new AppError("run.job.finished", `That job is ${now.state}.`);
  }
  return startResponseSchema.parse({ id: jobId, state: "running" });
}

/** The bytes of one pinned input of a job this Link holds (re-verified against its sha256). */
export async function jobInputBytes(link: LinkPrincipal, jobId: string, mediaId: string) {
  const job = await ownedJob(link, jobId);
  if (job.state === "cancelled") throw withdrawnError(job);
  if (job.state !== "placed" && job.state !== "running")
    throw new AppError("run.job.finished", `That job is ${job.state}.`);
  const inputs = pinnedInputsSchema.parse(job.inputs);
  if (!inputs.some((i) => i.media_id === mediaId))
    throw new AppError("media.not_found", "That input is not part of this job.");
  const { bytes } = await getMedia(mediaId);
  return bytes;
}

/**
 * Records a Link's result once, after its signed statement is verified (a forged or mismatched
 * one is refused with `run.result.signature_invalid`, retries too). A repeat answers `recorded: false`; a result
 * for a job that was withdrawn is refused; one that arrives after the job expired is recorded as
 * late (the run happened) and not charged.
 */
export async function recordResult(link: LinkPrincipal, jobId: string, result: JobResultBody): Promise<ResultResponse> {
  const facts = await resultFacts(link.linkId, jobId);
  if (!facts) throw new AppError("run.job.not_found", "That job was not found.");
  const attestation = verifiedAttestation(facts, link.linkId, jobId, result);
  if (await finishAtOnce(link.linkId, jobId, facts, result, attestation)) {
    return resultResponseSchema.parse({
      recorded: true,
      state: result.status === "ok" ? "succeeded" : "failed",
      late: false,
    });
  }
  // A repeat of a result already recorded (a retry) finds the job finished: `recorded: false` below.
  const moved = await finishJob(link.linkId, jobId, result, attestation);
  if (moved.applied) return resultResponseSchema.parse({ recorded: true, state: moved.job.state, late: false });
  const job = moved.job;
  if (!job || job.linkId !== link.linkId) throw new AppError("run.job.not_found", "That job was not found.");
  if (job.state === "cancelled") throw withdrawnError(job);
  if (job.state === "expired") {
    const late = await recordLateResult(link.linkId, jobId, result, attestation);
    return resultResponseSchema.parse({ recorded: late, state: "expired", late: true });
  }
  return resultResponseSchema.parse({ recorded: false, state: job.state, late: false });
}

/**
 * A result and, when it asked (`next`), the Link's next poll without a wait: the jobs for the slot
 * this result frees come back in the answer, one request where a result and a poll were two. Only
 * a first result claims jobs (a late one frees no slot now); each job it hands over records it, so
 * that a repeat of the result (sent because the Link never heard the answer) hands the same jobs
 * over again instead of leaving them to their lease. A claim that fails leaves the recorded result
 * standing: the Link's next poll asks again.
 */
export async function recordResultAndClaim(
  link: LinkPrincipal,
  jobId: string,
  { next, ...result }: JobResultBody,
  signal?: AbortSignal,
): Promise<ResultResponse> {
  const recorded = await recordResult(link, jobId, result);
  if (!next || recorded.late) return recorded;
  try {
    if (!recorded.recorded) {
      const again = await handedAgain(link, jobId, next.runner);
      return again ? resultResponseSchema.parse({ ...recorded, next: again }) : recorded;
    }
    const handed = await pollForJob(link, { ...next, wait_ms: 0 }, signal);
    const ids = (handed.jobs ?? []).map((h) => h.job.id);
    if (ids.length) await markHandedWith(jobId, ids, link.linkId);
    return resultResponseSchema.parse({ ...recorded, next: handed });
  } catch (err) {
    log.warn("link.result_next_failed", { link_id: link.linkId, job_id: jobId, err });
    return recorded;
  }
}

/**
 * The jobs the first answer to this result handed over that still run on this Link, as a poll
 * hands them (started; their inputs fetched as an older Link's are), or null when there are none.
 */
async function handedAgain(link: LinkPrincipal, jobId: string, runner: PollResponse["runner"]) {
  const jobs = await db.runJob.findMany({
    where: { handedWith: jobId, linkId: link.linkId, state: "running" },
    include: { version: { select: { version: true, integrity: true, skill: { select: { slug: true } } } } },
    orderBy: { createdAt: "asc" },
  });
  if (!jobs.length) return null;
  const handed = jobs.map((job) => ({ job: jobForLink(job), started: true as const }));
  return pollResponseSchema.parse({
    job: handed[0]!.job,
    runner,
    cancel: [],
    revoked: await revokedFor(link.linkId),
    jobs: handed,
  });
}

/** A Link shutting down (or whose runner was turned off) hands back a job it has not started. */
export async function releaseJob(link: LinkPrincipal, jobId: string) {
  await ownedJob(link, jobId);
  const moved = await release(link.linkId, jobId);
  return releaseResponseSchema.parse({ released: moved.applied });
}
