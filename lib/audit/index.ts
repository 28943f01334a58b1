// The audit trail's one writer (reads of it are in lib/installs/audit.ts, per person).
export { AUDIT_ACTIONS, recordAudit, type AuditAction, type AuditEntry } from "./record";
