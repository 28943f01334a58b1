// Every /api/v1 operation the OpenAPI document lists: its summary, who may call it, the schemas
// its route validates with and its success status. test/unit/openapi.test.ts fails when this
// table and app/api/v1/**/route.ts disagree.
import type { ZodType } from "zod";
import * as s from "./schemas";

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
/** session: signed-in cookie; agent: an agent's bearer token; api: an API token or a session; operator: an operator's session. */
export type Auth = "public" | "session" | "agent" | "api" | "operator";

export type Operation = {
  path: string;
  method: Method;
  tag: string;
  summary: string;
  auth: Auth;
  body?: ZodType;
  query?: ZodType;
  /** The success status (200 unless stated). */
  status?: number;
  /** The success response's media type (application/json unless stated). */
  produces?: string;
  idempotent?: boolean;
  /** Takes RFC 7240 `Prefer: wait=<s>`: answers once the work ends, within that many seconds. */
  preferWait?: boolean;
};

const op = (path: string, method: Method, tag: string, auth: Auth, summary: string, more: Partial<Operation> = {}) =>
  ({ path, method, tag, auth, summary, ...more }) satisfies Operation;

export const OPERATIONS: Operation[] = [
  op("/auth/signup", "POST", "Account", "public", "Create an account and its default project.", {
    body: s.signUpSchema,
    status: 201,
  }),
  op("/openapi.json", "GET", "Account", "public", "This OpenAPI 3.1 document."),
  op("/me", "GET", "Account", "api", "The signed-in person or the token's owner."),
  op("/tokens", "GET", "Account", "session", "List the person's API tokens."),
  op("/tokens", "POST", "Account", "session", "Create an API token (its secret is shown once).", {
    body: s.tokenCreateBody,
    status: 201,
  }),
  op("/tokens/{id}", "DELETE", "Account", "session", "Revoke an API token."),
  op("/projects/{id}", "PATCH", "Account", "session", "Allow or refuse the shared pool for a project's runs.", {
    body: s.projectPatchBody,
  }),

  op("/skills", "POST", "Skills", "api", "Publish a skill version (a SKILL.md folder as a zip or tar body).", {
    query: s.publishQuery,
    status: 201,
    idempotent: true,
  }),
  op("/skills/{slug}", "GET", "Skills", "public", "A skill and its versions."),
  op(
    "/skills/{slug}/{version}",
    "GET",
    "Skills",
    "public",
    "One version of a skill: its manifest, scan result and files.",
  ),
  op(
    "/skills/{slug}/{version}/listing",
    "GET",
    "Skills",
    "public",
    "The version's listing: what installing it allows, and its findings hash.",
  ),
  op("/skills/{slug}/{version}/skill-md", "GET", "Skills", "public", "The version's SKILL.md as published.", {
    produces: "text/markdown",
  }),
  op(
    "/skills/{slug}/{version}/code/{sha256}",
    "GET",
    "Skills",
    "public",
    "One code file of the version, by its SHA-256.",
    { produces: "application/octet-stream" },
  ),
  op("/skills/{slug}/{version}/retire", "POST", "Skills", "api", "Retire a version you published."),
  op("/search", "GET", "Skills", "public", "Search live skills, ranked, filtered and paged like the browse page."),
  op("/contracts/{name}", "GET", "Skills", "public", "The published JSON Schema of a contract."),

  op("/installs", "GET", "Installs", "session", "List the person's installs."),
  op("/installs", "POST", "Installs", "session", "Install a version, or move an install to another version.", {
    body: s.installCreateBody,
    status: 201,
  }),
  op("/installs/{id}", "GET", "Installs", "session", "One install."),
  op("/installs/{id}", "PATCH", "Installs", "session", "Enable or disable an install.", { body: s.installPatchBody }),
  op("/installs/{id}", "DELETE", "Installs", "session", "Uninstall."),
  op("/grants", "GET", "Installs", "session", "The standing grants of the person's agents."),
  op("/grants/{id}", "DELETE", "Installs", "session", "Revoke a grant."),
  op("/audit", "GET", "Installs", "session", "Which tools of which skills ran in the last days, paged.", {
    query: s.auditQuery,
  }),
  op("/audit.csv", "GET", "Installs", "session", "The audit of the last days as CSV.", {
    query: s.auditCsvQuery,
    produces: "text/csv",
  }),

  op("/agents", "GET", "Agents", "session", "List the person's agents."),
  op("/agents", "POST", "Agents", "session", "Create an agent and its token (shown once).", {
    body: s.agentCreateBody,
    status: 201,
  }),
  op("/agents/{id}", "DELETE", "Agents", "session", "Delete an agent and revoke its token."),
  op("/agents/{id}/allowance", "PUT", "Agents", "session", "Set the agent's daily spend allowance.", {
    body: s.allowanceBody,
  }),
  op(
    "/steps",
    "POST",
    "Agents",
    "agent",
    "Call a skill's tool; an Idempotency-Key makes a retry safe, and Prefer: wait=<s> answers with the step once it ends.",
    { body: s.stepCreateBody, status: 201, idempotent: true, preferWait: true },
  ),
  op("/steps", "GET", "Agents", "session", "The person's steps, newest first, paged.", { query: s.stepsQuery }),
  op("/steps/{id}", "GET", "Agents", "agent", "A step's state; `wait` long-polls until it changes.", {
    query: s.stepWaitQuery,
  }),
  op("/steps/{id}/decision", "POST", "Agents", "session", "Answer an approval: once, always or deny.", {
    body: s.decisionBody,
  }),
  op("/approvals", "GET", "Agents", "session", "Steps waiting on the person's approval."),
  op("/events", "GET", "Agents", "session", "Server-sent events about the person's steps and runs.", {
    produces: "text/event-stream",
  }),

  op("/runs", "GET", "Runs", "session", "The person's runs, newest first, paged.", { query: s.runsQuery }),
  op("/runs/{id}", "GET", "Runs", "session", "One run."),
  op("/runs/{id}/again", "POST", "Runs", "session", "Run the same call again.", { status: 201 }),
  op("/runs/{id}/attestation", "GET", "Runs", "session", "The run's signed attestation."),

  op("/links", "GET", "Links", "session", "The person's paired Links."),
  op("/links/pairing-codes", "POST", "Links", "session", "A one-time code to pair a Link.", { status: 201 }),
  op("/links/{id}", "DELETE", "Links", "session", "Unpair a Link."),
  op("/links/{id}/key", "GET", "Links", "public", "A Link's public signing key, for checking its signed runs."),
  op("/links/{id}/runner", "POST", "Links", "session", "Turn a Link's runner on or off.", { body: s.runnerBody }),

  op("/balance", "GET", "Billing", "session", "The Balance and one page of the ledger.", { query: s.balanceQuery }),
  op("/balance/top-ups", "POST", "Billing", "session", "Add money; the same idempotency_key again adds nothing.", {
    body: s.topUpBody,
    status: 201,
    idempotent: true,
  }),
  op("/balance/usage", "GET", "Billing", "session", "Spend per day and skill.", { query: s.usageQuery }),
  op("/pool/keys", "GET", "Billing", "public", "The public keys of OpenVibe's pool machines."),
  op(
    "/admin/pool/{id}",
    "POST",
    "Billing",
    "operator",
    "Approve a Link as an OpenVibe pool machine (404 to non-operators).",
  ),
  op("/admin/pool/{id}", "DELETE", "Billing", "operator", "Revoke a pool machine (404 to non-operators)."),

  op("/log/checkpoint", "GET", "Transparency log", "public", "The current signed tree head, as a C2SP signed note.", {
    produces: "text/plain",
  }),
  op("/log/key", "GET", "Transparency log", "public", "The log's public key."),
  op("/log/entries", "GET", "Transparency log", "public", "A range of log entries."),
  op("/log/proof/inclusion", "GET", "Transparency log", "public", "An inclusion proof for an entry."),
  op("/log/proof/consistency", "GET", "Transparency log", "public", "A consistency proof between two tree sizes."),
  op("/log/versions/{slug}/{version}", "GET", "Transparency log", "public", "The log entry of a published version."),
];
