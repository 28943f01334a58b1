// The server's timing of dispatch. What the Link must agree on (limits, the runner, the TTL) is
// lib/protocol's.
export {
  CALL_INPUT_NAME,
  JOB_CLASS,
  JOB_TTL_MS,
  LIMIT_CAPS,
  MAX_JOB_INPUTS,
  MAX_POLL_WAIT_MS,
  RUNNER_ARTIFACT,
} from "../protocol";

/** The person's own Links get a job first; pool Links may take it after this long. */
export const OWN_LINKS_FIRST_MS = 3_000;
/** A placed job must be started by its Link within this long, or it is placed again. */
export const START_LEASE_MS = 15_000;
/**
 * A running job's lease: its Link's heartbeat (every second while it runs a job) renews it, so it
 * runs out only when the Link has gone silent. A job that started is then expired, never run again
 * elsewhere: a Link that is cut off may still be running it.
 */
export const RUNNING_LEASE_MS = 30_000;
/**
 * A running job's lease never reaches past its wall time plus this from its start: time for its
 * Link to deliver the result through retries. Past it the job expires; a result still on its way
 * is recorded late.
 */
export const RESULT_DELIVERY_MS = 60_000;
/** How many Links may be given one job (before any of them starts it) before it expires instead. */
export const MAX_PLACEMENTS = 3;
/** Where a revoked version's jobs may still be on a Link: jobs given to it this recently. */
export const REVOCATION_WINDOW_MS = 15 * 60_000;
