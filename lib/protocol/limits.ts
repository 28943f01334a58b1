// The numbers the server and the Link agree on for a skill job: the runner it names, its limits
// (minimum, cap, default), output and input caps, and its time to live. The contract schemas state
// the same limits (lib/contracts/limits.test.ts proves it), and the Link accepts every value
// inside them (link/protocol-limits.test.ts runs the edges in the real sandbox).

export const JOB_CLASS = "function";
export const RUNNER_ARTIFACT = { name: "openvibe-skill-runner", version: "1.0.0" } as const;

/**
 * What a tool may ask for. The minimums are what the sandbox can honour: below 32 MiB Node does
 * not start reliably, and the wall clock includes starting the sandbox (about 0.1 s here), so a
 * limit under a second would time out a tool that does nothing.
 */
export const LIMITS = {
  wall_ms: { min: 1_000, max: 30_000, default: 10_000 },
  mem_bytes: { min: 33_554_432, max: 268_435_456, default: 134_217_728 },
} as const;

export type Limits = { wall_ms: number; mem_bytes: number };
export const LIMIT_CAPS = { wall_ms: LIMITS.wall_ms.max, mem_bytes: LIMITS.mem_bytes.max } as const;
export const LIMIT_DEFAULTS = { wall_ms: LIMITS.wall_ms.default, mem_bytes: LIMITS.mem_bytes.default } as const;
export const LIMIT_MINIMUMS = { wall_ms: LIMITS.wall_ms.min, mem_bytes: LIMITS.mem_bytes.min } as const;

/** A tool writes one JSON value of at most this many bytes; more ends the job `limit`. */
export const STDOUT_MAX_BYTES = 64 * 1024;
/** stderr kept for the person; the rest is dropped with a note. */
export const STDERR_MAX_BYTES = 16 * 1024;
/** Room for the truncation note the Link appends to a cut stderr. */
export const STDERR_MAX_CHARS = STDERR_MAX_BYTES + 128;
/** A tool's input (the `input` of its call, as JSON). */
export const INPUT_MAX_BYTES = 1024 * 1024;

export const MAX_JOB_INPUTS = 32;
/** A poll answer carries a job's inputs inline when they total at most this (Links that ask for it). */
export const INLINE_INPUTS_MAX_BYTES = 256 * 1024;
/** A pinned input is a Media object; Media objects are at most this big. */
export const MAX_INPUT_OBJECT_BYTES = 8 * 1024 * 1024;
/** A skill job that has not finished this long after submission expires. */
export const JOB_TTL_MS = 120_000;
/** The call description every job carries as its `job.json` input. */
export const CALL_INPUT_NAME = "job.json";
/** Link long-poll: the longest a poll waits for a job. */
export const MAX_POLL_WAIT_MS = 25_000;
/** Most jobs one Link reports as running (and hears about) in one heartbeat. */
export const MAX_JOBS_PER_HEARTBEAT = 32;
/** Most jobs one poll asks for (a Link's free slots) and one answer hands over. */
export const MAX_JOBS_PER_POLL = 16;
/** The inline inputs of all the jobs of one poll answer together; the jobs past it fetch theirs. */
export const INLINE_ANSWER_MAX_BYTES = 4 * INLINE_INPUTS_MAX_BYTES;
