// Installs: a person's installed skills, the "always allow" grants that go with a version, the
// check the steps code makes before a tool runs, and the audit of what the skills did.
export {
  installSkill,
  listInstalls,
  getInstall,
  setInstallEnabled,
  uninstallSkill,
  listGrants,
  revokeGrant,
  grantAlwaysAllow,
  type InstallView,
  type InstallResult,
  type InstallOutcome,
  type GrantView,
} from "./service";
export { requireRunnableInstall, requireRunnableVersion, hasAlwaysAllow } from "./runnable";
export { installPlan, type InstallPlan, type PageFinding } from "./install-page";
export {
  listAudit,
  auditSummary,
  auditHosts,
  auditReport,
  auditCsv,
  assertAuditDays,
  SKILL_RUN_KIND,
  AUDIT_DAYS_MIN,
  AUDIT_DAYS_MAX,
  AUDIT_DAYS_DEFAULT,
  type AuditRow,
  type AuditPage,
  type AuditSummaryRow,
  type AuditHostRow,
  type AuditReport,
} from "./audit";
export {
  capabilitiesOf,
  diffCapabilities,
  kindWords,
  limitWords,
  type Capabilities,
  type CapabilityDiff,
  type ToolCapability,
} from "./capabilities";
export { installBlock, checkFindingsAck, STATUS_WORDS, type InstallBlock } from "./rules";
