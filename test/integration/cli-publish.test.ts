// `openvibe publish DIR`, the real CLI process, against the real publish route over HTTP.
import { spawn } from "node:child_process";
import { cp, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";
import { tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let token: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/openvibe.mjs"), ...args], {
      env: {
        PATH: process.env.PATH,
        TMPDIR: process.env.TMPDIR,
        OPENVIBE_TOKEN: token,
        OPENVIBE_SERVER: server.url,
      } as unknown as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

beforeAll(async () => {
  env = await setupIntegration("clipublish");
  const publish = await import("../../app/api/v1/skills/route");
  server = await serveRoutes([{ method: "POST", pattern: "/api/v1/skills", handler: publish.POST }]);
  const { createUser, createApiToken } = await import("../../lib/auth");
  const user = await createUser({ email: "cli@example.test", name: "Cli", password: null });
  token = (await createApiToken(user.id, "cli")).secret;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await (await import("../../lib/registry")).scanQueue().close();
  await env?.teardown();
});

describe("openvibe publish", () => {
  it("publishes a demo skill, shows progress and prints the listing URL", async () => {
    const r = await cli(["publish", path.join(ROOT, "scripts/demo/skills/text-tools")]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/▸ Checking text-tools/);
    expect(r.stdout).toMatch(/▸ Uploading \d+ files/);
    expect(r.stdout).toMatch(/✓ Published text-tools@/);
    expect(r.stdout).toMatch(/\/skills\/text-tools\/\d+\.\d+\.\d+/);
    expect(await env.db.skillVersion.count({ where: { skill: { slug: "text-tools" } } })).toBe(1);
    // It sent an Idempotency-Key, whose first answer the registry now keeps for a retry.
    const kept = await env.db.idempotencyKey.findMany();
    expect(kept).toHaveLength(1);
    expect(kept[0]).toMatchObject({ status: 201, scope: expect.stringMatching(/^user:/) });
  });

  it("prints every problem with its path and exits 1 for a broken bundle", async () => {
    const dir = tempDir("cli");
    await cp(path.join(ROOT, "scripts/demo/skills/csv-stats"), dir, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(dir, "skill.json"), "utf8"));
    manifest.tools[0].net = "anywhere";
    manifest.tools[0].limits = { wall_ms: 999999 };
    await writeFile(path.join(dir, "skill.json"), JSON.stringify(manifest));
    const r = await cli(["publish", dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\/tools\/0\/net/);
    expect(r.stderr).toMatch(/\/tools\/0\/limits\/wall_ms/);
  });

  it("uploads every listed resource, node_modules/ included, and names the files it leaves out", async () => {
    const dir = tempDir("cli");
    await cp(path.join(ROOT, "scripts/demo/skills/text-tools"), dir, { recursive: true });
    const manifest = JSON.parse(await readFile(path.join(dir, "skill.json"), "utf8"));
    manifest.slug = "text-tools-vendored";
    manifest.resources.push({ name: "node_modules/tiny-pad/index.js", media_type: "text/javascript" });
    await writeFile(path.join(dir, "skill.json"), JSON.stringify(manifest));
    await mkdir(path.join(dir, "node_modules/tiny-pad"), { recursive: true });
    await writeFile(path.join(dir, "node_modules/tiny-pad/index.js"), "module.exports = (s) => String(s);\n");
    const entry = path.join(dir, "tools/slugify.js");
    await writeFile(entry, 'require("tiny-pad");\n' + (await readFile(entry, "utf8")));
    const r = await cli(["publish", dir]);
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/not in skill\.json, so not uploaded: demo\.json/);
    const listing = await env.db.listing.findFirst({
      where: { version: { skill: { slug: "text-tools-vendored" } } },
      include: { code: true },
    });
    expect(listing?.code.map((c) => c.name).sort()).toEqual([
      "node_modules/tiny-pad/index.js",
      "tools/slugify.js",
      "tools/word-count.js",
    ]);
  });

  it("exits 2 with usage on bad arguments", async () => {
    expect((await cli(["publsh", "x"])).code).toBe(2);
  });
});
