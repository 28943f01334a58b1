// Run jobs of class `function` for skill tools: submission, dispatch to Links, results, timers.
export { submitStepJob, eligibleLinks, finishStep, checkLimits, type JobInput } from "./submit";
export {
  pollForJob,
  startJob,
  jobInputBytes,
  recordResult,
  releaseJob,
  onLeaseExpired,
  onJobTtl,
  jobResultSchema,
  jobForLink,
  type JobResultBody,
} from "./dispatch";
export { getRunForPerson } from "./view";
export { dispatchQueue, DISPATCH_QUEUE, TIMER_JOBS } from "./timers";
export * from "./constants";
