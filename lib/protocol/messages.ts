// Every message between a Link and the registry, as zod schemas. The server parses each request
// with these and builds each answer through them; the Link parses each answer the same way before
// it acts on anything. Nothing a Link receives is trusted by a type cast.
import { z } from "zod";
import { signedStatementSchema } from "./attestation";
import type { EgressRecord } from "./egress";
import {
  INLINE_INPUTS_MAX_BYTES,
  LIMITS,
  MAX_INPUT_OBJECT_BYTES,
  MAX_JOB_INPUTS,
  MAX_JOBS_PER_HEARTBEAT,
  MAX_JOBS_PER_POLL,
  MAX_POLL_WAIT_MS,
  STDERR_MAX_CHARS,
  STDOUT_MAX_BYTES,
} from "./limits";
import { netPolicySchema } from "./net";
import {
  ERROR_CODE_PATTERN,
  INPUT_NAME_PATTERN,
  INTEGRITY_PATTERN,
  JOB_ID_PATTERN,
  LINK_ID_PATTERN,
  MEDIA_ID_PATTERN,
  SHA256_PATTERN,
  SLUG_PATTERN,
  TOOL_NAME_PATTERN,
} from "./patterns";
import { CANCEL_CODES, JOB_STATES, RESULT_STATUSES, type RunOutcome } from "./statuses";

const re = (pattern: string) => new RegExp(pattern);

export const jobIdSchema = z.string().regex(re(JOB_ID_PATTERN));
export const linkIdSchema = z.string().regex(re(LINK_ID_PATTERN));
export const integritySchema = z.string().regex(re(INTEGRITY_PATTERN));
export const errorCodeSchema = z.string().max(100).regex(re(ERROR_CODE_PATTERN));

// --- The job -------------------------------------------------------------------------------

export const pinnedInputSchema = z.strictObject({
  name: z.string().regex(re(INPUT_NAME_PATTERN)),
  media_id: z.string().regex(re(MEDIA_ID_PATTERN)),
  sha256: z.string().regex(re(SHA256_PATTERN)),
  size_bytes: z.number().int().min(0).max(MAX_INPUT_OBJECT_BYTES),
});
export type PinnedInput = z.infer<typeof pinnedInputSchema>;

export const pinnedInputsSchema = z
  .array(pinnedInputSchema)
  .min(1)
  .max(MAX_JOB_INPUTS)
  .refine((inputs) => new Set(inputs.map((i) => i.name)).size === inputs.length, "input names repeat");

export const jobLimitsSchema = z.strictObject({
  wall_ms: z.number().int().min(LIMITS.wall_ms.min).max(LIMITS.wall_ms.max),
  mem_bytes: z.number().int().min(LIMITS.mem_bytes.min).max(LIMITS.mem_bytes.max),
});

/** The skill version a job runs: the Link refuses a job whose integrity the server has revoked. */
export const jobSkillSchema = z.strictObject({
  slug: z.string().regex(re(SLUG_PATTERN)),
  version: z.string().min(1).max(64),
  tool: z.string().regex(re(TOOL_NAME_PATTERN)),
  integrity: integritySchema,
});

/**
 * A job as the Link runs it. `class` and `artifact` are any short strings here on purpose: a Link
 * that is sent a class or runner it does not implement refuses the job (`run.job.unsupported`)
 * instead of failing to read it.
 */
export const jobSchema = z.strictObject({
  id: jobIdSchema,
  class: z.string().min(1).max(64),
  artifact: z.strictObject({ name: z.string().min(1).max(128), version: z.string().min(1).max(64) }),
  skill: jobSkillSchema,
  inputs: pinnedInputsSchema,
  net: netPolicySchema,
  limits: jobLimitsSchema,
  ttl_ms: z.number().int().min(1).max(3_600_000),
  expires_at: z.iso.datetime(),
});
export type Job = z.infer<typeof jobSchema>;

/**
 * How a poll answer carries a job: only its id is read first, so a job the Link cannot read is
 * still one it can refuse by id (`run.job.invalid`) rather than one left to time out.
 */
export const jobEnvelopeSchema = z.looseObject({ id: jobIdSchema });

/** `job.json`: which tool of the pinned code to run, and its input. */
export const callSchema = z.strictObject({
  tool: z.string().regex(re(TOOL_NAME_PATTERN)),
  entry: z.string().min(1).max(200),
  input: z.unknown(),
});
export type Call = z.infer<typeof callSchema>;

// --- Link → server --------------------------------------------------------------------------

export const runnerSchema = z.enum(["on", "off"]);
export type Runner = z.infer<typeof runnerSchema>;

/**
 * What a Link says about itself on every poll and heartbeat. `runner_epoch` counts the owner's
 * `skills on|off` on that machine, so an older report can never undo a newer switch, and the
 * dashboard's "turn off" holds until the owner turns the runner on again after it.
 */
export const linkReportSchema = z.strictObject({
  runner: runnerSchema,
  runner_epoch: z.number().int().min(0).max(2_147_483_647),
  pool: z.boolean(),
});
export type LinkReport = z.infer<typeof linkReportSchema>;

export const pollRequestSchema = linkReportSchema.extend({
  wait_ms: z.number().int().min(0).max(MAX_POLL_WAIT_MS),
  /**
   * One round trip from claim to run: the job comes back already started, with its inputs inline
   * when they total at most INLINE_INPUTS_MAX_BYTES. Older Links leave it out (start, fetch each input).
   */
  inline: z.boolean().optional(),
  /**
   * How many jobs this Link can start now (its free slots), and the memory they may take together
   * (its budget less what its running jobs hold). With `max`, the answer's `jobs` lists every job
   * handed over; without it, a poll hands over at most one, in `job`.
   */
  max: z.number().int().min(1).max(MAX_JOBS_PER_POLL).optional(),
  mem_free_bytes: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
export type PollRequest = z.infer<typeof pollRequestSchema>;

/**
 * A poll folded into a job's result (no wait): the jobs for the slot that result frees come back
 * in its answer's `next`, without a poll of their own. A Link sends it only with a result it just
 * produced, never with one kept from before a restart.
 */
export const nextPollSchema = pollRequestSchema.omit({ wait_ms: true });
export type NextPoll = z.infer<typeof nextPollSchema>;

export const heartbeatRequestSchema = linkReportSchema.extend({
  /** Jobs this Link holds right now (claimed or running): their leases are extended. */
  running: z.array(jobIdSchema).max(MAX_JOBS_PER_HEARTBEAT).default([]),
});
export type HeartbeatRequest = z.input<typeof heartbeatRequestSchema>;

export const resultRequestSchema = z
  .strictObject({
    status: z.enum(RESULT_STATUSES),
    output: z.unknown().optional(),
    stderr: z.string().max(STDERR_MAX_CHARS).default(""),
    exit: z.number().int().nullable().default(null),
    wall_ms: z.number().int().min(0).max(600_000),
    max_rss_bytes: z.number().int().min(0).nullable().default(null),
    code: errorCodeSchema.optional(),
    /** The Link's signed statement of this result (lib/protocol/attestation.ts); checked before it is recorded. */
    attestation: signedStatementSchema,
    next: nextPollSchema.optional(),
  })
  .superRefine((result, ctx) => {
    if (result.status !== "ok") return;
    if (result.output === undefined) {
      ctx.addIssue({ code: "custom", path: ["output"], message: "An ok result carries its output." });
    } else if (Buffer.byteLength(JSON.stringify(result.output)) > STDOUT_MAX_BYTES) {
      ctx.addIssue({
        code: "custom",
        path: ["output"],
        message: "An output is at most 64 KiB; a larger one is status `limit`.",
      });
    }
  });
export type ResultRequest = z.input<typeof resultRequestSchema>;

/** What one run produces on the Link: what `openvibe-link exec` prints and, unless cancelled, what it reports. */
export type LinkRunResult = {
  status: RunOutcome;
  output: unknown;
  stderr: string;
  exit: number | null;
  wall_ms: number;
  max_rss_bytes: number | null;
  /** Set when the job never ran (`integrity`, `refused`): the stable reason. */
  code?: string;
  /** Every connection the tool tried through the egress proxy (empty for `net: deny`). */
  egress?: EgressRecord;
};
export type JobResultBody = z.output<typeof resultRequestSchema>;

const pairingNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[\p{L}\p{N} ._'()-]+$/u, "Use letters, digits, spaces and . _ ' ( ) -");

export const pairRequestSchema = z.strictObject({ code: z.string().trim().min(6).max(32), name: pairingNameSchema });

// --- server → Link --------------------------------------------------------------------------

export const cancelNoticeSchema = z.strictObject({
  id: jobIdSchema,
  code: z.enum(CANCEL_CODES),
  message: z.string().max(500),
});
export type CancelNotice = z.infer<typeof cancelNoticeSchema>;

/** What every poll and heartbeat answer tells the Link, besides its own content. */
const directives = {
  /** The runner as the server will treat it: "off" when the dashboard turned it off remotely. */
  runner: runnerSchema,
  /** Jobs this Link holds that the server withdrew: kill them, report nothing. */
  cancel: z.array(cancelNoticeSchema).max(MAX_JOBS_PER_HEARTBEAT),
  /** Integrity hashes of retired or failed versions this Link was given jobs of: never run them. */
  revoked: z.array(integritySchema).max(256),
};

/** A pinned input's bytes in a poll answer; the Link checks them against the job's sha256 as it would fetched ones. */
export const inlineInputSchema = z.strictObject({
  media_id: z.string().regex(re(MEDIA_ID_PATTERN)),
  base64: z.string().max(Math.ceil(INLINE_INPUTS_MAX_BYTES / 3) * 4),
});

const handover = {
  /** Only to a poll with `inline`: the job is already running (no separate start), and its inputs when small. */
  started: z.literal(true).optional(),
  inputs: z.array(inlineInputSchema).max(MAX_JOB_INPUTS).optional(),
};

/** One job of a poll answer with `jobs`, with its handover. */
export const handedJobSchema = z.strictObject({ job: jobEnvelopeSchema, ...handover });
export type HandedJob = z.infer<typeof handedJobSchema>;

export const pollResponseSchema = z.strictObject({
  ...directives,
  /** The job handed over (with `jobs`: the first of them). */
  job: jobEnvelopeSchema.nullable(),
  ...handover,
  /** To a poll with `max`: every job handed over, oldest first and fairly across agents. */
  jobs: z.array(handedJobSchema).max(MAX_JOBS_PER_POLL).optional(),
});
export type PollResponse = z.infer<typeof pollResponseSchema>;

export const heartbeatResponseSchema = z.strictObject({
  ...directives,
  link_id: linkIdSchema,
  name: z.string().max(64),
  pool: z.boolean(),
  /** Whether an operator approved this machine for OpenVibe's pool (only then does `--pool` mean anything). */
  pool_approved: z.boolean(),
  server_time: z.number().int(),
});
export type HeartbeatResponse = z.infer<typeof heartbeatResponseSchema>;

export const startResponseSchema = z.strictObject({ id: jobIdSchema, state: z.literal("running") });

export const resultResponseSchema = z.strictObject({
  /** False when this result was already recorded (a retry): nothing changed. */
  recorded: z.boolean(),
  state: z.enum(JOB_STATES),
  /** True when the job had expired before its result arrived (recorded for the record). */
  late: z.boolean(),
  /** To a first result that asked for `next`: the poll's answer, as if the Link had polled without waiting. */
  next: pollResponseSchema.optional(),
});
export type ResultResponse = z.infer<typeof resultResponseSchema>;

export const releaseResponseSchema = z.strictObject({ released: z.boolean() });

export const pairResponseSchema = z.strictObject({ link_id: linkIdSchema, name: z.string().max(64) });

/** The one error shape of every answer that is not 2xx. */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().max(100),
    message: z.string().max(4000),
    details: z.unknown().optional(),
    requestId: z.string().max(100).optional(),
  }),
});
