// The migration logs every version published before the log existed. Its SQL builds the leaves
// and the stored tree on its own, so it is held here to the TypeScript that builds them for every
// publish since: the same leaf bytes for each event, entries in event-time order, every complete
// subtree stored, and appends after it that extend the backfilled tree correctly.
import { readFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { demoDocument } from "../../test/helpers/skill-docs";
import { emptyRoot, hashChildren, hashLeaf } from "./hash";

const MIGRATION = path.resolve(
  import.meta.dirname,
  "../../prisma/migrations/20261201050000_transparency_log/migration.sql",
);
let env: IntegrationEnv;
let registry: typeof import("../registry");

function mth(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) return emptyRoot();
  if (hashes.length === 1) return hashes[0]!;
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return hashChildren(mth(hashes.slice(0, k)), mth(hashes.slice(k)));
}

/** The migration's backfill statements, split the way the migration executor splits them. */
async function backfillStatements(): Promise<string[]> {
  const sql = await readFile(MIGRATION, "utf8");
  return sql
    .split(";")
    .map((s) => s.trim())
    .filter((s) => /INSERT INTO "Log/.test(s));
}

beforeAll(async () => {
  env = await setupIntegration("tlogbackfill");
  registry = await import("../registry");
  const { createUser } = await import("../auth/users");
  const author = await createUser({ email: "backfill@example.test", name: "Backfill", password: null });
  const day = 86_400_000;
  const now = Date.now();
  // Published out of time order on purpose: the backfill orders by the events' own times.
  const plan = [
    { dir: "text-tools", slug: "bf-text", version: "1.0.0", daysAgo: 5 },
    { dir: "commit-message-style", slug: "bf-prompt", version: "1.2.0", daysAgo: 40 },
    { dir: "csv-stats", slug: "bf-csv", version: "2.0.0-beta.1+build.7", daysAgo: 20 },
    { dir: "csv-stats", slug: "bf-csv", version: "2.0.0", daysAgo: 12 },
    { dir: "json-shape-check", slug: "bf-json", version: "0.1.0", daysAgo: 30 },
  ];
  for (const p of plan) {
    const document = await demoDocument(p.dir, { slug: p.slug, version: p.version });
    await registry.publishSkill({
      ownerId: author.id,
      document,
      publishedAt: new Date(now - p.daysAgo * day),
      scan: "none",
    });
  }
  await registry.retireVersion({
    ownerId: author.id,
    slug: "bf-csv",
    version: "2.0.0-beta.1+build.7",
    retiredAt: new Date(now - 15 * day),
  });
}, 120_000);

afterAll(async () => {
  await registry?.scanQueue().close();
  await env?.teardown();
});

describe("the migration's backfill", () => {
  it("writes the same leaves as the publish path, in event-time order, and the complete tree", async () => {
    const logged = await env.db.logEntry.findMany();
    expect(logged).toHaveLength(6);
    const byEvent = new Map(logged.map((e) => [`${e.versionId}/${e.event}`, e]));

    await env.db.$transaction([env.db.logEntry.deleteMany(), env.db.logNode.deleteMany(), env.db.logHead.deleteMany()]);
    for (const statement of await backfillStatements()) await env.db.$executeRawUnsafe(statement);

    const backfilled = await env.db.logEntry.findMany({ orderBy: { leafIndex: "asc" } });
    expect(backfilled.map((e) => Number(e.leafIndex))).toEqual([0, 1, 2, 3, 4, 5]);
    for (const e of backfilled) {
      const original = byEvent.get(`${e.versionId}/${e.event}`)!;
      expect(e.data).toBe(original.data);
      expect(Buffer.from(e.leafHash).equals(hashLeaf(e.data))).toBe(true);
    }
    const times = backfilled.map((e) => JSON.parse(e.data).time as string);
    expect([...times].sort()).toEqual(times);
    expect(backfilled.map((e) => JSON.parse(e.data).slug)).toEqual([
      "bf-prompt",
      "bf-json",
      "bf-csv",
      "bf-csv",
      "bf-csv",
      "bf-text",
    ]);
    expect((await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } })).size).toBe(6n);

    const hashes = backfilled.map((e) => Buffer.from(e.leafHash));
    const nodes = await env.db.logNode.findMany({ orderBy: [{ level: "asc" }, { index: "asc" }] });
    expect(nodes.map((n) => `${n.level}:${n.index}`)).toEqual(["1:0", "1:1", "1:2", "2:0"]);
    for (const n of nodes) {
      const begin = Number(n.index) * 2 ** n.level;
      expect(Buffer.from(n.hash).equals(mth(hashes.slice(begin, begin + 2 ** n.level)))).toBe(true);
    }
  });

  it("lets the publish path append on top of the backfilled tree", async () => {
    const author = await env.db.user.findFirstOrThrow({ where: { email: "backfill@example.test" } });
    await registry.publishSkill({
      ownerId: author.id,
      document: await demoDocument("unit-convert", { slug: "bf-after", version: "1.0.0" }),
      scan: "none",
    });
    await registry.publishSkill({
      ownerId: author.id,
      document: await demoDocument("machine-info", { slug: "bf-after-2", version: "1.0.0" }),
      scan: "none",
    });
    const all = await env.db.logEntry.findMany({ orderBy: { leafIndex: "asc" } });
    expect(all).toHaveLength(8);
    const { rootAt } = await import("./store");
    expect((await rootAt(env.db, 8)).equals(mth(all.map((e) => Buffer.from(e.leafHash))))).toBe(true);
    expect((await env.db.logNode.findMany()).map((n) => `${n.level}:${n.index}`).sort()).toEqual(
      ["1:0", "1:1", "1:2", "1:3", "2:0", "2:1", "3:0"].sort(),
    );
  });

  it("does nothing on an empty registry but create the head", async () => {
    await env.db.$transaction([env.db.logEntry.deleteMany(), env.db.logNode.deleteMany(), env.db.logHead.deleteMany()]);
    const statements = await backfillStatements();
    // Run against an empty catalogue inside a transaction that is rolled back.
    await env.db
      .$transaction(async (tx) => {
        await tx.$executeRawUnsafe(`DELETE FROM "Install"`);
        await tx.$executeRawUnsafe(`DELETE FROM "SkillVersion"`);
        for (const s of statements) await tx.$executeRawUnsafe(s);
        expect(await tx.logEntry.count()).toBe(0);
        expect(await tx.logNode.count()).toBe(0);
        expect((await tx.logHead.findUniqueOrThrow({ where: { id: 1 } })).size).toBe(0n);
        throw new Error("roll back");
      })
      .catch((err: Error) => expect(err.message).toBe("roll back"));
  });
});
