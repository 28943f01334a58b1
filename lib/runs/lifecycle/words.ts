// What the person and the agent read about how a run ended.
import type { ResultStatus } from "../../protocol";

export const RESULT_WORDS: Record<ResultStatus, string> = {
  ok: "The tool ran and returned its result.",
  error: "The tool failed (it threw or exited with an error).",
  output: "The tool did not write exactly one JSON value.",
  limit: "The tool's output was over 64 KiB.",
  timeout: "The tool ran past its time limit and was stopped.",
  oom: "The tool ran past its memory limit and was stopped.",
  integrity: "The code's bytes did not match the scanned bytes, so nothing ran.",
  refused: "The Link could not enforce what the job asks, so it refused to run it.",
};

export const REFUSAL_WORDS: Record<string, string> = {
  "run.job.unsupported": "The Link does not run this kind of job, so it refused it.",
  "run.job.revoked": "This version was retired or failed its scan, so the Link refused to run it.",
  "run.job.invalid": "The Link could not read this job, so it refused it.",
  "run.job.not_in_log": "This version is not in the registry's public transparency log, so the Link refused to run it.",
  "run.job.listing_changed":
    "This version's listing no longer matches the one in the public transparency log (it was changed), so the Link refused to run it.",
  "run.job.log_unverifiable":
    "The Link could not check this version against the public transparency log, so it refused to run it.",
};

export const EXPIRY_WORDS = {
  ttl: "No Link finished this run within its 120 s time to live.",
  silent: "Its Link stopped answering and no other Link finished it in time.",
  silentStarted:
    "Its Link started the run and then stopped answering; the run may have happened, but its result never arrived. You were not charged.",
  approval: "Nobody approved this step in time.",
} as const;

export const REPLACED_WORDS =
  "Its Link stopped answering while it ran, so it was placed on another of your Links. It is charged once, for the run that reports.";

export const LATE_WORDS =
  "The run happened on its Link, but its result arrived after the run had expired. It is recorded here; you were not charged.";

export const CANCEL_WORDS = {
  disabled: "The skill was disabled, so this run was cancelled.",
  uninstalled: "The skill was uninstalled, so this run was cancelled.",
  moved: "The skill was moved to another version, so this run of the old one was cancelled.",
  grantRevoked: "The “always allow” for this tool was revoked, so this run was cancelled.",
  retired: "This version was retired by its author, so this run was cancelled.",
  scanFailed: "This version failed its scan, so this run was cancelled.",
  linkRevoked: "The Link running it was revoked, so this run was cancelled.",
  poolRevoked: "The pool machine running it was taken out of OpenVibe's pool, so this run was cancelled.",
} as const;
export type CancelReason = keyof typeof CANCEL_WORDS;
