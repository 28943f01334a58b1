// The ledger page and its filters, and usage per UTC day per skill and per agent, against the real
// PostgreSQL: day boundaries fall where UTC says, refunds lower a day's spend, and nobody sees
// another person's entries.
import { sessionToken } from "../../test/helpers/session-cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";

const BASE = "http://localhost:3997";
const SECRET = "integration-secret-".padEnd(40, "x");

let env: IntegrationEnv;
let usage: typeof import("./usage");
let balanceRoute: typeof import("@/app/api/v1/balance/route");
let usageRoute: typeof import("@/app/api/v1/balance/usage/route");
let cookie: string;
let me: string;
let other: string;
let alpha: string;
let beta: string;

const at = (iso: string) => new Date(iso);
let n = 0;

async function entry(
  userId: string,
  e: { kind: "topup" | "charge" | "refund"; micros: bigint; at: string; skill?: string; agentId?: string },
) {
  return env.db.ledgerEntry.create({
    data: {
      userId,
      kind: e.kind,
      amountMicros: e.micros,
      idempotencyKey: `seed:${++n}`,
      memo: `${e.kind} ${n}`,
      skillSlug: e.skill ?? null,
      agentId: e.agentId ?? null,
      createdAt: at(e.at),
    },
  });
}

const get = async (
  route: { GET: (r: Request, c: { params: Promise<Record<string, string>> }) => Promise<Response> },
  path: string,
) => {
  const res = await route.GET(new Request(`${BASE}${path}`, { headers: { cookie } }), { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
};

beforeAll(async () => {
  env = await setupIntegration("usage");
  usage = await import("./usage");
  balanceRoute = await import("@/app/api/v1/balance/route");
  usageRoute = await import("@/app/api/v1/balance/usage/route");
  const { createUser, sessionCookieName } = await import("../auth");
  const { createAgent } = await import("../agents");
  me = (await createUser({ email: "me@example.test", name: "Me", password: null })).id;
  other = (await createUser({ email: "other@example.test", name: "Other", password: null })).id;
  cookie = `${sessionCookieName()}=${await sessionToken(me, SECRET)}`;
  alpha = (await createAgent(me, { name: "alpha bot" })).agent.id;
  beta = (await createAgent(me, { name: "beta bot" })).agent.id;

  await entry(me, { kind: "topup", micros: 10_000_000n, at: "2026-03-01T08:00:00.000Z" });
  // 2 March: csv-stats by alpha held 3000, refunded 1000 → 2000; img-tools by beta 500.
  await entry(me, {
    kind: "charge",
    micros: -3_000n,
    at: "2026-03-02T00:00:00.000Z",
    skill: "csv-stats",
    agentId: alpha,
  });
  await entry(me, {
    kind: "refund",
    micros: 1_000n,
    at: "2026-03-02T00:00:05.000Z",
    skill: "csv-stats",
    agentId: alpha,
  });
  await entry(me, { kind: "charge", micros: -500n, at: "2026-03-02T23:59:59.999Z", skill: "img-tools", agentId: beta });
  // 3 March: csv-stats by beta 700, and a run whose agent is gone (no agent) 100.
  await entry(me, { kind: "charge", micros: -700n, at: "2026-03-03T00:00:00.000Z", skill: "csv-stats", agentId: beta });
  await entry(me, { kind: "charge", micros: -100n, at: "2026-03-03T12:00:00.000Z", skill: "img-tools" });
  // 5 March: a run fully refunded (it never ran) shows no spend.
  await entry(me, {
    kind: "charge",
    micros: -900n,
    at: "2026-03-05T10:00:00.000Z",
    skill: "csv-stats",
    agentId: alpha,
  });
  await entry(me, { kind: "refund", micros: 900n, at: "2026-03-05T10:00:01.000Z", skill: "csv-stats", agentId: alpha });
  // Someone else's spend on the same days and skill never shows (a balance never goes below zero).
  await entry(other, { kind: "topup", micros: 1_000_000n, at: "2026-03-01T09:00:00.000Z" });
  await entry(other, { kind: "charge", micros: -999_999n, at: "2026-03-02T10:00:00.000Z", skill: "csv-stats" });
}, 120_000);

afterAll(async () => env?.teardown());

const range = () => ({ from: at("2026-03-01T00:00:00Z"), until: at("2026-03-06T00:00:00Z") });

describe("usageByDay", () => {
  it("sums charges less refunds per UTC day and skill, every day of the range listed", async () => {
    const u = await usage.usageByDay(me, range(), "skill");
    expect(u.days).toEqual(["2026-03-01", "2026-03-02", "2026-03-03", "2026-03-04", "2026-03-05"]);
    expect(u.cells).toEqual([
      { day: "2026-03-02", key: "csv-stats", label: "csv-stats", spentMicros: 2_000n },
      { day: "2026-03-02", key: "img-tools", label: "img-tools", spentMicros: 500n },
      { day: "2026-03-03", key: "csv-stats", label: "csv-stats", spentMicros: 700n },
      { day: "2026-03-03", key: "img-tools", label: "img-tools", spentMicros: 100n },
    ]);
    expect(u.series).toEqual([
      { key: "csv-stats", label: "csv-stats", totalMicros: 2_700n },
      { key: "img-tools", label: "img-tools", totalMicros: 600n },
    ]);
    expect(u.totalMicros).toBe(3_300n);
  });

  it("groups by agent with the agent's name, and names spend without an agent", async () => {
    const u = await usage.usageByDay(me, range(), "agent");
    const byKey = Object.fromEntries(u.series.map((s) => [s.label, s.totalMicros]));
    expect(byKey).toEqual({ "alpha bot": 2_000n, "beta bot": 1_200n, "(no agent: you or a removed agent)": 100n });
    expect(u.cells.filter((c) => c.key === beta).map((c) => [c.day, c.spentMicros])).toEqual([
      ["2026-03-02", 500n],
      ["2026-03-03", 700n],
    ]);
  });

  it("keeps to the range's days", async () => {
    const u = await usage.usageByDay(
      me,
      { from: at("2026-03-03T00:00:00Z"), until: at("2026-03-04T00:00:00Z") },
      "skill",
    );
    expect(u.days).toEqual(["2026-03-03"]);
    expect(u.totalMicros).toBe(800n);
  });
});

describe("listLedger", () => {
  it("filters by kind, skill, agent and day range", async () => {
    const kinds = (await usage.listLedger(me, { kind: "refund" })).entries.map((e) => e.amountMicros);
    expect(kinds).toEqual([900n, 1_000n]);
    const csv = await usage.listLedger(me, { skill: "csv-stats" });
    expect(csv.entries).toHaveLength(5);
    expect(csv.entries.every((e) => e.skillSlug === "csv-stats")).toBe(true);
    const byBeta = await usage.listLedger(me, { agentId: beta });
    expect(byBeta.entries.map((e) => e.amountMicros)).toEqual([-700n, -500n]);
    expect(byBeta.entries[0]?.agent).toEqual({ id: beta, name: "beta bot" });
    const day = await usage.listLedger(me, usage.ledgerFilterFromQuery({ from: "2026-03-02", to: "2026-03-02" }));
    expect(day.entries.map((e) => e.amountMicros)).toEqual([-500n, 1_000n, -3_000n]);
  });

  it("pages newest first with a cursor, and refuses someone else's cursor", async () => {
    const first = await usage.listLedger(me, { limit: 3 });
    expect(first.entries).toHaveLength(3);
    expect(first.nextCursor).toBe(first.entries[2]?.id);
    const rest = await usage.listLedger(me, { limit: 10, cursor: first.nextCursor ?? "" });
    expect(rest.entries).toHaveLength(5);
    expect(rest.nextCursor).toBeNull();
    const all = [...first.entries, ...rest.entries];
    expect(new Set(all.map((e) => e.id)).size).toBe(8);
    const times = all.map((e) => e.createdAt.getTime());
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    const theirs = await env.db.ledgerEntry.findFirstOrThrow({ where: { userId: other } });
    await expect(usage.listLedger(me, { cursor: theirs.id })).rejects.toMatchObject({ code: "billing.cursor_invalid" });
  });

  it("checks every filter with billing.filter_invalid", () => {
    for (const q of [
      { kind: "gift" },
      { from: "2026-02-30" },
      { to: "03/02/2026" },
      { skill: "Not A Slug" },
      { limit: "0" },
      { from: "2026-03-05", to: "2026-03-01" },
    ]) {
      expect(() => usage.ledgerFilterFromQuery(q)).toThrow(expect.objectContaining({ code: "billing.filter_invalid" }));
    }
  });
});

describe("routes", () => {
  it("GET /api/v1/balance answers the balance and a filtered page", async () => {
    const { status, body } = await get(balanceRoute, "/api/v1/balance?kind=charge&skill=img-tools");
    expect(status).toBe(200);
    expect(body.balance_micros).toBe(String(10_000_000 - 3_300));
    expect(body.ledger.entries.map((e: { amount_micros: string }) => e.amount_micros)).toEqual(["-100", "-500"]);
    const bad = await get(balanceRoute, "/api/v1/balance?kind=gift");
    expect(bad.status).toBe(422);
    expect(bad.body.error.code).toBe("billing.filter_invalid");
  });

  it("GET /api/v1/balance/usage answers per skill and per agent, and caps the range", async () => {
    const { status, body } = await get(usageRoute, "/api/v1/balance/usage?from=2026-03-01&to=2026-03-05");
    expect(status).toBe(200);
    expect(body.from).toBe("2026-03-01");
    expect(body.to).toBe("2026-03-05");
    expect(body.by_skill.total_micros).toBe("3300");
    expect(body.by_agent.series[0]).toMatchObject({ label: "alpha bot", total_micros: "2000" });
    const tooLong = await get(usageRoute, "/api/v1/balance/usage?from=2025-01-01&to=2026-03-05");
    expect(tooLong.body.error.code).toBe("billing.filter_invalid");
  });
});
