// Installs, upgrades, disable and grants against the real PostgreSQL, through lib/installs and the
// route handlers themselves (with the session cookie next-auth would set).
import path from "node:path";
import { sessionToken } from "../../test/helpers/session-cookie";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import type { SkillDocument } from "../contracts";
import { sandboxSkill } from "../../test/helpers/install-fixtures";

const DEMO = path.resolve(import.meta.dirname, "../../scripts/demo/skills");
const BASE = "http://localhost:3999";
const SECRET = "integration-secret-".padEnd(40, "x");

let env: IntegrationEnv;
let installs: typeof import("./index");
let installsRoute: typeof import("@/app/api/v1/installs/route");
let installRoute: typeof import("@/app/api/v1/installs/[id]/route");
let grantsRoute: typeof import("@/app/api/v1/grants/route");
let grantRoute: typeof import("@/app/api/v1/grants/[id]/route");
let cookieName: string;

type Person = { id: string; cookie: string };
const v: Record<string, { id: string; slug: string; version: string }> = {};

async function person(label: string): Promise<Person> {
  const { createUser } = await import("../auth/users");
  const u = await createUser({
    email: `${label}-${Math.random().toString(36).slice(2)}@example.test`,
    name: label,
    password: null,
  });
  return { id: u.id, cookie: `${cookieName}=${await sessionToken(u.id, SECRET)}` };
}

async function publish(ownerId: string, document: unknown, opts: { scan?: boolean } = {}) {
  const contracts = await import("../contracts");
  const registry = await import("../registry");
  const r = contracts.validateSkillDocument(document);
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  const p = await registry.publishSkill({ ownerId, document: r.document, scan: "none" });
  if (opts.scan !== false) await registry.scanVersion(p.versionId);
  return { id: p.versionId, slug: p.slug, version: p.version };
}

async function demoDoc(dir: string): Promise<SkillDocument> {
  const r = await (await import("../contracts")).loadBundle(path.join(DEMO, dir));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.document;
}

const installsCount = async (slug: string) =>
  (await env.db.skill.findUniqueOrThrow({ where: { slug }, select: { installsCount: true } })).installsCount;
const status = async (id: string) => (await env.db.skillVersion.findUniqueOrThrow({ where: { id } })).status;

type Params = { params: Promise<Record<string, string>> };
const params = (p: Record<string, string> = {}): Params => ({ params: Promise.resolve(p) });
const req = (pathname: string, init: { method?: string; cookie?: string; body?: unknown } = {}) =>
  new Request(`${BASE}${pathname}`, {
    method: init.method ?? "GET",
    headers: {
      ...(init.cookie ? { cookie: init.cookie } : {}),
      ...(init.body !== undefined ? { "content-type": "application/json" } : {}),
    },
    body: init.body !== undefined ? JSON.stringify(init.body) : undefined,
  });

let author: Person;

beforeAll(async () => {
  env = await setupIntegration("installs");
  installs = await import("./index");
  installsRoute = await import("@/app/api/v1/installs/route");
  installRoute = await import("@/app/api/v1/installs/[id]/route");
  grantsRoute = await import("@/app/api/v1/grants/route");
  grantRoute = await import("@/app/api/v1/grants/[id]/route");
  cookieName = (await import("../auth")).sessionCookieName();
  author = await person("author");

  v.echo090 = await publish(author.id, sandboxSkill({ slug: "echo", version: "0.9.0", tools: [{ name: "echo" }] }));
  v.echo100 = await publish(
    author.id,
    sandboxSkill({ slug: "echo", version: "1.0.0", tools: [{ name: "echo", wall_ms: 5000 }] }),
  );
  v.echo110 = await publish(
    author.id,
    sandboxSkill({
      slug: "echo",
      version: "1.1.0",
      tools: [{ name: "echo", net: "public", wall_ms: 20_000 }, { name: "shout" }],
      kinds: ["notes.write"],
    }),
  );
  v.echo200 = await publish(author.id, sandboxSkill({ slug: "echo", version: "2.0.0", tools: [{ name: "echo" }] }), {
    scan: false,
  });
  await env.db.skillVersion.update({ where: { id: v.echo090.id }, data: { retiredAt: new Date() } });
  v.flagged = await publish(author.id, await demoDoc("openvibe-status"));
  v.failed = await publish(author.id, await demoDoc("machine-info"));
  v.prompt = await publish(author.id, await demoDoc("commit-message-style"));
}, 180_000);

afterAll(async () => {
  await (await import("../registry")).scanQueue().close();
  await env?.teardown();
});

describe("the fixtures scan as the tests assume", () => {
  it("has passed, flagged, failed, scanning and retired versions", async () => {
    expect(await status(v.echo100!.id)).toBe("passed");
    expect(await status(v.echo110!.id)).toBe("passed");
    expect(await status(v.echo200!.id)).toBe("scanning");
    expect(await status(v.flagged!.id)).toBe("flagged");
    expect(await status(v.failed!.id)).toBe("failed");
    expect(await status(v.prompt!.id)).toBe("passed");
  });
});

describe("installSkill", () => {
  it("installs a passed version into the person's default project, counts the person once, and records it", async () => {
    const alice = await person("alice");
    const before = await installsCount("echo");
    const r = await installs.installSkill({ userId: alice.id, slug: "echo", version: "1.0.0" });
    expect(r.outcome).toBe("installed");
    expect(r.install).toMatchObject({
      slug: "echo",
      version: "1.0.0",
      enabled: true,
      status: "passed",
      latest: "1.1.0",
    });
    const row = await env.db.install.findUniqueOrThrow({ where: { id: r.install.id }, include: { project: true } });
    expect(row.project).toMatchObject({ ownerId: alice.id, isDefault: true });
    expect(await installsCount("echo")).toBe(before + 1);
    const again = await installs.installSkill({ userId: alice.id, slug: "echo", version: "1.0.0" });
    expect(again.outcome).toBe("unchanged");
    expect(await installsCount("echo")).toBe(before + 1);
    expect(await env.db.install.count({ where: { userId: alice.id } })).toBe(1);
    const events = await env.db.auditEvent.findMany({ where: { userId: alice.id, action: "skill.installed" } });
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      subjectType: "install",
      subjectId: r.install.id,
      data: { slug: "echo", version: "1.0.0" },
    });
  });

  it("installs a prompt skill", async () => {
    const p = await person("prompt");
    const r = await installs.installSkill({ userId: p.id, slug: v.prompt!.slug, version: v.prompt!.version });
    expect(r.install).toMatchObject({ runs: "prompt", status: "passed", enabled: true });
  });

  it("refuses scanning (until done), failed and retired versions, and unknown ones, changing nothing", async () => {
    const bob = await person("bob");
    const before = await installsCount("echo");
    const refused = (version: string, slug = "echo") => installs.installSkill({ userId: bob.id, slug, version });
    await expect(refused("2.0.0")).rejects.toMatchObject({ code: "install.scan_pending", status: 409 });
    await expect(refused("0.9.0")).rejects.toMatchObject({ code: "install.version_retired", status: 409 });
    await expect(refused(v.failed!.version, v.failed!.slug)).rejects.toMatchObject({
      code: "install.scan_failed",
      status: 409,
    });
    await expect(refused("9.9.9")).rejects.toMatchObject({ code: "not_found", status: 404 });
    await expect(refused("1.0.0", "no-such-skill")).rejects.toMatchObject({ status: 404 });
    expect(await env.db.install.count({ where: { userId: bob.id } })).toBe(0);
    expect(await installsCount("echo")).toBe(before);

    // Once the scan is done, the same request succeeds.
    await (await import("../registry")).scanVersion(v.echo200!.id);
    expect((await refused("2.0.0")).outcome).toBe("installed");
  });

  it("installs a flagged version only with findings_ack equal to the listing's findings hash", async () => {
    const carol = await person("carol");
    const { slug, version, id } = v.flagged!;
    const listing = await env.db.listing.findUniqueOrThrow({ where: { versionId: id } });
    expect(listing.findingsHash).toMatch(/^sha256:[0-9a-f]{64}$/);
    await expect(installs.installSkill({ userId: carol.id, slug, version })).rejects.toMatchObject({
      code: "install.findings_ack_required",
      status: 409,
      details: { findings_hash: listing.findingsHash },
    });
    await expect(
      installs.installSkill({ userId: carol.id, slug, version, findingsAck: `sha256:${"0".repeat(64)}` }),
    ).rejects.toMatchObject({ code: "install.findings_ack_stale", status: 409 });
    expect(await env.db.install.count({ where: { userId: carol.id } })).toBe(0);
    const r = await installs.installSkill({ userId: carol.id, slug, version, findingsAck: listing.findingsHash });
    expect(r.outcome).toBe("installed");
    expect(r.install.findings_ack).toBe(listing.findingsHash);
    const event = await env.db.auditEvent.findFirstOrThrow({ where: { userId: carol.id, action: "skill.installed" } });
    expect(event.data).toMatchObject({ findings_ack: listing.findingsHash });
  });

  it("moves the one install on upgrade and downgrade, drops the old version's grants, and counts the person once", async () => {
    const dan = await person("dan");
    const first = await installs.installSkill({ userId: dan.id, slug: "echo", version: "1.0.0" });
    const count = await installsCount("echo");
    const grant = await installs.grantAlwaysAllow({ userId: dan.id, versionId: v.echo100!.id, tool: "echo" });
    expect(await installs.hasAlwaysAllow({ userId: dan.id, versionId: v.echo100!.id, tool: "echo" })).toBe(true);
    expect(await installs.hasAlwaysAllow({ userId: dan.id, versionId: v.echo100!.id, tool: "shout" })).toBe(false);

    const plan = await installs.installPlan({ slug: "echo", version: "1.1.0", userId: dan.id });
    expect(plan.installed).toMatchObject({ version: "1.0.0", sameVersion: false, grantTools: ["echo"] });
    expect(plan.diff).toMatchObject({
      direction: "upgrade",
      toolsAdded: [{ name: "shout" }],
      netWidened: [{ tool: "echo", from: "deny", to: "public" }],
      limitsRaised: [{ tool: "echo", limit: "wall_ms", from: 5000, to: 20_000 }],
      kindsAdded: [{ kind: "notes.write" }],
    });

    const up = await installs.installSkill({ userId: dan.id, slug: "echo", version: "1.1.0" });
    expect(up).toMatchObject({ outcome: "upgraded", previous: "1.0.0", grantsRevoked: 1 });
    expect(up.install.id).toBe(first.install.id);
    expect(up.install.version).toBe("1.1.0");
    expect(await env.db.install.count({ where: { userId: dan.id } })).toBe(1);
    expect(await installsCount("echo")).toBe(count);
    expect(await installs.hasAlwaysAllow({ userId: dan.id, versionId: v.echo100!.id, tool: "echo" })).toBe(false);
    expect(await installs.hasAlwaysAllow({ userId: dan.id, versionId: v.echo110!.id, tool: "echo" })).toBe(false);
    expect((await env.db.approvalGrant.findUniqueOrThrow({ where: { id: grant.id } })).revokedAt).not.toBeNull();
    const upgraded = await env.db.auditEvent.findFirstOrThrow({ where: { userId: dan.id, action: "skill.upgraded" } });
    expect(upgraded.data).toMatchObject({ from: "1.0.0", to: "1.1.0", grants_revoked: 1 });

    // A grant for the new version, then back down: it is dropped too, and the old one stays revoked.
    await installs.grantAlwaysAllow({ userId: dan.id, versionId: v.echo110!.id, tool: "shout" });
    const down = await installs.installSkill({ userId: dan.id, slug: "echo", version: "1.0.0" });
    expect(down).toMatchObject({ outcome: "downgraded", previous: "1.1.0", grantsRevoked: 1 });
    expect(await installs.listGrants(dan.id)).toEqual([]);
    expect(await env.db.auditEvent.count({ where: { userId: dan.id, action: "skill.downgraded" } })).toBe(1);
  });

  it("gives a grant only for an installed version's own tool", async () => {
    const erin = await person("erin");
    await expect(
      installs.grantAlwaysAllow({ userId: erin.id, versionId: v.echo100!.id, tool: "echo" }),
    ).rejects.toMatchObject({
      code: "step.skill_not_installed",
    });
    await installs.installSkill({ userId: erin.id, slug: "echo", version: "1.0.0" });
    await expect(
      installs.grantAlwaysAllow({ userId: erin.id, versionId: v.echo100!.id, tool: "shout" }),
    ).rejects.toMatchObject({
      code: "step.tool_unknown",
      status: 422,
    });
    const a = await installs.grantAlwaysAllow({ userId: erin.id, versionId: v.echo100!.id, tool: "echo" });
    const b = await installs.grantAlwaysAllow({ userId: erin.id, versionId: v.echo100!.id, tool: "echo" });
    expect(b.id).toBe(a.id);
  });
});

describe("requireRunnableInstall", () => {
  it("returns the install, skill, version document and listing with its pinned code", async () => {
    const fay = await person("fay");
    await installs.installSkill({ userId: fay.id, slug: "echo", version: "1.1.0" });
    const r = await installs.requireRunnableInstall({ userId: fay.id, slug: "echo", version: "1.1.0" });
    expect(r.skill.slug).toBe("echo");
    expect(r.version.id).toBe(v.echo110!.id);
    expect((r.version.document as { tools: unknown[] }).tools).toHaveLength(2);
    expect(r.listing.code.map((c) => c.name)).toEqual(["tools/echo.js"]);
    expect(r.install.enabled).toBe(true);
  });

  it("refuses a skill that is not installed, or another version than the installed one", async () => {
    const gus = await person("gus");
    const call = (version: string) => installs.requireRunnableInstall({ userId: gus.id, slug: "echo", version });
    await expect(call("1.0.0")).rejects.toMatchObject({ code: "step.skill_not_installed", status: 409 });
    await installs.installSkill({ userId: gus.id, slug: "echo", version: "1.0.0" });
    await expect(call("1.1.0")).rejects.toMatchObject({ code: "step.skill_not_installed", status: 409 });
    await expect(call("1.0.0")).resolves.toBeTruthy();
    // Someone else's install does not count.
    const hal = await person("hal");
    await expect(
      installs.requireRunnableInstall({ userId: hal.id, slug: "echo", version: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "step.skill_not_installed",
    });
  });

  it("stops at once when the person disables the skill, and runs again when they enable it", async () => {
    const ivy = await person("ivy");
    const { install } = await installs.installSkill({ userId: ivy.id, slug: "echo", version: "1.0.0" });
    const call = () => installs.requireRunnableInstall({ userId: ivy.id, slug: "echo", version: "1.0.0" });
    await expect(call()).resolves.toBeTruthy();
    const off = await installs.setInstallEnabled({ userId: ivy.id, installId: install.id, enabled: false });
    expect(off.enabled).toBe(false);
    await expect(call()).rejects.toMatchObject({ code: "step.skill_disabled", status: 409 });
    // A step recorded before the disable is refused too when it is approved or dispatched.
    await expect(installs.requireRunnableVersion({ userId: ivy.id, versionId: v.echo100!.id })).rejects.toMatchObject({
      code: "step.skill_disabled",
    });
    await installs.setInstallEnabled({ userId: ivy.id, installId: install.id, enabled: true });
    await expect(call()).resolves.toBeTruthy();
    await expect(installs.requireRunnableVersion({ userId: ivy.id, versionId: v.echo100!.id })).resolves.toBeTruthy();
    await expect(installs.requireRunnableVersion({ userId: ivy.id, versionId: v.echo110!.id })).rejects.toMatchObject({
      code: "step.skill_not_installed",
    });
    const actions = (
      await env.db.auditEvent.findMany({ where: { userId: ivy.id }, orderBy: { createdAt: "asc" } })
    ).map((e) => e.action);
    expect(actions.filter((a) => a.startsWith("skill."))).toEqual([
      "skill.installed",
      "skill.disabled",
      "skill.enabled",
    ]);
  });

  it("refuses a version retired after it was installed", async () => {
    const jo = await person("jo");
    const extra = await publish(
      author.id,
      sandboxSkill({ slug: "retiring", version: "1.0.0", tools: [{ name: "echo" }] }),
    );
    await installs.installSkill({ userId: jo.id, slug: "retiring", version: "1.0.0" });
    await env.db.skillVersion.update({ where: { id: extra.id }, data: { retiredAt: new Date() } });
    await expect(
      installs.requireRunnableInstall({ userId: jo.id, slug: "retiring", version: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "step.version_retired",
      status: 409,
    });
    expect((await installs.listInstalls(jo.id))[0]?.blocked).toBe("retired");
  });

  it("blocks a flagged version whose findings changed since the ack, and a version whose verdict became failed or scanning", async () => {
    const copy: Record<string, unknown> = { ...(await demoDoc("openvibe-status")), slug: "flag-copy" };
    delete copy.integrity;
    const flagged = await publish(author.id, copy);
    const kim = await person("kim");
    const listing = await env.db.listing.findUniqueOrThrow({ where: { versionId: flagged.id } });
    await installs.installSkill({
      userId: kim.id,
      slug: "flag-copy",
      version: flagged.version,
      findingsAck: listing.findingsHash,
    });
    const call = () => installs.requireRunnableInstall({ userId: kim.id, slug: "flag-copy", version: flagged.version });
    await expect(call()).resolves.toBeTruthy();

    const changed = `sha256:${"1".repeat(64)}`;
    await env.db.listing.update({ where: { id: listing.id }, data: { findingsHash: changed } });
    await expect(call()).rejects.toMatchObject({ code: "step.scan_blocked", status: 409 });
    const [mine] = await installs.listInstalls(kim.id);
    expect(mine?.blocked).toBe("findings_changed");
    const plan = await installs.installPlan({ slug: "flag-copy", version: flagged.version, userId: kim.id });
    expect(plan.installed).toMatchObject({ sameVersion: true, ackStale: true });
    // Confirming the current findings again makes it runnable, without a second install.
    const again = await installs.installSkill({
      userId: kim.id,
      slug: "flag-copy",
      version: flagged.version,
      findingsAck: changed,
    });
    expect(again.outcome).toBe("unchanged");
    expect(again.install.blocked).toBeNull();
    await expect(call()).resolves.toBeTruthy();

    for (const [s, blocked] of [
      ["failed", "scan_failed"],
      ["scanning", "scan_pending"],
    ] as const) {
      await env.db.skillVersion.update({ where: { id: flagged.id }, data: { status: s } });
      await expect(call()).rejects.toMatchObject({ code: "step.scan_blocked", status: 409 });
      expect((await installs.listInstalls(kim.id))[0]?.blocked).toBe(blocked);
    }
  });
});

describe("uninstall, grants and someone else's rows", () => {
  it("uninstalls: the count goes down, grants are revoked, the event is recorded", async () => {
    const lu = await person("lu");
    const { install } = await installs.installSkill({ userId: lu.id, slug: "echo", version: "1.0.0" });
    await installs.grantAlwaysAllow({ userId: lu.id, versionId: v.echo100!.id, tool: "echo" });
    const count = await installsCount("echo");
    const r = await installs.uninstallSkill({ userId: lu.id, installId: install.id });
    expect(r).toMatchObject({ uninstalled: true, grants_revoked: 1 });
    expect(await installsCount("echo")).toBe(count - 1);
    expect(await env.db.install.count({ where: { userId: lu.id } })).toBe(0);
    expect(await installs.hasAlwaysAllow({ userId: lu.id, versionId: v.echo100!.id, tool: "echo" })).toBe(false);
    expect(await env.db.auditEvent.count({ where: { userId: lu.id, action: "skill.uninstalled" } })).toBe(1);
    await expect(
      installs.requireRunnableInstall({ userId: lu.id, slug: "echo", version: "1.0.0" }),
    ).rejects.toMatchObject({
      code: "step.skill_not_installed",
    });
  });

  it("lists and revokes a grant, recording the revoke", async () => {
    const mo = await person("mo");
    await installs.installSkill({ userId: mo.id, slug: "echo", version: "1.1.0" });
    const g = await installs.grantAlwaysAllow({ userId: mo.id, versionId: v.echo110!.id, tool: "shout" });
    expect((await installs.listGrants(mo.id)).map((x) => [x.slug, x.version, x.tool])).toEqual([
      ["echo", "1.1.0", "shout"],
    ]);
    const revoked = await installs.revokeGrant({ userId: mo.id, grantId: g.id });
    expect(revoked.revoked_at).not.toBeNull();
    expect(await installs.listGrants(mo.id)).toEqual([]);
    expect(await installs.hasAlwaysAllow({ userId: mo.id, versionId: v.echo110!.id, tool: "shout" })).toBe(false);
    expect(await env.db.auditEvent.count({ where: { userId: mo.id, action: "grant.revoked", subjectId: g.id } })).toBe(
      1,
    );
  });

  it("answers 404 for someone else's install or grant, and changes nothing", async () => {
    const owner = await person("owner");
    const other = await person("other");
    const { install } = await installs.installSkill({ userId: owner.id, slug: "echo", version: "1.1.0" });
    const g = await installs.grantAlwaysAllow({ userId: owner.id, versionId: v.echo110!.id, tool: "echo" });
    const notFound = { code: "install.not_found", status: 404 };
    await expect(installs.getInstall(other.id, install.id)).rejects.toMatchObject(notFound);
    await expect(
      installs.setInstallEnabled({ userId: other.id, installId: install.id, enabled: false }),
    ).rejects.toMatchObject(notFound);
    await expect(installs.uninstallSkill({ userId: other.id, installId: install.id })).rejects.toMatchObject(notFound);
    await expect(installs.revokeGrant({ userId: other.id, grantId: g.id })).rejects.toMatchObject({
      code: "grant.not_found",
      status: 404,
    });
    expect((await installs.getInstall(owner.id, install.id)).enabled).toBe(true);
    expect(await installs.hasAlwaysAllow({ userId: owner.id, versionId: v.echo110!.id, tool: "echo" })).toBe(true);
  });
});

describe("routes", () => {
  it("need a session", async () => {
    const res = await installsRoute.GET(req("/api/v1/installs"), params());
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { code: "auth.required" } });
    const post = await installsRoute.POST(
      req("/api/v1/installs", { method: "POST", body: { slug: "echo", version: "1.0.0" } }),
      params(),
    );
    expect(post.status).toBe(401);
  });

  it("install (201), list only the person's own, upgrade (200), disable, uninstall", async () => {
    const pat = await person("pat");
    const other = await person("pat-other");
    await installs.installSkill({ userId: other.id, slug: v.prompt!.slug, version: v.prompt!.version });

    const created = await installsRoute.POST(
      req("/api/v1/installs", { method: "POST", cookie: pat.cookie, body: { slug: "echo", version: "1.0.0" } }),
      params(),
    );
    expect(created.status).toBe(201);
    const body = (await created.json()) as { install: { id: string }; outcome: string };
    expect(body.outcome).toBe("installed");

    const listed = (await (
      await installsRoute.GET(req("/api/v1/installs", { cookie: pat.cookie }), params())
    ).json()) as {
      installs: { id: string; slug: string }[];
    };
    expect(listed.installs.map((i) => i.slug)).toEqual(["echo"]);

    const up = await installsRoute.POST(
      req("/api/v1/installs", { method: "POST", cookie: pat.cookie, body: { slug: "echo", version: "1.1.0" } }),
      params(),
    );
    expect(up.status).toBe(200);
    expect(await up.json()).toMatchObject({ outcome: "upgraded", previous: "1.0.0" });

    const id = body.install.id;
    const off = await installRoute.PATCH(
      req(`/api/v1/installs/${id}`, { method: "PATCH", cookie: pat.cookie, body: { enabled: false } }),
      params({ id }),
    );
    expect(off.status).toBe(200);
    expect(await off.json()).toMatchObject({ install: { enabled: false } });
    await expect(
      installs.requireRunnableInstall({ userId: pat.id, slug: "echo", version: "1.1.0" }),
    ).rejects.toMatchObject({
      code: "step.skill_disabled",
    });

    const bad = await installRoute.PATCH(
      req(`/api/v1/installs/${id}`, { method: "PATCH", cookie: pat.cookie, body: { enabled: "no" } }),
      params({ id }),
    );
    expect(bad.status).toBe(422);
    expect(await bad.json()).toMatchObject({ error: { code: "request.invalid" } });

    const gone = await installRoute.DELETE(
      req(`/api/v1/installs/${id}`, { method: "DELETE", cookie: pat.cookie }),
      params({ id }),
    );
    expect(gone.status).toBe(200);
    expect((await installRoute.GET(req(`/api/v1/installs/${id}`, { cookie: pat.cookie }), params({ id }))).status).toBe(
      404,
    );
  });

  it("refuse flagged without the ack (409), failed (409), a malformed ack (422)", async () => {
    const quinn = await person("quinn");
    const post = (b: unknown) =>
      installsRoute.POST(req("/api/v1/installs", { method: "POST", cookie: quinn.cookie, body: b }), params());
    const flagged = await post({ slug: v.flagged!.slug, version: v.flagged!.version });
    expect(flagged.status).toBe(409);
    expect(await flagged.json()).toMatchObject({ error: { code: "install.findings_ack_required" } });
    const failed = await post({ slug: v.failed!.slug, version: v.failed!.version });
    expect(failed.status).toBe(409);
    expect(await failed.json()).toMatchObject({ error: { code: "install.scan_failed" } });
    const malformed = await post({ slug: v.flagged!.slug, version: v.flagged!.version, findings_ack: "yes" });
    expect(malformed.status).toBe(422);
    expect(await malformed.json()).toMatchObject({ error: { code: "request.invalid" } });
  });

  it("answer 404 for someone else's install and grant", async () => {
    const rae = await person("rae");
    const sam = await person("sam");
    const { install } = await installs.installSkill({ userId: rae.id, slug: "echo", version: "1.1.0" });
    const g = await installs.grantAlwaysAllow({ userId: rae.id, versionId: v.echo110!.id, tool: "echo" });
    const id = install.id;
    const asSam = { cookie: sam.cookie };
    expect((await installRoute.GET(req(`/api/v1/installs/${id}`, asSam), params({ id }))).status).toBe(404);
    const patch = await installRoute.PATCH(
      req(`/api/v1/installs/${id}`, { ...asSam, method: "PATCH", body: { enabled: false } }),
      params({ id }),
    );
    expect(patch.status).toBe(404);
    expect(await patch.json()).toMatchObject({ error: { code: "install.not_found" } });
    expect(
      (await installRoute.DELETE(req(`/api/v1/installs/${id}`, { ...asSam, method: "DELETE" }), params({ id }))).status,
    ).toBe(404);
    const revoke = await grantRoute.DELETE(
      req(`/api/v1/grants/${g.id}`, { ...asSam, method: "DELETE" }),
      params({ id: g.id }),
    );
    expect(revoke.status).toBe(404);
    expect(await revoke.json()).toMatchObject({ error: { code: "grant.not_found" } });
    const samGrants = (await (await grantsRoute.GET(req("/api/v1/grants", asSam), params())).json()) as {
      grants: unknown[];
    };
    expect(samGrants.grants).toEqual([]);

    // Rae's own revoke works and her install is untouched by Sam's attempts.
    const own = await grantRoute.DELETE(
      req(`/api/v1/grants/${g.id}`, { cookie: rae.cookie, method: "DELETE" }),
      params({ id: g.id }),
    );
    expect(own.status).toBe(200);
    expect((await installs.getInstall(rae.id, id)).enabled).toBe(true);
  });

  it("refuse a cookie-authenticated change from another site", async () => {
    const tia = await person("tia");
    const res = await installsRoute.POST(
      new Request(`${BASE}/api/v1/installs`, {
        method: "POST",
        headers: { cookie: tia.cookie, "content-type": "application/json", origin: "https://evil.example" },
        body: JSON.stringify({ slug: "echo", version: "1.0.0" }),
      }),
      params(),
    );
    expect(res.status).toBe(403);
    expect(await env.db.install.count({ where: { userId: tia.id } })).toBe(0);
  });
});
