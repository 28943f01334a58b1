// Shapes of the identifiers that cross between the registry and the Link.

export const SHA256_PATTERN = "^[0-9a-f]{64}$";
export const MEDIA_ID_PATTERN = "^med_[0-9A-HJKMNP-TV-Z]{26}$";
export const INTEGRITY_PATTERN = "^sha256:[0-9a-f]{64}$";
/** `job_` and a lowercase ULID. */
export const JOB_ID_PATTERN = "^job_[0-9a-z]{26}$";
/** A Link id (a cuid) as the server makes it. */
export const LINK_ID_PATTERN = "^[a-z0-9]{20,40}$";
/**
 * A job input's name: a relative path of plain segments (code may live in folders, e.g.
 * tools/stats.js); no segment starts with a dot, so nothing can climb out of the job folder.
 */
export const INPUT_NAME_PATTERN =
  "^(?=.{1,200}$)[A-Za-z0-9][A-Za-z0-9._-]{0,127}(/[A-Za-z0-9][A-Za-z0-9._-]{0,127})*$";
export const TOOL_NAME_PATTERN = "^[a-z][a-z0-9_]{0,31}$";
export const SLUG_PATTERN = "^[a-z0-9][a-z0-9-]{1,62}[a-z0-9]$";
/** A stable dotted error code, e.g. `run.job.revoked`. */
export const ERROR_CODE_PATTERN = "^[a-z][a-z0-9_]*(\\.[a-z][a-z0-9_]*)*$";
