// The Run contract's numbers for skill jobs (ADR-060 and Run's published conventions).
export const RUNNER_ARTIFACT = { name: "openvibe-skill-runner", version: "1.0.0" } as const;
export const JOB_CLASS = "function";
/** A skill job that has not finished this long after submission expires. */
export const JOB_TTL_MS = 120_000;
export const MAX_JOB_INPUTS = 32;
export const LIMIT_CAPS = { wall_ms: 30_000, mem_bytes: 268_435_456 } as const;
/** The person's own Links get a job first; pool Links may take it after this long. */
export const OWN_LINKS_FIRST_MS = 3_000;
/** A placed job must be started by its Link within this long, or it is placed again. */
export const START_LEASE_MS = 15_000;
/** A running job may take its wall time plus this long to report, or it is placed again. */
export const RESULT_GRACE_MS = 20_000;
/** How many Links may be given one job before it expires instead. */
export const MAX_PLACEMENTS = 2;
/** Link long-poll: the longest a poll waits for a job. */
export const MAX_POLL_WAIT_MS = 25_000;
/** The call description every job carries as its `job.json` input. */
export const CALL_INPUT_NAME = "job.json";
