// The fault scenarios that take seconds and need no store of their own: they run in `npm run chaos`
// and in `npm test` (test/integration/chaos-fast.test.ts). A Link whose result posts reach the
// server but whose answers are lost; a web process restarted under long polls; a Media write that
// fails in the middle of a publish.
import { createHash, randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { startWeb, startWorkerHost } from "../../test/helpers/stack";
import { publishVersion, waitStep, type CallAnswer } from "../../test/helpers/world";
import { freePort } from "../../test/helpers/round-robin";
import {
  Checks,
  callUntilStored,
  envOf,
  jobsOf,
  money,
  pairLink,
  retireLinks,
  unexpectedAnswers,
  until,
  type Scenario,
} from "./kit";

/**
 * Between a Link and its web process: passes everything through, except that the first `drops`
 * result posts of each job reach the server and then lose their connection before the answer.
 */
async function dropAfterPost(upstream: string, drops: number) {
  const posts = new Map<string, number>();
  const server: Server = createServer((req, res) => {
    const m = /^\/api\/link\/v1\/jobs\/([^/]+)\/result$/.exec(req.url ?? "");
    const n = m ? (posts.get(m[1]!) ?? 0) + 1 : 0;
    if (m) posts.set(m[1]!, n);
    const up = httpRequest(
      new URL(req.url ?? "/", upstream),
      { method: req.method, headers: req.headers },
      (answer) => {
        if (m && n <= drops) {
          // The server has the result and answered; the Link never hears it.
          answer.resume();
          answer.on("end", () => res.destroy());
          return;
        }
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    up.on("error", () => res.destroy());
    res.on("close", () => up.destroy());
    req.pipe(up);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    posts,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const resultRepeated: Scenario = {
  name: "Link posts its result again after a lost answer",
  fast: true,
  async run(ctx) {
    const checks = new Checks();
    const web = await startWeb("chaos-web", envOf(ctx));
    const proxy = await dropAfterPost(web.url, 2);
    const link = await pairLink(ctx, proxy.url, "chaos-repost");
    try {
      const before = (await ctx.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).jobsRun;
      const answers: CallAnswer[] = [];
      const stepIds = await Promise.all(
        Array.from({ length: 5 }, (_, i) => callUntilStored(() => web.url, ctx, `repost ${i}`, answers)),
      );
      checks.that(
        unexpectedAnswers(answers).length === 0,
        "5 calls stored (201; a 503 only with Retry-After)",
        answers.map((a) => a.status),
      );
      const ends = await Promise.all(stepIds.map((id) => waitStep([web.url], ctx.world, id, 60_000)));
      checks.that(
        ends.every((e) => e.status === "succeeded"),
        "every step succeeded",
        ends.map((e) => e.status),
      );
      // The Link keeps each result until it hears an answer: wait for its folder to empty.
      const results = path.join(link.home.dir, "link", "results");
      await until("the Link to hear every answer", async () => readdirSync(results).length === 0, 30_000);
      const jobs = await jobsOf(ctx, stepIds);
      checks.that(
        jobs.every((j) => (proxy.posts.get(j.id) ?? 0) >= 3),
        "each result reached the server 3 times (2 answers lost, then one heard)",
        jobs.map((j) => proxy.posts.get(j.id)),
      );
      const m = await money(
        ctx,
        jobs.map((j) => j.id),
      );
      checks.that(m.holds === 5 && m.settlements === 5, "one hold and one settlement per job", m);
      checks.that(m.sum === -m.cost && m.cost > 0n, "charged once: the ledger moved by the jobs' cost", m);
      const after = (await ctx.db.link.findUniqueOrThrow({ where: { id: link.linkId } })).jobsRun;
      checks.that(after - before === 5, "the Link's runs counted once each", after - before);
      checks.that(true, "no result left waiting on the Link");
    } finally {
      await retireLinks(ctx, [link]);
      await proxy.close();
      await web.stop();
    }
    return checks.done;
  },
};

const webRestart: Scenario = {
  name: "web process restarts while agents long-poll",
  fast: true,
  async run(ctx) {
    const checks = new Checks();
    const port = await freePort();
    let web = await startWeb("chaos-web", envOf(ctx), port);
    // As in any stack: a poll answer lost with the restart is placed again when its lease runs out.
    const workers = await startWorkerHost("chaos-workers", envOf(ctx));
    const link = await pairLink(ctx, web.url, "chaos-webrestart");
    try {
      const answers: CallAnswer[] = [];
      const stepIds = await Promise.all(
        Array.from({ length: 5 }, (_, i) => callUntilStored(() => web.url, ctx, `wait 1500 restart ${i}`, answers)),
      );
      checks.that(
        unexpectedAnswers(answers).length === 0,
        "5 calls stored (201; a 503 only with Retry-After)",
        answers.map((a) => a.status),
      );
      const polls = stepIds.map((id) => waitStep([web.url], ctx.world, id, 90_000));
      await new Promise((r) => setTimeout(r, 500));
      const exited = new Promise<number | null>((resolve) => web.child.once("exit", (code) => resolve(code)));
      await web.stop("SIGTERM");
      checks.that((await exited) === 0, "the web process stopped cleanly on SIGTERM (exit 0)");
      web = await startWeb("chaos-web-again", envOf(ctx), port);
      const ends = await Promise.all(polls);
      checks.that(
        ends.every((e) => e.status === "succeeded"),
        "every agent's next poll found its step, succeeded",
        ends.map((e) => (e.status === "succeeded" ? e.status : e)),
      );
      const jobs = await jobsOf(ctx, stepIds);
      const m = await money(
        ctx,
        jobs.map((j) => j.id),
      );
      checks.that(
        m.holds === 5 && m.settlements === 5 && m.sum === -m.cost && m.cost > 0n,
        "each job charged once, for the run that reported",
        { attempts: jobs.map((j) => j.attempts), ...m },
      );
    } finally {
      await retireLinks(ctx, [link]);
      await workers.stop();
      await web.stop();
    }
    return checks.done;
  },
};

function mediaFiles(dataDir: string): Set<string> {
  const out = new Set<string>();
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const p = path.join(dir, name);
      if (statSync(p).isDirectory()) walk(p);
      else out.add(p);
    }
  };
  walk(path.join(dataDir, "media"));
  return out;
}

const mediaWriteFails: Scenario = {
  name: "Media store fails a write during a publish",
  fast: true,
  async run(ctx) {
    const checks = new Checks();
    const web = await startWeb("chaos-web", envOf(ctx));
    const slug = `media-fail-${randomBytes(3).toString("hex")}`;
    const nonce = randomBytes(8).toString("hex");
    try {
      // The bytes this publish will write first: a code file made unique by a comment.
      const extra = `// ${nonce}\n`;
      const { default: fs } = await import("node:fs/promises");
      const code = await fs.readFile(path.resolve(import.meta.dirname, "../../scripts/demo/skills/text-tools/tools/slugify.js"));
      const hex = createHash("sha256").update(Buffer.concat([Buffer.from(extra), code])).digest("hex");
      // A file where the store needs a folder: its write fails, as on a full or broken disk.
      const shard = path.join(ctx.stores.dataDir, "media", "sha256", hex.slice(0, 2));
      const blocker = existsSync(shard) ? path.join(shard, hex.slice(2, 4)) : shard;
      if (existsSync(blocker)) throw new Error("the blocker's place is taken; run again");
      mkdirSync(path.dirname(blocker), { recursive: true });
      writeFileSync(blocker, "not a folder");
      const filesBefore = mediaFiles(ctx.stores.dataDir);
      const rowsBefore = await ctx.db.mediaObject.count();
      const key = `publish-${nonce}`;
      const failed = await publishVersion(web.url, ctx.world, slug, "1.0.0", { key, prefix: extra });
      checks.that(
        failed.status === 502 && failed.body.error?.code === "media.storage_failed",
        "the publish is refused: 502 media.storage_failed, never a bare 500",
        failed,
      );
      checks.that(
        (await ctx.db.skillVersion.count({ where: { skill: { slug } } })) === 0 &&
          (await ctx.db.skill.count({ where: { slug } })) === 0,
        "no version (and no skill) stored",
      );
      checks.that((await ctx.db.mediaObject.count()) === rowsBefore, "no Media row stored");
      const filesAfter = mediaFiles(ctx.stores.dataDir);
      const added = [...filesAfter].filter((f) => !filesBefore.has(f));
      checks.that(added.length === 0, "no Media bytes left behind", added);
      rmSync(blocker);
      const retried = await publishVersion(web.url, ctx.world, slug, "1.0.0", { key, prefix: extra });
      checks.that(retried.status === 201, "the retry with the same Idempotency-Key is published (201)", retried.status);
      const version = await ctx.db.skillVersion.findFirstOrThrow({
        where: { skill: { slug } },
        include: { listing: { include: { code: true } } },
      });
      const { getMedia } = await import("../../lib/media");
      for (const pin of version.listing?.code ?? []) await getMedia(pin.mediaId);
      checks.that(
        (version.listing?.code.length ?? 0) === 2,
        "its code is pinned and every byte reads back (sha256 checked)",
      );
    } finally {
      await web.stop();
    }
    return checks.done;
  },
};

export const FAST_SCENARIOS: Scenario[] = [resultRepeated, webRestart, mediaWriteFails];
