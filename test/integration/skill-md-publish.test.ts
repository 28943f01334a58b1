// SKILL.md in and out over real HTTP: real Agent Skills folders published with `openvibe publish
// DIR --version` and the API (no edits but a version), refused clearly without one, downloaded as
// a zip that is byte-identical in SKILL.md and resources and republishes to the same integrity.
import { spawn } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";
import { serveRoutes } from "../helpers/route-server";
import { tempDir } from "../helpers/temp-dir";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FIXTURES = path.join(ROOT, "test/fixtures/agent-skills");
let env: IntegrationEnv;
let server: Awaited<ReturnType<typeof serveRoutes>>;
let token: string;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(ROOT, "bin/openvibe.mjs"), ...args], {
      env: { PATH: process.env.PATH, OPENVIBE_TOKEN: token, OPENVIBE_SERVER: server.url } as unknown as NodeJS.ProcessEnv,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    child.on("close", (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

async function readFolder(dir: string, rel = "", out = new Map<string, Buffer>()) {
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) await readFolder(dir, p, out);
    else if (e.isFile()) out.set(p, await readFile(path.join(dir, p)));
  }
  return out;
}

const download = (slug: string, version: string) => fetch(`${server.url}/api/v1/skills/${slug}/${version}/skill-md`);

const publishArchive = (zip: ArrayBuffer, query = "") =>
  fetch(`${server.url}/api/v1/skills${query}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/zip" },
    body: zip,
  });

beforeAll(async () => {
  env = await setupIntegration("skillmd");
  const publish = await import("../../app/api/v1/skills/route");
  const skillMd = await import("../../app/api/v1/skills/[slug]/[version]/skill-md/route");
  const doc = await import("../../app/api/v1/skills/[slug]/[version]/route");
  server = await serveRoutes([
    { method: "POST", pattern: "/api/v1/skills", handler: publish.POST },
    { method: "GET", pattern: "/api/v1/skills/[slug]/[version]/skill-md", handler: skillMd.GET },
    { method: "GET", pattern: "/api/v1/skills/[slug]/[version]", handler: doc.GET },
  ]);
  const { createUser, createApiToken } = await import("../../lib/auth");
  const user = await createUser({ email: "skillmd@example.test", name: "Agent Skills author", password: null });
  token = (await createApiToken(user.id, "cli")).secret;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await (await import("../../lib/registry")).scanQueue().close();
  await env?.teardown();
});

describe("publishing an Agent Skills folder", () => {
  it("without a version anywhere, the CLI refuses and says how to give one", async () => {
    const r = await cli(["publish", path.join(FIXTURES, "webapp-testing")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/skill_md\.version_required/);
    expect(r.stderr).toMatch(/--version 1\.0\.0/);
    expect(await env.db.skill.count({ where: { slug: "webapp-testing" } })).toBe(0);
  });

  for (const name of ["internal-comms", "mcp-builder", "webapp-testing"]) {
    it(`${name}: publishes with --version alone, downloads byte for byte, republishes to the same integrity`, async () => {
      const r = await cli(["publish", path.join(FIXTURES, name), "--version", "1.0.0"]);
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(new RegExp(`✓ Published ${name}@1\\.0\\.0`));
      const version = await env.db.skillVersion.findFirstOrThrow({ where: { skill: { slug: name } } });
      expect(version).toMatchObject({ contract: "actor.skill@1", runs: "prompt" });

      const res = await download(name, "1.0.0");
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("application/zip");
      expect(res.headers.get("content-disposition")).toBe(`attachment; filename="${name}-1.0.0.zip"`);
      const zip = await res.arrayBuffer();
      const { readArchive } = await import("../../lib/registry");
      const unzipped = await readArchive(Buffer.from(zip));
      const original = await readFolder(path.join(FIXTURES, name));
      expect([...unzipped.keys()].sort()).toEqual([...original.keys()].sort());
      for (const [p, bytes] of original) expect(unzipped.get(p)!.equals(bytes), p).toBe(true);

      const again = await publishArchive(zip, "?version=1.0.0");
      expect(again.status).toBe(200);
      expect(await again.json()).toMatchObject({ slug: name, version: "1.0.0", integrity: version.integrity, created: false, source: "skill_md" });
    });
  }

  it("a version in both places must agree, and --version is only for SKILL.md folders", async () => {
    const dir = tempDir("skillmd");
    await writeFile(
      path.join(dir, "SKILL.md"),
      '---\nname: versioned-notes\ndescription: Notes with a version.\nmetadata:\n  version: "1.0.0"\n---\n\nTake notes.\n',
    );
    const conflict = await cli(["publish", dir, "--version", "2.0.0"]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toMatch(/skill_md\.version_conflict: SKILL\.md says version 1\.0\.0 and you asked for 2\.0\.0/);
    const stated = await cli(["publish", dir, "--dry-run"]);
    expect(stated.code, stated.stderr).toBe(0);
    expect(stated.stdout).toMatch(/versioned-notes@1\.0\.0 would publish/);
    const bundle = await cli(["publish", path.join(ROOT, "scripts/demo/skills/text-tools"), "--version", "9.9.9"]);
    expect(bundle.code).toBe(2);
    expect(bundle.stderr).toMatch(/--version is for a SKILL\.md folder/);
  });
});

describe("Download SKILL.md folder", () => {
  it("a prompt skill published from skill.json downloads as a folder that republishes to the same integrity", async () => {
    const r = await cli(["publish", path.join(ROOT, "scripts/demo/skills/release-notes-writer")]);
    expect(r.code, r.stderr).toBe(0);
    const published = await env.db.skillVersion.findFirstOrThrow({ where: { skill: { slug: "release-notes-writer" } } });
    const zip = await (await download("release-notes-writer", published.version)).arrayBuffer();
    const again = await publishArchive(zip);
    expect(again.status, await again.clone().text()).toBe(200);
    expect(await again.json()).toMatchObject({ integrity: published.integrity, created: false, source: "skill_md" });
  });

  it("is refused for a sandbox skill, and unknown versions are 404", async () => {
    expect((await cli(["publish", path.join(ROOT, "scripts/demo/skills/text-tools")])).code).toBe(0);
    const res = await download("text-tools", "2.0.1");
    expect(res.status).toBe(409);
    expect((await res.json()).error.code).toBe("skill.not_prompt");
    expect((await download("no-such-skill", "1.0.0")).status).toBe(404);
  });
});
