// A call under an "always allow" grant recorded and submitted at once, by one SQL statement
// (./submit-batch.ts): the step is written `queued` together with its job, the call's `job.json`
// (in its MediaObject row: no file is written),
// the agent's allowance reservation and the run's hold. It does the work of createStep + submitJob
// for the plain case and nothing else: when the allowance does not cover the run, the balance does
// not (the ledger's CHECK refuses the hold), or the key is taken, nothing is written and the caller
// goes the usual way, which decides and words those outcomes.
import "server-only";
import { utcText, type Step } from "../../db";
import { inlineMediaRow, MEDIA_INLINE_MAX_BYTES } from "../../media";
import {
  CALL_INPUT_NAME,
  JOB_CLASS,
  JOB_TTL_MS,
  MAX_JOB_INPUTS,
  RUNNER_ARTIFACT,
  type Limits,
  type NetPolicy,
  type PinnedInput,
} from "../../protocol";
import { Effects } from "./effects";
import { newJobId, newMediaId, newRowId } from "./ids";
import { writeCall } from "./submit-batch";

export type AtOncePlan = {
  step: {
    userId: string;
    projectId: string;
    agentId: string;
    versionId: string;
    kind: string;
    label: string;
    target: string;
    tool: string;
    input: unknown;
    net: NetPolicy;
    expiresAt: Date;
    idempotencyKey: string | null;
  };
  skillSlug: string;
  limits: Limits;
  worstCaseMicros: bigint;
  pins: PinnedInput[];
  call: Buffer;
  poolAllowed: boolean;
  poolAfter: Date;
  now: Date;
};

export type AtOnceOutcome = { kind: "queued"; step: Step; jobId: string } | { kind: "not_now" };

export async function submitAtOnce(plan: AtOncePlan): Promise<AtOnceOutcome> {
  const { step: s } = plan;
  // The call object makes one more input, kept in its row: too many pins, or a call object too large
  // for a row, is the general way's to word.
  if (plan.pins.length + 1 > MAX_JOB_INPUTS || plan.call.length > MEDIA_INLINE_MAX_BYTES) return { kind: "not_now" };
  const stepId = newRowId();
  const jobId = newJobId();
  const jobExpiresAt = new Date(plan.now.getTime() + JOB_TTL_MS);
  const blob = inlineMediaRow({
    id: newMediaId(),
    bytes: plan.call,
    mediaType: "application/json",
    ownerId: s.userId,
  });
  const inputs: PinnedInput[] = [
    ...plan.pins,
    { name: CALL_INPUT_NAME, media_id: blob.id, sha256: blob.sha256, size_bytes: blob.sizeBytes },
  ];
  const held = await writeCall(
    {
      userId: s.userId,
      jobClass: JOB_CLASS,
      artifactName: RUNNER_ARTIFACT.name,
      artifactVersion: RUNNER_ARTIFACT.version,
      ttlMs: JOB_TTL_MS,
    },
    {
      stepId,
      projectId: s.projectId,
      agentId: s.agentId,
      versionId: s.versionId,
      kind: s.kind,
      label: s.label,
      target: s.target,
      tool: s.tool,
      inputJson: JSON.stringify(s.input),
      net: s.net,
      idempotencyKey: s.idempotencyKey,
      expiresAt: utcText(s.expiresAt),
      mediaId: blob.id,
      sha256: blob.sha256,
      sizeBytes: blob.sizeBytes,
      mediaType: blob.mediaType,
      storageKey: blob.storageKey,
      inlineHex: blob.inlineBytes.toString("hex"),
      jobId,
      inputsJson: JSON.stringify(inputs),
      worstCaseMicros: plan.worstCaseMicros.toString(),
      wallMs: plan.limits.wall_ms,
      memBytes: String(plan.limits.mem_bytes),
      poolAllowed: plan.poolAllowed,
      poolAfter: utcText(plan.poolAfter),
      jobExpiresAt: utcText(jobExpiresAt),
      ledgerId: newRowId(),
      skillSlug: plan.skillSlug,
      memo: `Run of ${plan.skillSlug}: held at its limits`,
      now: utcText(plan.now),
      day: plan.now.toISOString().slice(0, 10),
    },
  );
  if (!held) return { kind: "not_now" };
  // Committed. Not waited for: wake-ups and an early timer only make it faster.
  void new Effects()
    .stepChanged({ id: stepId, userId: s.userId })
    .jobQueued(s.userId)
    .jobExpires(jobExpiresAt)
    .run();
  const step: Step = {
    ...s,
    id: stepId,
    input: s.input as Step["input"],
    status: "queued",
    approval: "grant",
    decidedAt: plan.now,
    result: null,
    message: null,
    wallMs: null,
    exitStatus: null,
    createdAt: plan.now,
    updatedAt: plan.now,
  };
  return { kind: "queued", step, jobId };
}
