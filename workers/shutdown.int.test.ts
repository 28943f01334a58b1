// Graceful stop of the worker host against the real Redis and PostgreSQL: on SIGTERM the Workers
// take no new job, the handlers already running finish (here a real scan, held in the middle by a
// row lock), and the wait is bounded by WORKER_DRAIN_MS.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import readline from "node:readline";
import { Queue } from "bullmq";
import { Redis } from "ioredis";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { setupIntegration, type IntegrationEnv } from "../test/helpers/integration";

const ROOT = path.resolve(import.meta.dirname, "..");
const DEMO = path.resolve(ROOT, "scripts/demo/skills");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let env: IntegrationEnv;
let registry: typeof import("./registry");
let shutdown: typeof import("./shutdown");
const connections: Redis[] = [];

function bullQueue(name: string, prefix: string): Queue {
  const connection = new Redis(process.env.REDIS_URL ?? "redis://127.0.0.1:6379/0", { maxRetriesPerRequest: null });
  connections.push(connection);
  return new Queue(name, { connection, prefix: `${prefix}:bull` });
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

beforeAll(async () => {
  env = await setupIntegration("drain");
  registry = await import("./registry");
  shutdown = await import("./shutdown");
}, 120_000);

afterAll(async () => {
  await Promise.all(connections.map((c) => c.quit().catch(() => c.disconnect())));
  await env?.teardown();
});

describe("drainHost", () => {
  function slowHost(queueName: string, events: string[]) {
    return registry.startWorkers([
      {
        queue: queueName,
        concurrency: 2,
        jobs: [
          registry.defineJob({
            name: "test.slow",
            schema: z.object({ n: z.number(), ms: z.number() }),
            handle: async ({ n, ms }) => {
              events.push(`start ${n}`);
              await sleep(ms);
              events.push(`end ${n}`);
              return n;
            },
          }),
        ],
      },
    ]);
  }

  it("lets running handlers finish, takes no new job, then closes", async () => {
    const queueName = `drain-${randomBytes(4).toString("hex")}`;
    const events: string[] = [];
    const host = slowHost(queueName, events);
    const queue = bullQueue(queueName, env.redisPrefix);
    const [a, b] = await Promise.all([
      queue.add("test.slow", { n: 1, ms: 800 }),
      queue.add("test.slow", { n: 2, ms: 800 }),
    ]);
    await until("both jobs running", async () => events.filter((e) => e.startsWith("start")).length === 2);

    const draining = shutdown.drainHost(host, 20_000);
    const late = await queue.add("test.slow", { n: 3, ms: 10 });
    const result = await draining;
    events.push("drained");

    expect(result.drained).toBe(true);
    // Both handlers ended before the drain resolved.
    expect(events.slice(0, 4).sort()).toEqual(["end 1", "end 2", "start 1", "start 2"]);
    expect(events.slice(4)).toEqual(["drained"]);
    expect(await queue.getJobState(a.id!)).toBe("completed");
    expect(await queue.getJobState(b.id!)).toBe("completed");
    // Added after the stop began: left for another host.
    expect(await queue.getJobState(late.id!)).toBe("waiting");
    expect(events).not.toContain("start 3");
    await queue.obliterate({ force: true });
    await queue.close();
  });

  it("gives up waiting after the bound, with the job still running (and not marked done)", async () => {
    const queueName = `drain-${randomBytes(4).toString("hex")}`;
    const events: string[] = [];
    const host = slowHost(queueName, events);
    const queue = bullQueue(queueName, env.redisPrefix);
    const job = await queue.add("test.slow", { n: 1, ms: 3_000 });
    await until("the job running", async () => events.includes("start 1"));

    const result = await shutdown.drainHost(host, 300);
    expect(result.drained).toBe(false);
    expect(events).not.toContain("end 1");
    expect(await queue.getJobState(job.id!)).toBe("active");

    // Let the handler end before the queue goes.
    await until("the handler to end", async () => events.includes("end 1"), 10_000);
    await host.close();
    await queue.obliterate({ force: true });
    await queue.close();
  });
});

describe("the worker host process on SIGTERM", () => {
  let versionId: string;
  let lock: pg.Client;

  beforeAll(async () => {
    const { createUser } = await import("../lib/auth/users");
    const { publishSkill } = await import("../lib/registry");
    const { loadBundle } = await import("../lib/contracts");
    const author = await createUser({ email: "drain@example.test", name: "Drain", password: null });
    const bundle = await loadBundle(path.join(DEMO, "text-tools"));
    if (!bundle.ok) throw new Error("demo bundle does not load");
    versionId = (await publishSkill({ ownerId: author.id, document: bundle.document, scan: "none" })).versionId;
  });

  function startHost(prefix: string, drainMs: number) {
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "workers/index.ts"], {
      cwd: ROOT,
      env: {
        ...process.env,
        DATABASE_URL: env.database.url,
        REDIS_PREFIX: prefix,
        DATA_DIR: env.dataDir,
        LOG_LEVEL: "info",
        WORKER_DRAIN_MS: String(drainMs),
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const lines: string[] = [];
    for (const stream of [child.stdout!, child.stderr!])
      readline.createInterface({ input: stream }).on("line", (l) => lines.push(l));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    return { child, lines, exited };
  }

  async function holdVersionRow(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: env.database.url });
    await client.connect();
    await client.query("begin");
    await client.query(`select id from "SkillVersion" where id = $1 for update`, [versionId]);
    return client;
  }

  async function scanRunning(prefix: string, host: { lines: string[]; child: ChildProcess }) {
    await until(
      "the worker host to start",
      async () => host.lines.some((l) => l.includes('"workers.started"')),
      60_000,
    );
    const queue = bullQueue("scan", prefix);
    const job = await queue.add("scan.version", { versionId }, { jobId: `scan-${versionId}-${prefix.slice(-4)}` });
    await until("the scan to be running", async () => (await queue.getJobState(job.id!)) === "active");
    return { queue, jobId: job.id! };
  }

  it("finishes the scan it is running before it exits (exit 0), and the verdict is stored", async () => {
    const prefix = `${env.redisPrefix}:host-${randomBytes(2).toString("hex")}`;
    lock = await holdVersionRow();
    const host = startHost(prefix, 20_000);
    const { queue, jobId } = await scanRunning(prefix, host);

    host.child.kill("SIGTERM");
    await until("the host to log that it is stopping", async () =>
      host.lines.some((l) => l.includes('"workers.stopping"')),
    );
    // The scan is held by the row lock, so the host must still be draining.
    await sleep(1_000);
    expect(host.child.exitCode).toBeNull();
    expect(await queue.getJobState(jobId)).toBe("active");

    await lock.query("rollback");
    await lock.end();
    expect(await host.exited).toBe(0);
    expect(host.lines.find((l) => l.includes('"workers.stopped"'))).toMatch(/"drained":true/);
    expect(await queue.getJobState(jobId)).toBe("completed");
    const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
    expect(version.status).toBe("passed");
    await queue.close();
  }, 120_000);

  it("stops waiting after WORKER_DRAIN_MS (exit 1) and leaves the job to be retried", async () => {
    await env.db.skillVersion.update({ where: { id: versionId }, data: { status: "scanning" } });
    const prefix = `${env.redisPrefix}:host-${randomBytes(2).toString("hex")}`;
    lock = await holdVersionRow();
    const host = startHost(prefix, 500);
    const { queue, jobId } = await scanRunning(prefix, host);
    try {
      host.child.kill("SIGTERM");
      expect(await host.exited).toBe(1);
      expect(host.lines.find((l) => l.includes('"workers.stopped"'))).toMatch(/"drained":false/);
      // Not completed and not failed: its lock lapses and BullMQ hands it out again.
      expect(await queue.getJobState(jobId)).toBe("active");
      const version = await env.db.skillVersion.findUniqueOrThrow({ where: { id: versionId } });
      expect(version.status).toBe("scanning");
    } finally {
      await lock.query("rollback").catch(() => {});
      await lock.end().catch(() => {});
      await queue.close();
    }
  }, 120_000);
});
