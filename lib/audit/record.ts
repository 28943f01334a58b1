// The one writer of the audit trail: every AuditEvent row is made here, with an action from the
// closed list below. It returns Prisma's promise, so it joins a `$transaction([...])` batch or an
// interactive transaction (pass `tx`) like any other write.
import "server-only";
import type { DbTx, Prisma } from "../db";

export const AUDIT_ACTIONS = [
  "user.created",
  "user.operator_granted",
  "user.operator_revoked",
  "token.created",
  "token.revoked",
  "agent.created",
  "agent.revoked",
  "oauth.authorized",
  "skill.published",
  "skill.retired",
  "scan.verdict_changed",
  "scan.verdict_worse",
  "skill.installed",
  "skill.upgraded",
  "skill.downgraded",
  "skill.enabled",
  "skill.disabled",
  "skill.uninstalled",
  "grant.created",
  "grant.revoked",
  "link.paired",
  "link.runner_off",
  "link.revoked",
  "link.pool_approved",
  "link.pool_revoked",
  "project.pool_allowed",
  "project.pool_refused",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export type AuditEntry = {
  userId?: string | null;
  /** Who did it: `user:<id>`, `admin-cli`, … */
  actor: string;
  action: AuditAction;
  subjectType: string;
  subjectId: string;
  data?: Prisma.InputJsonObject;
};

/** A client that can write audit rows: the Prisma client or a transaction's. */
type AuditWriter = Pick<DbTx, "auditEvent"> | Pick<Prisma.TransactionClient, "auditEvent">;

export function recordAudit(client: AuditWriter, entry: AuditEntry) {
  return (client.auditEvent as Pick<DbTx, "auditEvent">["auditEvent"]).create({ data: entry });
}
