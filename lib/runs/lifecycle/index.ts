// The lifecycle of `skill.run` steps and their Run jobs: the only writer of Step and RunJob rows.
// Every change of state is a transition of ./table.ts, applied in one transaction.
export * from "./table";
export { Effects } from "./effects";
export {
  createStep,
  endPendingStep,
  expireDueStep,
  recordApproval,
  lockStep,
  owedSubmissions,
  settleSubmission,
  releaseStepKey,
} from "./steps";
export { submitJob, type SubmitPlan, type SubmitOutcome } from "./submit";
export { submitAtOnce, type AtOncePlan, type AtOnceOutcome } from "./submit-at-once";
export { finishAtOnce } from "./finish-at-once";
export {
  claimJobs,
  markHandedWith,
  startClaimedJobs,
  startLeaseTimers,
  type Claimed,
  type ClaimedJob,
  type ClaimedMedia,
  type StartFacts,
} from "./claim";
export {
  startJob,
  releaseJob,
  finishJob,
  cancelJob,
  onLeaseExpired,
  sweepOne,
  renewLeases,
  recordLateResult,
  byId,
  TX_OPTIONS,
  type Moved,
} from "./jobs";
export { withdraw, type WithdrawScope, type Withdrawn } from "./withdraw";
export { CANCEL_WORDS, EXPIRY_WORDS, RESULT_WORDS, type CancelReason } from "./words";
