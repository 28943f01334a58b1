// What bench:run stands on: a scratch database and data folder, the Link and agent route handlers
// over HTTP, text-tools published, installed and always allowed for one person with a balance, and
// `links` real `openvibe-link run` processes paired to that person and online. The Links and the
// agents' calls are shared with bench:load's fixture (./start-fixture.ts, a real `npm start`).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { createThrowawayDatabase } from "../test/helpers/test-database";
import { serveRoutes } from "../test/helpers/route-server";
import { startAgents, type Agents, type StepAnswer } from "./agents";
import { closeBench } from "./app-clients";

export const ROOT = path.resolve(import.meta.dirname, "..");
export const TEXT_TOOLS = path.join(ROOT, "scripts/demo/skills/text-tools");
const LINK_BIN = path.join(ROOT, "link/bin/openvibe-link.mjs");
const ONLINE_WAIT_MS = 15_000;

export const pct = (xs: number[], p: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] ?? NaN;

export type { StepAnswer };

export interface RunFixture {
  url: string;
  /** The base URL of `/api/mcp`, where the fixture serves it (null: only the REST API and the Link API). */
  mcpUrl: string | null;
  /** `text-tools@<version>` */
  skill: string;
  personId: string;
  /** A new agent of the person, with a daily allowance no bench reaches; its bearer token. */
  agentToken(name: string): Promise<string>;
  /**
   * A word_count call to its end, made by an agent in a process of its own (bench/agents.ts):
   * POST with `Prefer: wait`, then long polls while it has not ended. `ms` is its time there.
   */
  call(token: string, text: string): Promise<StepAnswer & { ms: number }>;
  /** First calls of `tokens`, all at once, each on a new connection: each one's time to be accepted. */
  firstCalls(tokens: string[], text: string): Promise<number[]>;
  stop(): Promise<void>;
}

function linkCli(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) =>
    spawn(process.execPath, [LINK_BIN, ...args], { env, stdio: "ignore" }).on("close", (c) => resolve(c ?? 1)),
  );
}

/**
 * A scratch database and data folder, and this process's environment pointed at them (and at a
 * Redis prefix of its own), before the app's modules are loaded.
 */
export async function scratchInstance(name: string) {
  const database = await createThrowawayDatabase(`ov_bench_${name}`);
  const dataDir = await mkdtemp(path.join(tmpdir(), `ov-bench-${name}-`));
  /* eslint-disable no-restricted-properties */
  process.env.DATABASE_URL = database.url;
  process.env.DATA_DIR = dataDir;
  process.env.REDIS_PREFIX = `bench-${name}:${process.pid}`;
  process.env.LOG_LEVEL = "error";
  process.env.AUTH_SECRET ??= "bench-secret-not-for-anything-else-0000";
  process.env.REDIS_URL ??= "redis://127.0.0.1:6379/0";
  /* eslint-enable no-restricted-properties */
  return { database, dataDir };
}

export async function startRunFixture(opts: { name: string; links: number; jobs?: number }): Promise<RunFixture> {
  const { database, dataDir } = await scratchInstance(opts.name);
  const links: ChildProcess[] = [];
  let stopAgents = () => {};
  let server: Awaited<ReturnType<typeof serveRoutes>> | undefined;
  const stop = async () => {
    await stopLinks(links);
    stopAgents();
    await server?.close();
    const { db } = await import("../lib/db");
    await db.$disconnect();
    await closeBench({ database, dataDir });
  };
  try {
    const { createUser } = await import("../lib/auth/users");
    const { loadBundle } = await import("../lib/contracts");
    const { publishSkill, scanVersion } = await import("../lib/registry");
    const r = (p: string) => import(p);
    const linkRoute = (method: string, p: string) => ({
      method,
      pattern: `/api/link/v1/${p}`,
      handler: r(`../app/api/link/v1/${p}/route`),
    });
    const table = [
      linkRoute("POST", "pair"),
      linkRoute("POST", "heartbeat"),
      linkRoute("POST", "poll"),
      linkRoute("POST", "jobs/[id]/start"),
      linkRoute("POST", "jobs/[id]/result"),
      linkRoute("GET", "jobs/[id]/inputs/[mediaId]"),
      { method: "POST", pattern: "/api/v1/steps", handler: r("../app/api/v1/steps/route") },
      { method: "GET", pattern: "/api/v1/steps/[id]", handler: r("../app/api/v1/steps/[id]/route") },
    ];
    server = await serveRoutes([
      ...(await Promise.all(
        table.map(async (t) => ({ method: t.method, pattern: t.pattern, handler: (await t.handler)[t.method] })),
      )),
      // The Link checks a version against the transparency log before its first run.
      ...(await (await import("../test/helpers/tlog-routes")).tlogRoutes()),
    ]);
    const url = server.url;

    const person = await createUser({ email: `${opts.name}@bench.test`, name: "Bench", password: null });
    const bundle = await loadBundle(TEXT_TOOLS);
    if (!bundle.ok) throw new Error("text-tools does not load");
    const published = await publishSkill({ ownerId: person.id, document: bundle.document, scan: "none" });
    await scanVersion(published.versionId);
    const ready = await personAtWork({
      url,
      personId: person.id,
      version: { id: published.versionId, version: bundle.document.version },
      dataDir,
      links: opts.links,
      jobs: opts.jobs,
    });
    links.push(...ready.links);
    stopAgents = ready.close;
    return { url, mcpUrl: null, skill: ready.skill, personId: person.id, ...ready.ops, stop };
  } catch (err) {
    console.error("fixture failed:", err);
    await stop().catch(() => undefined);
    throw err;
  }
}

/**
 * `count` real `openvibe-link run [--jobs J]` processes paired to the person at `url`, skill runner
 * on, each with its own home under `dataDir`; resolves once every one is online.
 */
export async function startLinks(opts: {
  url: string;
  personId: string;
  dataDir: string;
  count: number;
  jobs?: number;
}): Promise<ChildProcess[]> {
  const { createPairingCode } = await import("../lib/links");
  const { db } = await import("../lib/db");
  const links: ChildProcess[] = [];
  try {
    for (let i = 0; i < opts.count; i++) {
      const env = {
        // eslint-disable-next-line no-restricted-properties -- the Link's own environment, not app configuration
        PATH: process.env.PATH,
        OPENVIBE_LINK_HOME: path.join(opts.dataDir, `link-${i}`),
      } as unknown as NodeJS.ProcessEnv;
      const { code } = await createPairingCode(opts.personId);
      if ((await linkCli(["pair", code, "--server", opts.url, "--name", `bench-${i}`], env)) !== 0)
        throw new Error("pairing failed");
      await linkCli(["skills", "on"], env);
      const slots = opts.jobs ? ["--jobs", String(opts.jobs)] : [];
      links.push(spawn(process.execPath, [LINK_BIN, "run", ...slots], { env, stdio: "ignore" }));
    }
    const deadline = Date.now() + ONLINE_WAIT_MS;
    const online = () =>
      db.link.count({ where: { userId: opts.personId, lastSeenAt: { gt: new Date(Date.now() - 3_000) } } });
    while ((await online()) < opts.count) {
      if (Date.now() > deadline) throw new Error(`only some of the ${opts.count} Links came online`);
      await new Promise((res) => setTimeout(res, 100));
    }
    return links;
  } catch (err) {
    for (const link of links) link.kill("SIGTERM");
    throw err;
  }
}

/**
 * The person put to work on text-tools `version`: installed, word_count always allowed, a balance,
 * `links` Links paired and online, and their agents' calls (fixtureAgents).
 */
export async function personAtWork(opts: {
  url: string;
  personId: string;
  version: { id: string; version: string };
  dataDir: string;
  links: number;
  jobs?: number;
}) {
  const { installSkill, grantAlwaysAllow } = await import("../lib/installs");
  const { recordTopUp } = await import("../lib/billing/ledger");
  await installSkill({ userId: opts.personId, slug: "text-tools", version: opts.version.version });
  await grantAlwaysAllow({ userId: opts.personId, versionId: opts.version.id, tool: "word_count" });
  await recordTopUp({ userId: opts.personId, amountMicros: 1_000_000_000n, paymentId: "bench", memo: "bench" });
  const links = await startLinks({ ...opts, count: opts.links });
  const skill = `text-tools@${opts.version.version}`;
  const agents = fixtureAgents({ url: opts.url, skill, personId: opts.personId });
  return { links, skill, ...agents };
}

/** Stops Links started by startLinks, each after it finished what it held. */
export async function stopLinks(links: ChildProcess[]): Promise<void> {
  await Promise.all(
    links
      .filter((l) => l.exitCode === null)
      .map((l) => {
        const exited = new Promise((res) => l.once("exit", res));
        l.kill("SIGTERM");
        return exited;
      }),
  );
}

/** The person's agents (new ones, with an allowance no bench reaches) and their calls, made by ./agents. */
export function fixtureAgents(opts: { url: string; skill: string; personId: string }) {
  let agents: Agents | undefined;
  const ops = {
    async agentToken(name: string) {
      const { createAgent, setAllowance } = await import("../lib/agents");
      const made = await createAgent(opts.personId, { name });
      await setAllowance(opts.personId, made.agent.id, 1_000_000_000_000n);
      return made.token;
    },
    async call(token: string, text: string) {
      agents ??= startAgents();
      const body = JSON.stringify({ skill: opts.skill, tool: "word_count", input: { text } });
      const done = await agents.run(opts.url, token, body);
      return { ...done.step, ms: done.ms };
    },
    async firstCalls(tokens: string[], text: string) {
      agents ??= startAgents();
      const body = JSON.stringify({ skill: opts.skill, tool: "word_count", input: { text } });
      return agents.calls(opts.url, "/api/v1/steps", body, tokens, true);
    },
  };
  return { ops, close: () => agents?.close() };
}
