// The request bodies and queries of /api/v1: the routes validate with these and the OpenAPI
// document (lib/openapi/document.ts) describes them, so the two cannot drift apart.
import { z } from "zod";
import { API_TOKEN_SCOPES, MAX_TOKEN_DAYS } from "../auth/scopes";

export const AUDIT_DAYS_MIN = 1;
export const AUDIT_DAYS_MAX = 90;
export const AUDIT_DAYS_DEFAULT = 7;

const MICROS = z.string().regex(/^\d{1,13}$/, "a whole number of micro-units");
const param = z.string().max(100).optional();

/** The query parameters of a list route (each then checked by listFilter). */
export const LIST_QUERY = {
  skill: param,
  tool: param,
  agent: param,
  status: param,
  from: param,
  to: param,
  cursor: param,
  limit: param,
};

const auditDays = z.coerce.number().int().min(AUDIT_DAYS_MIN).max(AUDIT_DAYS_MAX).default(AUDIT_DAYS_DEFAULT);

/** The sign-up request body (POST /api/v1/auth/signup). */
export const signUpSchema = z.object({
  email: z
    .string()
    .trim()
    .max(254, "An email address is at most 254 characters.")
    .pipe(z.email("Enter a valid email address.")),
  name: z.string().trim().min(1, "Enter your name.").max(100, "A name is at most 100 characters."),
  password: z
    .string()
    .min(10, "A password needs at least 10 characters.")
    .max(200, "A password is at most 200 characters."),
});

export const allowanceBody = z.object({ daily_limit_micros: MICROS });
export const agentCreateBody = z.object({
  name: z.string().trim().min(1).max(64),
  projectId: z.string().max(64).optional(),
});
export const auditCsvQuery = z.object({ days: auditDays });
export const auditQuery = z.object({
  days: auditDays,
  cursor: z.string().max(200).optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
  skill: z.string().min(1).max(64).optional(),
});
export const balanceQuery = z.object({
  kind: param,
  from: param,
  to: param,
  skill: param,
  agent: param,
  cursor: param,
  limit: param,
});
export const topUpBody = z.object({
  amount_micros: z.union([MICROS, z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)]),
  idempotency_key: z.string().max(128),
});
export const usageQuery = z.object({ from: z.string().max(10).optional(), to: z.string().max(10).optional() });
export const installPatchBody = z.object({ enabled: z.boolean() });
export const installCreateBody = z.object({
  slug: z.string().min(1).max(64),
  version: z.string().min(1).max(128),
  findings_ack: z
    .string()
    .regex(/^sha256:[0-9a-f]{64}$/, "findings_ack is the listing's findings hash, sha256:<64 hex>.")
    .nullish(),
});
export const runnerBody = z.object({ runner: z.enum(["on", "off"]) });
export const projectPatchBody = z.object({ allow_pool: z.boolean() }).strict();
export const runsQuery = z.object(LIST_QUERY);
export const publishQuery = z.object({
  dry_run: z.enum(["0", "1", "true", "false"]).optional(),
  // A SKILL.md folder without metadata.version states it here (`openvibe publish --version`).
  version: z.string().max(64).optional(),
});
export const decisionBody = z.object({ decision: z.enum(["once", "always", "deny"]) });
export const stepWaitQuery = z.object({ wait: z.coerce.number().min(0).max(30).optional() });
export const stepCreateBody = z.object({ skill: z.string().max(200), tool: z.string().max(64), input: z.unknown() });
export const stepsQuery = z.object({ ...LIST_QUERY, pending: z.enum(["0", "1"]).optional() });
export const tokenCreateBody = z.object({
  name: z.string().trim().min(1, "Name the token.").max(64, "A token name is at most 64 characters."),
  scopes: z.array(z.enum(API_TOKEN_SCOPES)).min(1, "Pick at least one scope.").max(API_TOKEN_SCOPES.length * 2).optional(),
  expires_in_days: z.number().int().min(1).max(MAX_TOKEN_DAYS).nullable().optional(),
});
