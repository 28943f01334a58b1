// The state machines of a `skill.run` step and its Run job, as data: every transition there is, the
// job states it may start from, and what it makes of the job and of its step. The lifecycle module
// applies nothing that is not in this table; its unit test walks it.
import type { JobState } from "../../protocol";

export const STEP_STATUSES = [
  "pending_approval",
  "queued",
  "running",
  "succeeded",
  "failed",
  "denied",
  "expired",
  "no_node",
  "insufficient_balance",
  "cancelled",
] as const;
export type StepStatus = (typeof STEP_STATUSES)[number];

export const STEP_FINAL: readonly StepStatus[] = [
  "succeeded",
  "failed",
  "denied",
  "expired",
  "no_node",
  "insufficient_balance",
  "cancelled",
];
export const JOB_FINAL: readonly JobState[] = ["succeeded", "failed", "cancelled", "expired"];
export const JOB_ACTIVE: readonly JobState[] = ["queued", "placed", "running"];

export const isStepFinal = (status: string) => (STEP_FINAL as readonly string[]).includes(status);
export const isJobFinal = (state: string) => (JOB_FINAL as readonly string[]).includes(state);

/** Transitions of a step that has no job yet (it waits for the person, or was never submitted). */
export const STEP_ONLY = {
  /** Submitted: its job is created in the same transaction. */
  submit: { from: ["pending_approval"], to: "queued" },
  deny: { from: ["pending_approval"], to: "denied" },
  expire: { from: ["pending_approval"], to: "expired" },
  noNode: { from: ["pending_approval"], to: "no_node" },
  insufficientBalance: { from: ["pending_approval"], to: "insufficient_balance" },
  /** Nothing can run it any more (skill disabled, uninstalled, retired) before it was submitted. */
  block: { from: ["pending_approval"], to: "failed" },
  cancel: { from: ["pending_approval"], to: "cancelled" },
} as const satisfies Record<string, { from: readonly StepStatus[]; to: StepStatus }>;
export type StepOnlyTransition = keyof typeof STEP_ONLY;

/**
 * Transitions of a job, and what each makes of its step. `step: null` leaves the step's status as
 * it is. A job's step moves only through its job once the job exists.
 */
export const JOB_TRANSITIONS = {
  /** A Link took it. */
  claim: { from: ["queued"], to: "placed", step: null },
  /** Its Link began to run it. */
  start: { from: ["placed"], to: "running", step: { from: ["queued"], to: "running" } },
  /** Its Link handed it back before running it (shutting down, or its runner was turned off). */
  release: { from: ["placed"], to: "queued", step: null },
  /** Its Link went silent before starting it: placed again on another Link. */
  requeue: { from: ["placed"], to: "queued", step: null },
  /**
   * Its Link went silent while running it: placed again, on another of its person's own Links only
   * (never the silent one, whose result is then refused), or it expires when there is none.
   */
  replace: { from: ["running"], to: "queued", step: { from: ["running"], to: "queued" } },
  succeed: { from: ["placed", "running"], to: "succeeded", step: { from: ["queued", "running"], to: "succeeded" } },
  fail: { from: ["placed", "running"], to: "failed", step: { from: ["queued", "running"], to: "failed" } },
  /** Withdrawn: the skill was disabled, uninstalled or retired, a grant or the Link was revoked. */
  cancel: {
    from: ["queued", "placed", "running"],
    to: "cancelled",
    step: { from: ["queued", "running"], to: "cancelled" },
  },
  /** Not finished by its time to live, or its last Link went silent. */
  expire: {
    from: ["queued", "placed", "running"],
    to: "expired",
    step: { from: ["queued", "running"], to: "expired" },
  },
} as const satisfies Record<
  string,
  {
    from: readonly JobState[];
    to: JobState;
    step: { from: readonly StepStatus[]; to: StepStatus } | null;
  }
>;
export type JobTransition = keyof typeof JOB_TRANSITIONS;

export function jobMayMove(transition: JobTransition, state: string): boolean {
  return (JOB_TRANSITIONS[transition].from as readonly string[]).includes(state);
}

export function stepMayMove(transition: StepOnlyTransition, status: string): boolean {
  return (STEP_ONLY[transition].from as readonly string[]).includes(status);
}

/** The step status a job transition leads to from `current`, or null when it leaves the step alone. */
export function stepAfterJob(transition: JobTransition, current: string): StepStatus | null {
  const step = JOB_TRANSITIONS[transition].step;
  if (!step || !(step.from as readonly string[]).includes(current)) return null;
  return step.to;
}
