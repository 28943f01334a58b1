// `openvibe install`, `openvibe agents create` and `openvibe runs` against the real routes over
// HTTP: each works with a token that has its scope and reports the registry's refusal without it.
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentsCreateCommand, installCommand, runsCommand } from "../../cli/account";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let auth: typeof import("../../lib/auth");
let person: { id: string };

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return { lines, errors, out: { line: (t: string) => lines.push(t), error: (t: string) => errors.push(t) } };
}

async function tokenWith(...scopes: import("../../lib/auth").ApiTokenScope[]) {
  return { server: server.url, token: (await auth.createApiToken(person.id, scopes.join(" "), { scopes })).secret };
}

beforeAll(async () => {
  env = await setupIntegration("cli-account");
  auth = await import("../../lib/auth");
  const skill = await import("../../app/api/v1/skills/[slug]/route");
  const installs = await import("../../app/api/v1/installs/route");
  const agents = await import("../../app/api/v1/agents/route");
  const runs = await import("../../app/api/v1/runs/route");
  server = await serveRoutes([
    { method: "GET", pattern: "/api/v1/skills/[slug]", handler: skill.GET },
    { method: "POST", pattern: "/api/v1/installs", handler: installs.POST },
    { method: "POST", pattern: "/api/v1/agents", handler: agents.POST },
    { method: "GET", pattern: "/api/v1/runs", handler: runs.GET },
  ]);
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  person = await auth.createUser({ email: "cli-account@example.test", name: "Cli", password: null });
  const bundle = await loadBundle(path.join(ROOT, "scripts/demo/skills/text-tools"));
  if (!bundle.ok) throw new Error("bundle");
  await scanVersion((await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" })).versionId);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await (await import("../../lib/runs")).dispatchQueue().close();
  await (await import("../../lib/registry")).scanQueue().close();
  await (await import("../../lib/events")).closeEvents();
  await env?.teardown();
});

describe("with a token that has only `installs`", () => {
  it("installs the latest version, and reports the missing scope for agents and runs", async () => {
    const o = await tokenWith("installs");
    const ok = capture();
    expect(await installCommand(o, "text-tools", ok.out)).toBe(0);
    expect(ok.lines.join("\n")).toMatch(/✓ text-tools@\d+\.\d+\.\d+: installed/);
    expect(await env.db.install.count({ where: { userId: person.id } })).toBe(1);

    const agents = capture();
    expect(await agentsCreateCommand(o, "bot", agents.out)).toBe(1);
    expect(agents.errors.join("\n")).toMatch(/auth\.scope_missing: .*`agents`/);
    const runs = capture();
    expect(await runsCommand(o, runs.out)).toBe(1);
    expect(runs.errors.join("\n")).toMatch(/auth\.scope_missing: .*`runs:read`/);
  });

  it("names an unknown skill's refusal", async () => {
    const missing = capture();
    expect(await installCommand(await tokenWith("installs"), "no-such-skill", missing.out)).toBe(1);
    expect(missing.errors.join("\n")).toMatch(/^openvibe: [a-z.]*not_found: /);
  });
});

describe("with the scope each needs", () => {
  it("creates an agent and prints its token once; lists runs", async () => {
    const created = capture();
    expect(await agentsCreateCommand(await tokenWith("agents"), "ci-bot", created.out)).toBe(0);
    expect(created.lines.join("\n")).toMatch(/✓ agent ci-bot .*\n\s+token \(shown once\): ova_/);
    expect(await env.db.agent.count({ where: { userId: person.id, name: "ci-bot" } })).toBe(1);
    const runs = capture();
    expect(await runsCommand(await tokenWith("runs:read"), runs.out)).toBe(0);
    expect(runs.lines).toEqual(["No runs yet."]);
  });
});
