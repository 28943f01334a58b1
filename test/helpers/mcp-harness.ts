// The MCP tests' world: a throw-away database, two web processes (this one and a child process)
// behind a round-robin balancer at APP_URL, a person with skills installed, and optionally a real
// paired `openvibe-link run` with its skill runner on. Every request of an MCP session may land on
// either process, so the tests prove that sessions, elicitation and list_changed work across them.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { vi } from "vitest";
import { setupIntegration, type IntegrationEnv } from "./integration";
import { freePort, roundRobin, type RoundRobin } from "./round-robin";
import { mcpRoutes, serveStreaming } from "./stream-server";

export const ROOT = path.resolve(import.meta.dirname, "../..");
const LINK_BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");

export type McpWorld = {
  env: IntegrationEnv;
  appUrl: string;
  balancer: RoundRobin;
  /** The environment a child process needs to be one of the app's processes. */
  appEnv: NodeJS.ProcessEnv;
  startLink(userId: string): Promise<void>;
  close(): Promise<void>;
};

async function until<T>(what: string, fn: () => Promise<T | null | undefined | false>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await fn();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [LINK_BIN, ...args], { env });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out }));
  });
}

export async function setupMcpWorld(name: string): Promise<McpWorld> {
  const port = await freePort();
  const appUrl = `http://127.0.0.1:${port}`;
  // Before any app module reads its config: tokens, approval URLs and metadata name APP_URL.
  vi.stubEnv("APP_URL", appUrl);
  const env = await setupIntegration(name);
  const appEnv = {
    PATH: process.env.PATH,
    DATABASE_URL: env.database.url,
    REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0",
    REDIS_PREFIX: env.redisPrefix,
    AUTH_SECRET: "integration-secret-".padEnd(40, "x"),
    DATA_DIR: env.dataDir,
    APP_URL: appUrl,
    LOG_LEVEL: "error",
  } as unknown as NodeJS.ProcessEnv;

  const here = await serveStreaming(await mcpRoutes());
  const other = spawn(process.execPath, ["--import", "./scripts/no-server-only.mjs", "--import", "tsx", "test/helpers/web-process.ts"], {
    cwd: ROOT,
    env: appEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let otherOut = "";
  other.stderr!.on("data", (d) => (otherOut += d));
  const otherPort = await new Promise<number>((resolve, reject) => {
    other.stdout!.on("data", (d: Buffer) => {
      otherOut += d;
      const m = /listening (\d+)/.exec(otherOut);
      if (m) resolve(Number(m[1]));
    });
    other.on("exit", (code) => reject(new Error(`the second web process exited (${code}): ${otherOut}`)));
  });
  const balancer = await roundRobin(port, [here.url, `http://127.0.0.1:${otherPort}`]);

  const links: ChildProcess[] = [];
  const linkHomes: string[] = [];
  return {
    env,
    appUrl,
    balancer,
    appEnv,
    async startLink(userId: string) {
      const home = await mkdtemp(path.join(tmpdir(), `ov-${name}-link-`));
      linkHomes.push(home);
      const linkEnv = { PATH: process.env.PATH, HOME: home, OPENVIBE_LINK_HOME: path.join(home, "link") } as unknown as NodeJS.ProcessEnv;
      const { createPairingCode } = await import("../../lib/links");
      const { code } = await createPairingCode(userId);
      // The Link talks to one process directly, so the balancer's order is the MCP clients' alone.
      const paired = await run(["pair", code, "--server", here.url, "--name", "mcp-test-machine"], linkEnv);
      if (paired.code !== 0) throw new Error(`pair failed: ${paired.out}`);
      if ((await run(["skills", "on"], linkEnv)).code !== 0) throw new Error("skills on failed");
      const child = spawn(process.execPath, [LINK_BIN, "run"], { env: linkEnv, stdio: "ignore" });
      links.push(child);
      await until("the Link to poll", async () =>
        (await env.db.link.findFirst({ where: { userId, lastSeenAt: { gt: new Date(Date.now() - 5_000) } } })) !== null,
      );
    },
    async close() {
      for (const l of links) l.kill("SIGKILL");
      other.kill("SIGTERM");
      await balancer.close();
      await here.close();
      await (await import("../../lib/mcp")).closeRelay();
      await (await import("../../lib/runs")).dispatchQueue().close();
      await (await import("../../lib/registry")).scanQueue().close();
      await (await import("../../lib/events")).closeEvents();
      await env.teardown();
      for (const h of linkHomes) await rm(h, { recursive: true, force: true });
    },
  };
}

/** A person with a balance, the demo text-tools skill (sandbox) and a prompt skill installed. */
export async function seedPerson(email: string) {
  const { createUser } = await import("../../lib/auth/users");
  const { loadBundle } = await import("../../lib/contracts");
  const { publishSkill, scanVersion } = await import("../../lib/registry");
  const { installSkill } = await import("../../lib/installs");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  const person = await createUser({ email, name: "MCP Person", password: null });
  const publish = async (dir: string) => {
    const bundle = await loadBundle(path.join(ROOT, dir));
    if (!bundle.ok) throw new Error(`bundle ${dir}`);
    const published = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
    await scanVersion(published.versionId);
    await installSkill({ userId: person.id, slug: bundle.document.slug, version: bundle.document.version });
    return bundle.document;
  };
  await recordTopUp({ userId: person.id, amountMicros: 5_000_000n, paymentId: `mcp-${email}`, memo: "test" });
  return { person, publish };
}
