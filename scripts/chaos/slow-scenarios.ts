// The fault scenarios that wait on leases, lock expiries and sweeps (tens of seconds), or that kill
// a store: only in `npm run chaos`, which gives them a Redis and a PostgreSQL of their own.
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync } from "node:fs";
import path from "node:path";
import { Queue } from "bullmq";
import { startWeb, startWorkerHost, type Proc } from "../../test/helpers/stack";
import { publishVersion, waitStep, type CallAnswer } from "../../test/helpers/world";
import {
  Checks,
  callUntilStored,
  envOf,
  jobsOf,
  money,
  pairLink,
  retireLinks,
  sleep,
  until,
  unexpectedAnswers,
  type ChaosContext,
  type Scenario,
} from "./kit";

/** The worker host's dispatch sweep interval (workers/dispatch.ts) plus the running lease. */
const REPLACE_BOUND_MS = 30_000 + 30_000 + 15_000;

async function runningJob(ctx: ChaosContext, stepId: string) {
  return until(
    "the job to start on a Link",
    async () => {
      const job = await ctx.db.runJob.findUnique({ where: { stepId } });
      return job?.state === "running" && job.linkId ? job : null;
    },
    30_000,
  );
}

const linkKilled: Scenario = {
  name: "Link gets SIGKILL in the middle of a job",
  fast: false,
  async run(ctx) {
    const checks = new Checks();
    const web = await startWeb("chaos-web", envOf(ctx));
    const workers = await startWorkerHost("chaos-workers", envOf(ctx));
    const links = [await pairLink(ctx, web.url, "chaos-kill-a"), await pairLink(ctx, web.url, "chaos-kill-b")];
    try {
      // With a second Link of the person online: the job goes there and is charged once.
      const answers: CallAnswer[] = [];
      const callId = await callUntilStored(() => web.url, ctx, "wait 4000 then count", answers);
      checks.that(
        unexpectedAnswers(answers).length === 0,
        "the call is stored (201)",
        answers.map((a) => a.status),
      );
      const first = await runningJob(ctx, callId);
      const dead = links.find((l) => l.linkId === first.linkId)!;
      const survivor = links.find((l) => l !== dead)!;
      await dead.home.stopProcesses();
      const t0 = Date.now();
      const end = await waitStep([web.url], ctx.world, callId, REPLACE_BOUND_MS + 20_000);
      const took = Date.now() - t0;
      const job = await ctx.db.runJob.findUniqueOrThrow({ where: { id: first.id } });
      checks.that(end.status === "succeeded", "the step succeeded", end.status);
      checks.that(
        job.linkId === survivor.linkId && job.lapsedLinkIds.join() === dead.linkId,
        "the job went to the person's other Link, never back to the dead one",
        { linkId: job.linkId, lapsed: job.lapsedLinkIds },
      );
      checks.that(
        took < REPLACE_BOUND_MS + 10_000,
        `it ended ${Math.round(took / 1000)} s after the kill (bound: lease + sweep)`,
      );
      const m = await money(ctx, [job.id]);
      checks.that(
        m.holds === 1 && m.settlements === 1 && m.sum === -m.cost && m.cost > 0n,
        "charged once, for the run that reported",
        m,
      );

      // With no other Link: the job expires and its hold comes back in full.
      const aloneId = await callUntilStored(() => web.url, ctx, "wait 4000 alone", answers);
      const second = await runningJob(ctx, aloneId);
      await survivor.home.stopProcesses();
      const expired = await waitStep([web.url], ctx.world, aloneId, REPLACE_BOUND_MS + 20_000);
      checks.that(expired.status === "expired", "with no other Link, the step expires", expired.status);
      const m2 = await money(ctx, [second.id]);
      checks.that(m2.holds === 1 && m2.settlements === 1 && m2.sum === 0n, "its hold came back in full", m2);
    } finally {
      await retireLinks(ctx, links);
      await workers.stop();
      await web.stop();
    }
    return checks.done;
  },
};

function bulkyCode(salt: number): string {
  return Array.from(
    { length: 480 },
    (_, i) => `function f${salt}_${i}(a) { const b = a.x${i} + ${i}; return b > ${i} ? [b, a].map((v) => v + 1) : b; }`,
  ).join("\n");
}

const workerKilled: Scenario = {
  name: "worker host gets SIGKILL in the middle of a scan",
  fast: false,
  async run(ctx) {
    const checks = new Checks();
    const web = await startWeb("chaos-web", envOf(ctx));
    let host: Proc = await startWorkerHost("chaos-workers", envOf(ctx));
    const { bullConnection } = await import("../../lib/redis");
    const bull = bullConnection();
    const queue = new Queue("scan", bull);
    try {
      const { SCAN_STUCK_AFTER_MS } = await import("../../lib/registry");
      let caught: { id: string; version: string } | null = null;
      for (let attempt = 0; attempt < 4 && !caught; attempt++) {
        const version = `4.0.${attempt}-chaos${randomBytes(2).toString("hex")}`;
        // About 55 KB of code (under the 64 KiB cap) takes the scanner a few hundred ms: a window to land in.
        const published = await publishVersion(web.url, ctx.world, "text-tools", version, {
          prefix: bulkyCode(attempt),
        });
        if (published.status !== 201) throw new Error(`publish: ${published.status} ${JSON.stringify(published.body)}`);
        const row = await ctx.db.skillVersion.findFirstOrThrow({ where: { version } });
        // Kill the host while it holds the scan job (active), before the verdict is stored.
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline) {
          const job = await queue.getJob(`scan-${row.id}`);
          if (job && (await job.getState()) === "active") break;
          await sleep(5);
        }
        host.child.kill("SIGKILL");
        await host.stop();
        const now = await ctx.db.skillVersion.findUniqueOrThrow({ where: { id: row.id } });
        if (now.status === "scanning") caught = { id: row.id, version };
        host = await startWorkerHost("chaos-workers", envOf(ctx));
      }
      checks.that(caught !== null, "the host was killed while a scan was in progress (no verdict yet)");
      const t0 = Date.now();
      const bound = SCAN_STUCK_AFTER_MS + 60_000;
      const done = await until(
        "the verdict",
        async () => {
          const v = await ctx.db.skillVersion.findUniqueOrThrow({ where: { id: caught!.id } });
          return v.status !== "scanning" ? v : null;
        },
        bound,
      );
      checks.that(
        done.status !== "scanning",
        `a restarted host stored the verdict (${done.status}) ${Math.round((Date.now() - t0) / 1000)} s later (bound ${bound / 1000} s)`,
        done.status,
      );
      const listing = await ctx.db.listing.findUniqueOrThrow({
        where: { versionId: caught!.id },
        include: { _count: { select: { findings: true } } },
      });
      const completed = (await queue.getJobs(["completed"], 0, 1_000)).filter((j) => j.data.versionId === caught!.id);
      const stored = completed.filter((j) => j.returnvalue?.stored === true);
      checks.that(
        stored.length === 1 && listing._count.findings === stored[0]!.returnvalue.findings,
        "the scan was stored once",
        {
          stored: stored.length,
        },
      );
    } finally {
      await queue.close();
      await bull.connection.quit().catch(() => undefined);
      await host.stop();
      await web.stop();
    }
    return checks.done;
  },
};

const redisRestarts: Scenario = {
  name: "Redis restarts during 20 running calls",
  fast: false,
  needs: "redis",
  async run(ctx) {
    const checks = new Checks();
    const redis = ctx.redis!;
    const webs = [await startWeb("chaos-web-1", envOf(ctx)), await startWeb("chaos-web-2", envOf(ctx))];
    const workers = await startWorkerHost("chaos-workers", envOf(ctx));
    const links = [
      await pairLink(ctx, webs[0]!.url, "chaos-redis-a"),
      await pairLink(ctx, webs[1]!.url, "chaos-redis-b"),
    ];
    const urls = webs.map((w) => w.url);
    try {
      const answers: CallAnswer[] = [];
      const stepIds = await Promise.all(
        Array.from({ length: 20 }, (_, i) => callUntilStored(() => urls[i % 2]!, ctx, `wait 1500 redis ${i}`, answers)),
      );
      const polls = stepIds.map((id, i) => waitStep([urls[i % 2]!, urls[(i + 1) % 2]!], ctx.world, id, 150_000));
      await until(
        "some jobs to run",
        async () => (await ctx.db.runJob.count({ where: { stepId: { in: stepIds }, state: "running" } })) > 0,
        30_000,
      );
      await redis.kill();
      // Calls made while it is down: stored (201), or refused with 503 and Retry-After, never 500.
      const during = Array.from({ length: 4 }, (_, i) =>
        callUntilStored(() => urls[i % 2]!, ctx, `during ${i}`, answers),
      );
      await sleep(3_000);
      await redis.start();
      const late = await Promise.all(during);
      const ends = await Promise.all([...polls, ...late.map((id) => waitStep(urls, ctx.world, id, 150_000))]);
      checks.that(
        ends.every((e) => e.status === "succeeded"),
        "all 24 steps ended succeeded: none lost, none stuck, long polls resumed",
        ends.map((e) => e.status),
      );
      const bad = unexpectedAnswers(answers);
      checks.that(bad.length === 0, "every answer was 201 or 503 with Retry-After (no 500)", bad.slice(0, 3));
      const jobs = await jobsOf(ctx, [...stepIds, ...late]);
      const m = await money(
        ctx,
        jobs.map((j) => j.id),
      );
      checks.that(
        jobs.length === 24 && m.holds === 24 && m.settlements === 24 && m.sum === -m.cost,
        "charges equal runs: one hold, one settlement each",
        m,
      );
      const { bullConnection } = await import("../../lib/redis");
      const bull = bullConnection();
      const dispatch = new Queue("dispatch", bull);
      try {
        const schedulers = await until(
          "the sweep schedules to be made again",
          async () => {
            const found = (await dispatch.getJobSchedulers()).map((s) => s.key);
            return found.includes("dispatch.sweep") ? found : null;
          },
          40_000,
        );
        checks.that(schedulers.length === 1, "the dispatch sweep's schedule is back, once", schedulers);
      } finally {
        await dispatch.close();
        await bull.connection.quit().catch(() => undefined);
      }
      const after = await callUntilStored(() => urls[0]!, ctx, "after the restart", answers);
      checks.that(
        (await waitStep(urls, ctx.world, after, 60_000)).status === "succeeded",
        "a call after the restart runs: queues and timers go on",
      );
    } finally {
      await retireLinks(ctx, links);
      await workers.stop();
      await Promise.all(webs.map((w) => w.stop()));
    }
    return checks.done;
  },
};

const postgresRestarts: Scenario = {
  name: "PostgreSQL restarts in the middle of a publish",
  fast: false,
  needs: "postgres",
  async run(ctx) {
    const checks = new Checks();
    const web = await startWeb("chaos-web", envOf(ctx));
    const mediaBefore = await ctx.db.mediaObject.findMany({ select: { id: true } });
    const known = new Set(mediaBefore.map((m) => m.id));
    try {
      const answers: { status: number; retryAfter: string | null; code?: string }[] = [];
      const publishUntilDone = async (i: number) => {
        const version = `5.0.${i}`;
        const key = `chaos-pub-${randomBytes(6).toString("hex")}`;
        const prefix = `// chaos ${randomBytes(8).toString("hex")}\n`;
        let last: (typeof answers)[number] | undefined;
        for (let attempt = 0; attempt < 40; attempt++) {
          const answer = await publishVersion(web.url, ctx.world, "text-tools", version, { key, prefix }).catch(
            (err: Error) => ({ status: 0, body: { error: { code: err.message } }, retryAfter: null }),
          );
          last = { status: answer.status, retryAfter: answer.retryAfter, code: answer.body.error?.code };
          answers.push(last);
          if (answer.status === 201 || answer.status === 200) return version;
          await sleep(1_000);
        }
        throw new Error(`version ${version} never published (last answer: ${JSON.stringify(last)})`);
      };
      const publishing = Array.from({ length: 6 }, (_, i) => sleep(i * 150).then(() => publishUntilDone(i)));
      await sleep(300);
      await ctx.postgres!.restart({ downMs: 3_000 });
      const versions = await Promise.all(publishing);
      const refused = answers.filter((a) => a.status === 503);
      const bad = answers.filter((a) => a.status !== 201 && a.status !== 200 && !(a.status === 503 && a.retryAfter));
      checks.that(
        bad.length === 0,
        "every answer was 201 or 503 service.unavailable with Retry-After (no 500)",
        bad.slice(0, 3),
      );
      checks.that(
        refused.every((a) => a.code === "service.unavailable"),
        `${refused.length} publishes got 503 service.unavailable while it was down`,
      );
      checks.that(versions.length === 6, "each publish, retried with its Idempotency-Key, succeeded");
      const rows = await ctx.db.skillVersion.findMany({
        where: { version: { in: versions } },
        include: { listing: { include: { code: true } } },
      });
      checks.that(
        rows.length === 6 && rows.every((r) => r.listing && r.listing.code.length === 2),
        "no half-stored version: each has its listing and both code pins",
        rows.map((r) => r.listing?.code.length),
      );
      const fresh = (await ctx.db.mediaObject.findMany({ include: { _count: { select: { pins: true } } } })).filter(
        (m) => !known.has(m.id),
      );
      const orphans = fresh.filter((m) => m._count.pins === 0);
      checks.that(
        orphans.length === 0,
        "no orphaned Media row: every new object is pinned by a listing",
        orphans.map((o) => o.id),
      );
      const { getMedia } = await import("../../lib/media");
      for (const m of fresh) await getMedia(m.id);
      checks.that(true, "every new object's bytes read back (sha256 checked)");
      const rowsBySha = new Set((await ctx.db.mediaObject.findMany({ select: { sha256: true } })).map((m) => m.sha256));
      const strays = storedBlobs(ctx.stores.dataDir).filter((hex) => !rowsBySha.has(hex));
      checks.that(strays.length === 0, "no orphaned Media bytes: every stored file has its row", strays);
    } finally {
      await web.stop();
    }
    return checks.done;
  },
};

/** The sha256 of every blob the local Media store holds (`media/sha256/ab/cd/<hex>`), temp files too. */
function storedBlobs(dataDir: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name));
      else out.push(entry.name);
    }
  };
  walk(path.join(dataDir, "media", "sha256"));
  return out;
}

export const SLOW_SCENARIOS: Scenario[] = [linkKilled, workerKilled, redisRestarts, postgresRestarts];
