// The audit of skill runs against the real PostgreSQL: Step and Agent rows are written directly (the
// steps code creates them in the product), then read back through lib/installs and the routes.
import { randomBytes } from "node:crypto";
import { sessionToken } from "../../test/helpers/session-cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { generateLinkKeyPair, signStatement, STATEMENT_TYPE, type EgressRecord } from "../protocol";
import { sandboxSkill } from "../../test/helpers/install-fixtures";

const BASE = "http://localhost:3999";
const SECRET = "integration-secret-".padEnd(40, "x");
const DAY = 86_400_000;
const EGRESS: EgressRecord = [
  {
    host: "api.openvibe.services",
    port: 443,
    address: "203.0.113.7",
    verdict: "allowed",
    reason: null,
    count: 1,
    bytes_up: 2100,
    bytes_down: 14_000,
    duration_ms: 30,
  },
  {
    host: "evil.example",
    port: 443,
    address: null,
    verdict: "denied",
    reason: "link.egress.host",
    count: 2,
    bytes_up: 0,
    bytes_down: 0,
    duration_ms: 0,
  },
];

let env: IntegrationEnv;
let installs: typeof import("./index");
let auditRoute: typeof import("@/app/api/v1/audit/route");
let csvRoute: typeof import("@/app/api/v1/audit.csv/route");
let cookieName: string;

type Person = { id: string; projectId: string; cookie: string };
let alice: Person;
let bob: Person;
let versions: { v1: string; v2: string };
const now = Date.now();

async function person(label: string): Promise<Person> {
  const { createUser, getDefaultProject } = await import("../auth/users");
  const u = await createUser({
    email: `${label}-${randomBytes(4).toString("hex")}@example.test`,
    name: label,
    password: null,
  });
  const project = await getDefaultProject(u.id);
  return {
    id: u.id,
    projectId: project!.id,
    cookie: `${cookieName}=${await sessionToken(u.id, SECRET)}`,
  };
}

async function agent(p: Person, name: string) {
  return env.db.agent.create({
    data: {
      userId: p.id,
      projectId: p.projectId,
      name,
      tokenPrefix: randomBytes(4).toString("hex"),
      tokenHash: randomBytes(32).toString("hex"),
    },
  });
}

async function step(
  p: Person,
  s: {
    versionId: string;
    tool: string;
    agentId?: string | null;
    daysAgo: number;
    kind?: string;
    status?: "succeeded" | "failed" | "denied";
    exit?: string;
    wallMs?: number;
    egress?: EgressRecord;
  },
) {
  const createdAt = new Date(now - s.daysAgo * DAY);
  const row = await env.db.step.create({
    data: {
      userId: p.id,
      projectId: p.projectId,
      agentId: s.agentId ?? null,
      versionId: s.versionId,
      kind: s.kind ?? "skill.run",
      label: "running a skill's code in a sandbox",
      target: `echo ${s.tool}`,
      tool: s.tool,
      input: {},
      net: "deny",
      status: s.status ?? "succeeded",
      exitStatus: s.exit ?? (s.status === "failed" ? "error" : "ok"),
      wallMs: s.wallMs ?? 120,
      createdAt,
      expiresAt: new Date(createdAt.getTime() + 600_000),
    },
  });
  if (s.egress) await jobWithEgress(p, row.id, s.versionId, s.egress);
  return row;
}

/** The step's Run job as a Link reported it: a signed statement carrying the egress record. */
async function jobWithEgress(p: Person, stepId: string, versionId: string, egress: EgressRecord) {
  const id = `job_${randomBytes(13).toString("hex")}`;
  const statement = {
    type: STATEMENT_TYPE,
    job_id: id,
    link_id: "clink000000000000000000001",
    artifact: { name: "openvibe-skill-runner", version: "1.0.0" },
    skill: { slug: "audit-echo", version: "1.1.0", tool: "echo" },
    integrity: `sha256:${"c".repeat(64)}`,
    input_digest: "a".repeat(64),
    output_sha256: "b".repeat(64),
    stderr_sha256: "d".repeat(64),
    status: "ok" as const,
    wall_ms: 250,
    max_rss_bytes: null,
    started_at: new Date(now).toISOString(),
    finished_at: new Date(now).toISOString(),
    egress,
  };
  const attestation = {
    ...signStatement(statement, generateLinkKeyPair().privateKeyPem),
    key_id: `ed25519:${"e".repeat(64)}`,
  };
  await env.db.runJob.create({
    data: {
      id,
      userId: p.id,
      projectId: p.projectId,
      stepId,
      versionId,
      tool: "echo",
      class: "function",
      artifactName: "openvibe-skill-runner",
      artifactVersion: "1.0.0",
      inputs: [],
      net: "openvibe-only",
      wallMs: 10_000,
      memBytes: 134_217_728n,
      ttlMs: 120_000,
      state: "succeeded",
      expiresAt: new Date(now + 600_000),
      attestation,
    },
  });
}

const get = (
  route: { GET: (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response> },
  path: string,
  cookie?: string,
) => route.GET(new Request(`${BASE}${path}`, { headers: cookie ? { cookie } : {} }), { params: Promise.resolve({}) });

beforeAll(async () => {
  env = await setupIntegration("audit");
  installs = await import("./index");
  auditRoute = await import("@/app/api/v1/audit/route");
  csvRoute = await import("@/app/api/v1/audit.csv/route");
  cookieName = (await import("../auth")).sessionCookieName();
  const { validateSkillDocument } = await import("../contracts");
  const { publishSkill } = await import("../registry");
  const author = await person("author");
  const ids: string[] = [];
  for (const version of ["1.0.0", "1.1.0"]) {
    const r = validateSkillDocument(
      sandboxSkill({ slug: "audit-echo", version, tools: [{ name: "echo" }, { name: "shout" }] }),
    );
    if (!r.ok) throw new Error(JSON.stringify(r.errors));
    ids.push((await publishSkill({ ownerId: author.id, document: r.document, scan: "none" })).versionId);
  }
  versions = { v1: ids[0]!, v2: ids[1]! };

  alice = await person("alice");
  bob = await person("bob");
  const helper = await agent(alice, "Helper bot");
  const tricky = await agent(alice, '=cmd|" /c calc"!A1, "quoted"');
  await step(alice, {
    versionId: versions.v2,
    tool: "echo",
    agentId: helper.id,
    daysAgo: 0.5,
    wallMs: 250,
    egress: EGRESS,
  });
  await step(alice, {
    versionId: versions.v2,
    tool: "shout",
    agentId: tricky.id,
    daysAgo: 1.5,
    status: "failed",
    exit: "limit",
    wallMs: 30_000,
  });
  await step(alice, { versionId: versions.v1, tool: "echo", agentId: null, daysAgo: 3 });
  await step(alice, { versionId: versions.v1, tool: "echo", agentId: helper.id, daysAgo: 10 });
  await step(alice, { versionId: versions.v1, tool: "echo", agentId: helper.id, daysAgo: 95 });
  // Not a skill run, and not Alice's: never in her audit.
  await step(alice, { versionId: versions.v2, tool: "echo", daysAgo: 0.2, kind: "other.kind" });
  await step(bob, { versionId: versions.v2, tool: "echo", daysAgo: 0.1 });
}, 180_000);

afterAll(async () => {
  await (await import("../registry")).scanQueue().close();
  await env?.teardown();
});

describe("listAudit", () => {
  it("lists the person's skill runs of the last N days, newest first, with agent, exit and wall time", async () => {
    const week = await installs.listAudit({ userId: alice.id, days: 7, now: new Date(now) });
    expect(week.steps.map((s) => [s.version, s.tool, s.agent, s.status, s.exit, s.wall_ms])).toEqual([
      ["1.1.0", "echo", "Helper bot", "succeeded", "ok", 250],
      ["1.1.0", "shout", '=cmd|" /c calc"!A1, "quoted"', "failed", "limit", 30_000],
      ["1.0.0", "echo", null, "succeeded", "ok", 120],
    ]);
    expect(week.steps.every((s) => s.slug === "audit-echo")).toBe(true);
    expect(week.next_cursor).toBeNull();
    const day = await installs.listAudit({ userId: alice.id, days: 1, now: new Date(now) });
    expect(day.steps).toHaveLength(1);
    const quarter = await installs.listAudit({ userId: alice.id, days: 90, now: new Date(now) });
    expect(quarter.steps).toHaveLength(4);
    const bobs = await installs.listAudit({ userId: bob.id, days: 90, now: new Date(now) });
    expect(bobs.steps).toHaveLength(1);
  });

  it("pages with a cursor without repeating or skipping a row", async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: import("./audit").AuditPage = await installs.listAudit({
        userId: alice.id,
        days: 90,
        limit: 1,
        cursor,
        now: new Date(now),
      });
      seen.push(...page.steps.map((s) => s.id));
      cursor = page.next_cursor;
    } while (cursor);
    const all = await installs.listAudit({ userId: alice.id, days: 90, now: new Date(now) });
    expect(seen).toEqual(all.steps.map((s) => s.id));
  });

  it("summarises which tools of which version ran, and how often", async () => {
    const summary = await installs.auditSummary({ userId: alice.id, days: 30, now: new Date(now) });
    expect(summary.map((r) => [r.version, r.tool, r.runs])).toEqual([
      ["1.1.0", "echo", 1],
      ["1.1.0", "shout", 1],
      ["1.0.0", "echo", 2],
    ]);
  });

  it("lists the hosts each skill's tools tried, blocked ones as blocked, from the signed egress records", async () => {
    const week = await installs.listAudit({ userId: alice.id, days: 7, now: new Date(now) });
    expect(week.steps.map((s) => s.hosts)).toEqual([
      ["api.openvibe.services:443", "evil.example:443 (blocked)"],
      [],
      [],
    ]);
    const hosts = await installs.auditHosts({ userId: alice.id, days: 7, now: new Date(now) });
    expect(hosts.map((h) => [h.slug, h.host, h.port, h.verdict, h.runs, h.attempts, h.bytes_up, h.bytes_down])).toEqual(
      [
        ["audit-echo", "api.openvibe.services", 443, "allowed", 1, 1, 2100, 14_000],
        ["audit-echo", "evil.example", 443, "denied", 1, 2, 0, 0],
      ],
    );
    expect(await installs.auditHosts({ userId: bob.id, days: 90, now: new Date(now) })).toEqual([]);
  });

  it("reports a window as its page, summary and hosts; a skill narrows only the page", async () => {
    const at = new Date(now);
    const report = await installs.auditReport({ userId: alice.id, days: 7, now: at });
    expect(report).toEqual({
      ...(await installs.listAudit({ userId: alice.id, days: 7, now: at })),
      summary: await installs.auditSummary({ userId: alice.id, days: 7, now: at }),
      hosts: await installs.auditHosts({ userId: alice.id, days: 7, now: at }),
    });
    expect(report.steps).toHaveLength(3);
    const other = await installs.auditReport({ userId: alice.id, days: 7, slug: "no-such-skill", now: at });
    expect(other.steps).toEqual([]);
    expect(other.summary).toEqual(report.summary);
    expect(other.hosts).toEqual(report.hosts);
    await expect(installs.auditReport({ userId: alice.id, days: 7, cursor: "bm90LWpzb24" })).rejects.toMatchObject({
      code: "audit.cursor_invalid",
    });
  });

  it("refuses N outside 1-90 and a forged cursor with stable codes", async () => {
    for (const days of [0, 91, 1.5]) {
      await expect(installs.listAudit({ userId: alice.id, days })).rejects.toMatchObject({
        code: "request.invalid",
        status: 422,
      });
    }
    await expect(installs.listAudit({ userId: alice.id, days: 7, cursor: "bm90LWpzb24" })).rejects.toMatchObject({
      code: "audit.cursor_invalid",
      status: 422,
    });
  });
});

describe("GET /api/v1/audit and /api/v1/audit.csv", () => {
  it("need a session and a valid N", async () => {
    expect((await get(auditRoute, "/api/v1/audit?days=7")).status).toBe(401);
    expect((await get(csvRoute, "/api/v1/audit.csv?days=7")).status).toBe(401);
    const bad = await get(auditRoute, "/api/v1/audit?days=365", alice.cookie);
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: { code: "request.invalid" } });
    expect((await get(csvRoute, "/api/v1/audit.csv?days=abc", alice.cookie)).status).toBe(422);
  });

  it("answers only the person's own runs, with a summary", async () => {
    const res = await get(auditRoute, "/api/v1/audit?days=7", alice.cookie);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { days: number; steps: { tool: string }[]; summary: unknown[] };
    expect(body.days).toBe(7);
    expect(body.steps).toHaveLength(3);
    expect(body.summary).toHaveLength(3);
    const bobs = (await (await get(auditRoute, "/api/v1/audit?days=7", bob.cookie)).json()) as { steps: unknown[] };
    expect(bobs.steps).toHaveLength(1);
  });

  it("exports CSV as a download with proper quoting and no formula a spreadsheet would run", async () => {
    const res = await get(csvRoute, "/api/v1/audit.csv?days=7", alice.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toMatch(
      /^attachment; filename="openvibe-skills-audit-7d-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const text = await res.text();
    const lines = text.split("\r\n");
    expect(lines[0]).toBe("time_utc,skill,version,tool,agent,status,exit,wall_ms,net,step_id,hosts");
    expect(lines).toHaveLength(5); // header, three rows, and the empty string after the last CRLF
    expect(lines[4]).toBe("");
    expect(lines[1]).toMatch(
      /^\d{4}-\d{2}-\d{2}T[\d:.]+Z,audit-echo,1\.1\.0,echo,Helper bot,succeeded,ok,250,deny,\w+,api\.openvibe\.services:443; evil\.example:443 \(blocked\)$/,
    );
    expect(lines[2]).toContain(`,shout,"'=cmd|"" /c calc""!A1, ""quoted""",failed,limit,30000,deny,`);
    expect(lines[3]).toMatch(/,1\.0\.0,echo,,succeeded,ok,120,deny,/);
    const bobs = await (await get(csvRoute, "/api/v1/audit.csv?days=90", bob.cookie)).text();
    expect(bobs.split("\r\n")).toHaveLength(3);
  });
});
