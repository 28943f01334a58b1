// Closed tables of what a run can be and how it can end, shared by the server and the Link.

/** How a job's run ended, as the Link reports it. */
export const RESULT_STATUSES = ["ok", "error", "output", "limit", "timeout", "oom", "integrity", "refused"] as const;
export type ResultStatus = (typeof RESULT_STATUSES)[number];

/**
 * How a run ends on the Link itself: a result status, or `cancelled` when the server withdrew the
 * job and the Link killed it. A cancelled run is never reported: the server already ended it.
 */
export const RUN_OUTCOMES = [...RESULT_STATUSES, "cancelled"] as const;
export type RunOutcome = (typeof RUN_OUTCOMES)[number];

/** Run job states (OpenVibe's Run contract). */
export const JOB_STATES = ["queued", "placed", "running", "succeeded", "failed", "cancelled", "expired"] as const;
export type JobState = (typeof JOB_STATES)[number];

/** Why a Link did not run a job it was given (a `refused` or `integrity` result's `code`). */
export const REFUSAL_CODES = [
  "run.job.unsupported",
  "run.job.revoked",
  "run.job.invalid",
  "run.job.inputs_invalid",
  "run.job.input_digest_mismatch",
  "run.job.not_in_log",
  "run.job.listing_changed",
  "run.job.log_unverifiable",
  "run.limits.exceeded",
  "run.limits.invalid",
  "run.net.invalid",
  "link.exec.entry_invalid",
  "link.sandbox.refused",
  "link.sandbox.unavailable",
  "link.internal",
] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

/** Why the server withdrew a job from its Link. */
export const CANCEL_CODES = ["run.job.cancelled", "run.job.revoked"] as const;
export type CancelCode = (typeof CANCEL_CODES)[number];

/**
 * Error codes with which the server says a job is gone for this Link: a result or heartbeat about
 * it can stop being retried. Any other 4xx is a bug to report, a 5xx or 429 is "try again".
 */
export const JOB_GONE_CODES = [
  "run.job.not_found",
  "run.job.finished",
  "run.job.cancelled",
  "run.job.revoked",
] as const;

export function isJobGoneCode(code: string): boolean {
  return JOB_GONE_CODES.some((gone) => gone === code);
}
