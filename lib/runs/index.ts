// Run jobs of class `function` for skill tools: submission, the Link's API, the sweep, the run page.
// Every change of Step or RunJob state goes through ./lifecycle.
export { submitStepJob, eligibleLinks, checkLimits, NO_NODE_WORDS, type SubmitOutcome } from "./submit";
export {
  pollForJob,
  heartbeat,
  startJob,
  jobInputBytes,
  recordResult,
  recordResultAndClaim,
  releaseJob,
  jobForLink,
} from "./link-api";
export { onLeaseExpired, withdraw, type CancelReason } from "./lifecycle";
export { expireDueJobs, expireDueLeases, sweepDispatch, type SweepCounts } from "./sweep";
export { getRunForPerson, exportRun, ranOnWords } from "./view";
export { storedAttestation } from "./attestation";
export {
  keysetWhere,
  LIST_QUERY,
  listFilter,
  listRuns,
  runFacets,
  runFilterFromQuery,
  runJson,
  RUN_STATES,
  type ListFilter,
  type RunFilter,
  type RunRow,
} from "./list";
export { projectPoolChoices, setProjectPool } from "./placement";
export { dispatchQueue, DISPATCH_QUEUE, TIMER_JOBS } from "./timers";
export * from "./constants";
