// Operators and OpenVibe's pool: `npm run admin` (the real script) makes operators and approves or
// revokes pool machines; the admin API answers 404 to anyone who is not an operator, signed in or
// not, and lets an operator approve a Link. Runs of a machine taken out of the pool are cancelled.
import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { linkFor } from "../helpers/runs";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let sessionToken: typeof import("../helpers/session-cookie").sessionToken;
let cookieName: string;
let route: typeof import("../../app/api/v1/admin/pool/[id]/route");
let operator: { id: string };
let person: { id: string };

function admin(args: string[]): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/admin.ts", ...args], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: env.database.url, REDIS_PREFIX: env.redisPrefix, DATA_DIR: env.dataDir, LOG_LEVEL: "error" },
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

async function asPerson(userId: string | null, method: "POST" | "DELETE", linkId: string) {
  const headers: Record<string, string> = {};
  if (userId) {
    // A real session row (lib/auth/sessions.ts): a JWT naming none is refused like any forged one.
    const token = await sessionToken(userId, "integration-secret-".padEnd(40, "x"));
    headers.cookie = `${cookieName}=${token}`;
  }
  const handler = method === "POST" ? route.POST : route.DELETE;
  return handler(new Request(`http://localhost/api/v1/admin/pool/${linkId}`, { method, headers }), {
    params: Promise.resolve({ id: linkId }),
  });
}

beforeAll(async () => {
  env = await setupIntegration("admin");
  ({ sessionToken } = await import("../helpers/session-cookie"));
  cookieName = (await import("../../lib/auth")).sessionCookieName();
  route = await import("../../app/api/v1/admin/pool/[id]/route");
  const { createUser } = await import("../../lib/auth/users");
  operator = await createUser({ email: "ops@example.test", name: "Ops", password: null });
  person = await createUser({ email: "someone@example.test", name: "Someone", password: null });
}, 120_000);

afterAll(async () => {
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("npm run admin", () => {
  it("makes an operator, approves and revokes a pool machine, lists them, and refuses bad usage", async () => {
    const link = await linkFor(env, person.id, { pool: true, name: "pool-candidate" });
    const added = await admin(["operator", "add", "ops@example.test"]);
    expect(added.code, added.out).toBe(0);
    expect((await env.db.user.findUniqueOrThrow({ where: { id: operator.id } })).role).toBe("operator");
    expect((await admin(["pool", "list"])).out).toMatch(new RegExp(`${link.linkId}\\s+pool-candidate .*not approved`));
    expect((await admin(["pool", "approve", link.linkId])).code).toBe(0);
    expect((await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).poolApprovedAt).not.toBeNull();
    expect((await admin(["pool", "revoke", link.linkId])).code).toBe(0);
    expect((await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).poolApprovedAt).toBeNull();
    expect(await admin(["pool", "approve", "nope"])).toMatchObject({ code: 1, out: expect.stringMatching(/link\.not_found/) });
    expect((await admin(["frobnicate"])).code).toBe(2);
  });
});

describe("the admin API", () => {
  it("is a 404 to anyone but an operator, and lets an operator approve and revoke", async () => {
    const link = await linkFor(env, person.id, { pool: true });
    for (const who of [null, person.id]) {
      const res = await asPerson(who, "POST", link.linkId);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe("not_found");
    }
    expect((await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).poolApprovedAt).toBeNull();
    await env.db.user.update({ where: { id: operator.id }, data: { role: "operator" } });
    expect((await asPerson(operator.id, "POST", link.linkId)).status).toBe(200);
    expect((await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).poolApprovedBy).toBe(`user:${operator.id}`);
    expect((await asPerson(operator.id, "DELETE", link.linkId)).status).toBe(200);
    expect((await env.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).poolApprovedAt).toBeNull();
    const audit = await env.db.auditEvent.findMany({ where: { subjectId: link.linkId }, orderBy: { createdAt: "asc" } });
    expect(audit.map((a) => a.action)).toEqual(["link.pool_approved", "link.pool_revoked"]);
  });
});
