// Exactly once at the edge: `Idempotency-Key` on POST /api/v1/steps, publish and top-ups (the same
// key and body within 24 h replays the first answer; another body is 409 idempotency.mismatch; one
// still in flight is 409 idempotency.in_progress with Retry-After; keys are per principal), a
// stored call is answered 2xx even when what follows it fails (the outbox submits it later), and a
// long poll stops querying once its client hangs up.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";
import { linkFor } from "../helpers/runs";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let person: { id: string };
let tokens: { a: string; b: string };
let apiToken: string;

function post(pathname: string, body: unknown, headers: Record<string, string>) {
  return fetch(`${server.url}${pathname}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

const callStep = (token: string, key: string | null, text: string) =>
  post(
    "/api/v1/steps",
    { skill: "text-tools@2.0.1", tool: "slugify", input: { text } },
    { authorization: `Bearer ${token}`, ...(key === null ? {} : { "idempotency-key": key }) },
  );

beforeAll(async () => {
  env = await setupIntegration("idempotency");
  const r = (p: string) => import(p);
  server = await serveRoutes([
    { method: "POST", pattern: "/api/v1/steps", handler: (await r("../../app/api/v1/steps/route")).POST },
    { method: "GET", pattern: "/api/v1/steps/[id]", handler: (await r("../../app/api/v1/steps/[id]/route")).GET },
    { method: "POST", pattern: "/api/v1/skills", handler: (await r("../../app/api/v1/skills/route")).POST },
  ]);
  const { createUser } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const { createAgent } = await import("../../lib/agents");
  const { createApiToken } = await import("../../lib/auth");
  person = await createUser({ email: "idem@example.test", name: "Idem", password: null });
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  const { versionId } = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
  await scanVersion(versionId);
  await installSkill({ userId: person.id, slug: "text-tools", version: "2.0.1" });
  await recordTopUp({ userId: person.id, amountMicros: 5_000_000n, paymentId: "idem", memo: "test" });
  tokens = {
    a: (await createAgent(person.id, { name: "idem-a" })).token,
    b: (await createAgent(person.id, { name: "idem-b" })).token,
  };
  apiToken = (await createApiToken(person.id, "idem")).secret;
  await linkFor(env, person.id);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("Idempotency-Key on POST /api/v1/steps", () => {
  it("replays the first answer for the same key and body, and makes one step", async () => {
    const first = await callStep(tokens.a, "call-0001", "Hello");
    expect(first.status).toBe(201);
    const firstBody = await first.text();
    const again = await callStep(tokens.a, "call-0001", "Hello");
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(await again.text()).toBe(firstBody);
    expect(await env.db.step.count({ where: { idempotencyKey: "call-0001" } })).toBe(1);
    // The same JSON with its keys in another order is the same request.
    const reordered = await post(
      "/api/v1/steps",
      '{"input":{"text":"Hello"},"tool":"slugify","skill":"text-tools@2.0.1"}',
      { authorization: `Bearer ${tokens.a}`, "idempotency-key": "call-0001" },
    );
    expect(await reordered.text()).toBe(firstBody);
  });

  it("refuses the same key with another body (409 idempotency.mismatch), and keys are per principal", async () => {
    expect((await callStep(tokens.a, "call-0002", "one")).status).toBe(201);
    const other = await callStep(tokens.a, "call-0002", "two");
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe("idempotency.mismatch");
    // Another agent's key of the same name is its own.
    const b = await callStep(tokens.b, "call-0002", "two");
    expect(b.status).toBe(201);
    expect(await env.db.step.count({ where: { idempotencyKey: "call-0002" } })).toBe(2);
  });

  it("answers 409 idempotency.in_progress with Retry-After while the first is in flight", async () => {
    const { requestFingerprint } = await import("../../lib/http/idempotency");
    const { verifyAgentToken } = await import("../../lib/agents");
    const agent = await verifyAgentToken(tokens.a);
    const raw = JSON.stringify({ skill: "text-tools@2.0.1", tool: "slugify", input: { text: "slow" } });
    const hash = await requestFingerprint(new Request(`${server.url}/api/v1/steps`, { method: "POST" }), raw);
    await env.db.idempotencyKey.create({
      data: {
        scope: `agent:${agent.agentId}`,
        key: "call-0003",
        requestHash: hash,
        expiresAt: new Date(Date.now() + 60_000),
      },
    });
    const res = await callStep(tokens.a, "call-0003", "slow");
    expect(res.status).toBe(409);
    expect(res.headers.get("retry-after")).toBe("1");
    expect((await res.json()).error.code).toBe("idempotency.in_progress");
    expect(await env.db.step.count({ where: { idempotencyKey: "call-0003" } })).toBe(0);
  });

  it("refuses a key that is not 1-255 printable ASCII characters", async () => {
    for (const key of ["x".repeat(256), "tab\there", "é"]) {
      const res = await callStep(tokens.a, key, "bad key").catch(() => null);
      // A header value fetch itself will not send is refused before it leaves.
      if (res === null) continue;
      expect(res.status, JSON.stringify(key)).toBe(422);
      expect((await res.json()).error.code).toBe("idempotency.key_invalid");
    }
  });

  it("a key past its day is a new call", async () => {
    expect((await callStep(tokens.a, "call-0004", "day one")).status).toBe(201);
    await env.db.idempotencyKey.updateMany({
      where: { key: "call-0004" },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    await env.db.step.updateMany({
      where: { idempotencyKey: "call-0004" },
      data: { createdAt: new Date(Date.now() - 25 * 3600_000) },
    });
    expect((await callStep(tokens.a, "call-0004", "day two")).status).toBe(201);
    expect(
      await env.db.step.count({
        where: { agentId: { not: null }, target: { contains: "slugify" }, input: { equals: { text: "day two" } } },
      }),
    ).toBe(1);
    const { purgeExpiredIdempotencyKeys } = await import("../../lib/http/idempotency");
    await env.db.idempotencyKey.updateMany({
      where: { key: "call-0004" },
      data: { expiresAt: new Date(Date.now() - 1) },
    });
    expect(await purgeExpiredIdempotencyKeys()).toBeGreaterThanOrEqual(1);
  });
});

describe("a stored call is answered 2xx", () => {
  it("when submitting its job fails after the step is stored, it answers 201 and the sweep submits it", async () => {
    const { grantAlwaysAllow } = await import("../../lib/installs");
    const version = await env.db.skillVersion.findFirstOrThrow();
    await grantAlwaysAllow({ userId: person.id, versionId: version.id, tool: "slugify" });
    // A real failure inside PostgreSQL: every new job is refused until the trigger is gone.
    await env.db.$executeRawUnsafe(
      `CREATE FUNCTION refuse_job() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'refused for the test'; END $$ LANGUAGE plpgsql`,
    );
    await env.db.$executeRawUnsafe(
      `CREATE TRIGGER refuse_job BEFORE INSERT ON "RunJob" FOR EACH ROW EXECUTE FUNCTION refuse_job()`,
    );
    let stepId: string;
    try {
      const res = await callStep(tokens.a, "call-0005", "stored anyway");
      expect(res.status).toBe(201);
      const body = await res.json();
      stepId = body.id;
      expect(body.status).toBe("pending_approval");
      expect(await env.db.stepOutbox.count({ where: { stepId } })).toBe(1);
      expect(await env.db.runJob.count({ where: { stepId } })).toBe(0);
    } finally {
      await env.db.$executeRawUnsafe(`DROP TRIGGER refuse_job ON "RunJob"`);
      await env.db.$executeRawUnsafe(`DROP FUNCTION refuse_job()`);
    }
    // The same call again with its key is the same step, not a second one.
    const replay = await callStep(tokens.a, "call-0005", "stored anyway");
    expect((await replay.json()).id).toBe(stepId!);
    const { sweepDispatch } = await import("../../lib/runs");
    expect((await sweepDispatch(new Date(Date.now() + 10_000))).submitted).toBe(1);
    expect((await env.db.step.findUniqueOrThrow({ where: { id: stepId! } })).status).toBe("queued");
    expect(await env.db.runJob.count({ where: { stepId: stepId! } })).toBe(1);
    expect(await env.db.stepOutbox.count({ where: { stepId: stepId! } })).toBe(0);
  });
});

describe("publish with an Idempotency-Key", () => {
  it("replays the first answer for the same document, refuses another under the same key", async () => {
    const { sandboxSkill } = await import("../helpers/install-fixtures");
    const doc = sandboxSkill({ slug: "idem-kit", version: "1.0.0", tools: [{ name: "echo" }] });
    const headers = { authorization: `Bearer ${apiToken}`, "idempotency-key": "publish-0001" };
    const first = await post("/api/v1/skills", doc, headers);
    expect(first.status).toBe(201);
    const again = await post("/api/v1/skills", doc, headers);
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    expect(await again.json()).toEqual(await first.json());
    const other = await post("/api/v1/skills", { ...doc, version: "1.0.1" }, headers);
    expect(other.status).toBe(409);
    expect(await env.db.skillVersion.count({ where: { skill: { slug: "idem-kit" } } })).toBe(1);
  });

  it("takes a retried multipart upload as the same request whatever its boundary", async () => {
    const { sandboxSkill } = await import("../helpers/install-fixtures");
    const doc = sandboxSkill({ slug: "idem-form", version: "1.0.0", tools: [{ name: "echo" }] });
    const form = (document: typeof doc) => {
      const f = new FormData();
      const manifest = {
        ...document,
        resources: document.resources.map(({ name, media_type }) => ({ name, media_type })),
      };
      f.append("file", new Blob([JSON.stringify(manifest)]), "skill.json");
      for (const r of document.resources) f.append("file", new Blob([r.text]), r.name);
      return f;
    };
    const send = (document: typeof doc) =>
      fetch(`${server.url}/api/v1/skills`, {
        method: "POST",
        headers: { authorization: `Bearer ${apiToken}`, "idempotency-key": "publish-form-1" },
        body: form(document),
      });
    const first = await send(doc);
    const again = await send(doc);
    expect(first.status).toBe(201);
    expect([again.status, again.headers.get("idempotent-replayed")]).toEqual([201, "true"]);
    const other = await send({ ...doc, summary: "another summary" });
    expect(other.status).toBe(409);
    expect((await other.json()).error.code).toBe("idempotency.mismatch");
  });
});

describe("a long poll on a step waiting for approval", () => {
  it("answers with its expiry when it comes, not at its next check", async () => {
    // word_count has no "always allow" here: the step waits for the person.
    const res = await post(
      "/api/v1/steps",
      { skill: "text-tools@2.0.1", tool: "word_count", input: { text: "expiring" } },
      { authorization: `Bearer ${tokens.b}` },
    );
    const { id, status } = await res.json();
    expect(status).toBe("pending_approval");
    await env.db.step.update({ where: { id }, data: { expiresAt: new Date(Date.now() + 1_000) } });
    const asked = Date.now();
    const polled = await fetch(`${server.url}/api/v1/steps/${id}?wait=20`, {
      headers: { authorization: `Bearer ${tokens.b}` },
    });
    expect((await polled.json()).status).toBe("expired");
    // At its expiry (1 s), not at the poll's own check for lost wake-ups (5 s) nor its end (20 s).
    expect(Date.now() - asked).toBeLessThan(4_000);
  });
});

describe("a long poll ends with its client", () => {
  it("makes no query after the agent hangs up", async () => {
    const res = await callStep(tokens.b, null, "waiting");
    const { id } = await res.json();
    // The whole step is read once, then only its status between wake-ups (prepared statements).
    const { sqlPool } = await import("../../lib/db");
    const query = vi.spyOn(sqlPool(), "query");
    const looks = () =>
      query.mock.calls.filter(([q]) => {
        const name = typeof q === "object" ? (q as { name?: string }).name : undefined;
        return name === "step-status" || name === "step-for-agent";
      }).length;
    const hangUp = new AbortController();
    const wait = fetch(`${server.url}/api/v1/steps/${id}?wait=30`, {
      headers: { authorization: `Bearer ${tokens.b}` },
      signal: hangUp.signal,
    }).catch(() => "hung up");
    const { channels, notify } = await import("../../lib/events");
    const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
    // Let it look: its first read, then once per wake-up; then hang up.
    await sleep(300);
    await notify(channels.step(id));
    await sleep(300);
    expect(looks()).toBeGreaterThanOrEqual(2);
    hangUp.abort();
    expect(await wait).toBe("hung up");
    await sleep(200);
    const atHangUp = looks();
    // Neither a wake-up nor its own check (every 5 s while it waits) makes it look again.
    await notify(channels.step(id));
    await sleep(5_500);
    expect(looks()).toBe(atHangUp);
    query.mockRestore();
  });
});
