// What bench:load stands on: a real `npm start` (the production build, its web server and worker
// host, no local Link) on a scratch database, data folder and Redis prefix, a new person with the
// seeded text-tools installed, always allowed and a balance, and `links` real `openvibe-link run`
// processes paired to that person and online. The agents call the site as the load run
// does, over HTTP to Next.js.
import { spawn, type ChildProcess } from "node:child_process";
import { createWriteStream } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { closeBench } from "./app-clients";
import { personAtWork, ROOT, scratchInstance, stopLinks, type RunFixture } from "./run-fixture";

/** `npm start` builds first when .next is stale: minutes on a small machine. */
const READY_WAIT_MS = 15 * 60_000;
const SCAN_WAIT_MS = 120_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** `npm start -- --no-link` with `env`; resolves to its URL once it says it is ready. Its output goes to `logFile`. */
function startSite(env: NodeJS.ProcessEnv, logFile: string): Promise<{ site: ChildProcess; url: string }> {
  const site = spawn(process.execPath, [path.join(ROOT, "scripts/start.mjs"), "--no-link"], {
    cwd: ROOT,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const log = createWriteStream(logFile);
  site.stderr!.pipe(log);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`npm start was not ready in time; see ${logFile}`)), READY_WAIT_MS);
    let seen = "";
    site.stdout!.on("data", (chunk: Buffer) => {
      log.write(chunk);
      seen += chunk.toString("utf8");
      for (const line of seen.split("\n")) if (line.startsWith("▸ Build:")) console.log(`  ${line}`);
      const ready = /▸ Ready: (\S+)/.exec(seen);
      if (ready) {
        clearTimeout(timer);
        resolve({ site, url: ready[1]! });
      }
      seen = seen.slice(seen.lastIndexOf("\n") + 1);
    });
    site.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm start exited (${code}) before it was ready; see ${logFile}`));
    });
  });
}

export async function startSiteFixture(opts: { name: string; links: number; jobs?: number }): Promise<RunFixture> {
  const { database, dataDir } = await scratchInstance(opts.name);
  // The site says where it is itself (http://localhost:PORT), whatever this shell was given.
  // eslint-disable-next-line no-restricted-properties -- the site's own environment, from this process's
  const siteEnv: Record<string, string | undefined> = { ...process.env, PORT: String(await freePort()), HOST: "127.0.0.1" };
  delete siteEnv.APP_URL;
  delete siteEnv.NEXTAUTH_URL;
  let site: ChildProcess | undefined;
  let links: ChildProcess[] = [];
  let stopAgents: () => void = () => {};
  const stop = async () => {
    await stopLinks(links);
    stopAgents();
    if (site && site.exitCode === null) {
      const exited = new Promise((res) => site!.once("exit", res));
      site.kill("SIGINT");
      await exited;
    }
    const { db } = await import("../lib/db");
    await db.$disconnect();
    await closeBench({ database, dataDir });
  };
  try {
    const logFile = path.join(tmpdir(), `ov-bench-${opts.name}-site.log`);
    console.log(`  npm start -- --no-link on a scratch database (its output: ${logFile})`);
    const started = await startSite(siteEnv as NodeJS.ProcessEnv, logFile);
    site = started.site;
    const url = started.url;

    const { createUser } = await import("../lib/auth/users");
    const { db } = await import("../lib/db");
    // The seed publishes text-tools; the worker host scans it.
    const deadline = Date.now() + SCAN_WAIT_MS;
    let version = await db.skillVersion.findFirst({ where: { skill: { slug: "text-tools" }, status: "passed" } });
    while (!version) {
      if (Date.now() > deadline) throw new Error("the seeded text-tools was not scanned in time");
      await new Promise((res) => setTimeout(res, 250));
      version = await db.skillVersion.findFirst({ where: { skill: { slug: "text-tools" }, status: "passed" } });
    }
    const person = await createUser({ email: `${opts.name}@bench.test`, name: "Bench", password: null });
    const ready = await personAtWork({ url, personId: person.id, version, dataDir, links: opts.links, jobs: opts.jobs });
    links = ready.links;
    stopAgents = ready.close;
    return { url, mcpUrl: url, skill: ready.skill, personId: person.id, ...ready.ops, stop };
  } catch (err) {
    console.error("fixture failed:", err);
    await stop().catch(() => undefined);
    throw err;
  }
}
