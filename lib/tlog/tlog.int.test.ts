// The log inside the registry, against the real PostgreSQL: every publish and retire appends one
// entry in the same transaction, indices stay dense under concurrent publishes, the stored tree
// matches the RFC definition, and the signer refuses a key or a history it did not sign before.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { setupIntegration, type IntegrationEnv } from "../../test/helpers/integration";
import { demoDocument } from "../../test/helpers/skill-docs";
import { emptyRoot, hashChildren, hashLeaf } from "./hash";
import { listingHash, parseLeaf } from "./leaf";
import { generateSignerKey, openNote, parseCheckpoint, parseVerifierKey } from "./note";

let env: IntegrationEnv;
let registry: typeof import("../registry");
let tlog: typeof import("./index");
let author: { id: string };

function mth(hashes: Buffer[]): Buffer {
  if (hashes.length === 0) return emptyRoot();
  if (hashes.length === 1) return hashes[0]!;
  let k = 1;
  while (k * 2 < hashes.length) k *= 2;
  return hashChildren(mth(hashes.slice(0, k)), mth(hashes.slice(k)));
}

async function entries() {
  const rows = await env.db.logEntry.findMany({ orderBy: { leafIndex: "asc" } });
  return rows.map((r) => ({ ...r, index: Number(r.leafIndex), leafHash: Buffer.from(r.leafHash) }));
}

async function publish(slug: string, version = "1.0.0", dir = "text-tools") {
  return registry.publishSkill({
    ownerId: author.id,
    document: await demoDocument(dir, { slug, version }),
    scan: "none",
  });
}

beforeAll(async () => {
  env = await setupIntegration("tlog");
  registry = await import("../registry");
  tlog = await import("./index");
  const { createUser } = await import("../auth/users");
  author = await createUser({ email: "tlog@example.test", name: "Log Author", password: null });
}, 120_000);

afterAll(async () => {
  await registry?.scanQueue().close();
  await env?.teardown();
});

describe("appending", () => {
  it("logs a publish in the same transaction, with the leaf the listing API lets anyone recompute", async () => {
    const published = await publish("tlog-first");
    const [entry] = await entries();
    expect(entry).toMatchObject({ index: 0, versionId: published.versionId, event: "publish" });
    expect(entry!.leafHash).toEqual(hashLeaf(entry!.data));
    const leaf = parseLeaf(entry!.data);
    const listing = await registry.listingDocument("tlog-first", "1.0.0");
    expect(leaf).toEqual({
      event: "publish",
      integrity: listing.skill.integrity,
      listing_hash: listingHash(listing),
      slug: "tlog-first",
      time: listing.published_at,
      version: "1.0.0",
    });
    expect((await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } })).size).toBe(1n);
  });

  it("never shows a version without its entry: when the append fails, the publish leaves nothing", async () => {
    await env.db.logHead.delete({ where: { id: 1 } });
    try {
      await expect(publish("tlog-unlogged")).rejects.toThrow(/no head row/);
    } finally {
      await env.db.logHead.create({ data: { id: 1, size: BigInt((await entries()).length) } });
    }
    expect(await env.db.skill.count({ where: { slug: "tlog-unlogged" } })).toBe(0);
    expect(await env.db.mediaObject.count({ where: { owner: { id: author.id } } })).toBe(
      await env.db.listingCode.count(),
    );
  });

  it("never logs a version twice: a repeated publish and a second append add nothing", async () => {
    const before = (await entries()).length;
    const again = await publish("tlog-first");
    expect(again.created).toBe(false);
    expect((await entries()).length).toBe(before);
    await expect(
      env.db.$transaction((tx) => tlog.appendToLog(tx, { versionId: again.versionId, event: "publish" })),
    ).rejects.toThrow();
    expect((await entries()).length).toBe(before);
    expect(Number((await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } })).size)).toBe(before);
  });

  it("keeps indices dense and the stored tree equal to the RFC tree under concurrent publishes", async () => {
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => publish(`tlog-burst-${i}`, "1.0.0", i % 2 ? "csv-stats" : "text-tools")),
    );
    const all = await entries();
    expect(all.map((e) => e.index)).toEqual(all.map((_, i) => i));
    const size = all.length;
    const { rootAt } = await import("./store");
    expect((await rootAt(env.db, size)).toString("hex")).toBe(mth(all.map((e) => e.leafHash)).toString("hex"));
    for (let n = 1; n <= size; n++) {
      expect((await rootAt(env.db, n)).equals(mth(all.slice(0, n).map((e) => e.leafHash))), `size ${n}`).toBe(true);
    }
  });

  it("logs one retire per version, also when two retires race", async () => {
    await publish("tlog-retired");
    const results = await Promise.all([
      registry.retireVersion({ ownerId: author.id, slug: "tlog-retired", version: "1.0.0" }),
      registry.retireVersion({ ownerId: author.id, slug: "tlog-retired", version: "1.0.0" }),
    ]);
    expect(results[0]!.retiredAt.getTime()).toBe(results[1]!.retiredAt.getTime());
    const retires = (await entries()).filter((e) => e.event === "retire");
    expect(retires).toHaveLength(1);
    const listing = await registry.listingDocument("tlog-retired", "1.0.0");
    expect(parseLeaf(retires[0]!.data)).toMatchObject({ event: "retire", time: listing.retired_at });
  });
});

describe("checkpoints", () => {
  it("signs the current size and root with the log key, and re-signs the same size with a newer time", async () => {
    const first = await tlog.signCheckpoint(new Date("2026-12-01T05:00:00Z"));
    const key = parseVerifierKey(tlog.logKey().vkey);
    const body = parseCheckpoint(openNote(first.note, key));
    const all = await entries();
    expect(body).toMatchObject({ origin: key.name, size: all.length, time: new Date("2026-12-01T05:00:00Z") });
    expect(body.rootHash.equals(mth(all.map((e) => e.leafHash)))).toBe(true);
    const again = await tlog.signCheckpoint(new Date("2026-12-01T05:00:30Z"));
    expect(again.size).toBe(first.size);
    expect(await env.db.logCheckpoint.count()).toBe(1);
    expect(parseCheckpoint(openNote(again.note, key)).time).toEqual(new Date("2026-12-01T05:00:30Z"));
  });

  it("is re-signed by the worker host's 30-second schedule", async () => {
    const { tlogQueueDefinition, TLOG_CHECKPOINT_JOB } = await import("../../workers/tlog");
    expect(tlogQueueDefinition.schedules).toEqual([{ name: TLOG_CHECKPOINT_JOB, everyMs: 30_000 }]);
    const before = await tlog.latestCheckpoint();
    const { processorFor } = await import("../../workers/registry");
    const result = await processorFor(tlogQueueDefinition)({ name: TLOG_CHECKPOINT_JOB, data: {}, id: "1" } as never);
    const after = await tlog.latestCheckpoint();
    expect(result).toMatchObject({ size: after!.size });
    expect(after!.signedAt.getTime()).toBeGreaterThan(before!.signedAt.getTime());
  });

  it("signs on demand when the tree has grown past the newest checkpoint", async () => {
    const before = await tlog.latestCheckpoint();
    await publish("tlog-after-checkpoint");
    const fresh = await tlog.freshCheckpoint();
    expect(fresh.size).toBe(before!.size + 1);
    expect(await tlog.freshCheckpoint()).toEqual(fresh);
  });

  it("signs once when many readers find the checkpoint behind the tree at the same moment", async () => {
    await publish("tlog-many-readers");
    const notes = await Promise.all(Array.from({ length: 8 }, () => tlog.freshCheckpoint()));
    expect(new Set(notes.map((n) => n.signedAt.getTime())).size).toBe(1);
    expect(notes[0]!.size).toBe((await entries()).length);
  });

  it("refuses to sign a rewritten, re-hashed history, and readers get 503 instead of a checkpoint", async () => {
    const good = await tlog.signCheckpoint();
    // An insider rewrites entry 1 and every stored hash above it, so the tree is self-consistent.
    const all = await entries();
    const forged = all[1]!.data.replace('"event":"publish"', '"event":"retire"');
    const hashes = all.map((e, i) => (i === 1 ? hashLeaf(forged) : e.leafHash));
    await env.db.logEntry.update({
      where: { leafIndex: 1n },
      data: { data: forged, leafHash: new Uint8Array(hashes[1]!) },
    });
    const nodes = await env.db.logNode.findMany();
    for (const n of nodes) {
      const begin = Number(n.index) * 2 ** n.level;
      const hash = mth(hashes.slice(begin, begin + 2 ** n.level));
      await env.db.logNode.update({
        where: { level_index: { level: n.level, index: n.index } },
        data: { hash: new Uint8Array(hash) },
      });
    }
    try {
      await expect(tlog.signCheckpoint()).rejects.toMatchObject({
        code: "log.unavailable",
        details: { reason: "log.inconsistent" },
      });
      await expect(tlog.freshCheckpoint(new Date(Date.now() + 120_000))).rejects.toMatchObject({
        code: "log.unavailable",
      });
    } finally {
      await env.db.logEntry.update({
        where: { leafIndex: 1n },
        data: { data: all[1]!.data, leafHash: new Uint8Array(all[1]!.leafHash) },
      });
      for (const n of nodes) {
        await env.db.logNode.update({
          where: { level_index: { level: n.level, index: n.index } },
          data: { hash: n.hash },
        });
      }
    }
    await expect(tlog.signCheckpoint()).resolves.toMatchObject({ size: good.size });
  });

  it("refuses to sign when an entry was rewritten in place, with or without its leaf hash", async () => {
    await tlog.signCheckpoint();
    const [entry] = await env.db.logEntry.findMany({ where: { leafIndex: 2n } });
    const forged = entry!.data.replace('"event":"publish"', '"event":"retire"');
    for (const change of [{ data: forged }, { data: forged, leafHash: new Uint8Array(hashLeaf(forged)) }]) {
      await env.db.logEntry.update({ where: { leafIndex: 2n }, data: change });
      try {
        await expect(tlog.signCheckpoint(new Date(Date.now() + 120_000))).rejects.toMatchObject({
          details: { reason: "log.inconsistent" },
        });
      } finally {
        await env.db.logEntry.update({
          where: { leafIndex: 2n },
          data: { data: entry!.data, leafHash: entry!.leafHash },
        });
      }
    }
    await expect(tlog.signCheckpoint()).resolves.toBeTruthy();
  });

  it("refuses to sign with a key other than the one that signs this log", async () => {
    const head = await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } });
    await env.db.logHead.update({ where: { id: 1 }, data: { vkey: generateSignerKey("other.example/log").vkey } });
    try {
      await expect(tlog.signCheckpoint()).rejects.toMatchObject({ details: { reason: "log.key_mismatch" } });
    } finally {
      await env.db.logHead.update({ where: { id: 1 }, data: { vkey: head.vkey } });
    }
  });

  it("keeps the local key in DATA_DIR with mode 0600 and names it after APP_URL", async () => {
    const { stat, readFile } = await import("node:fs/promises");
    const path = await import("node:path");
    const file = path.join(env.dataDir, tlog.LOCAL_KEY_FILE);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect((await readFile(file, "utf8")).startsWith("PRIVATE+KEY+localhost:3000/skills-log+")).toBe(true);
    expect(tlog.logKey().origin).toBe("localhost:3000/skills-log");
  });
});

describe("the signer's rolling audit", () => {
  it("re-checks a large log one window per signature and catches a row changed far from the head", async () => {
    // Fill the log past two audit windows with well-formed entries and the complete tree above them.
    const { AUDIT_WINDOW } = await import("./audit");
    const start = (await entries()).length;
    const target = 2 * AUDIT_WINDOW + 100;
    await env.db.$executeRaw`
      INSERT INTO "LogEntry" ("leafIndex", "versionId", "event", "data", "leafHash")
      SELECT g, 'filler-' || g, 'publish', '{"filler":' || g || '}', sha256('\\x00'::bytea || convert_to('{"filler":' || g || '}', 'UTF8'))
      FROM generate_series(${start}::int, ${target - 1}::int) g`;
    const { readFile } = await import("node:fs/promises");
    const path = await import("node:path");
    const migration = await readFile(
      path.resolve(import.meta.dirname, "../../prisma/migrations/20261201050000_transparency_log/migration.sql"),
      "utf8",
    );
    await env.db.logNode.deleteMany();
    await env.db.$executeRawUnsafe(migration.split(";").find((q) => q.includes('INSERT INTO "LogNode"'))!);
    await env.db.logHead.update({ where: { id: 1 }, data: { size: BigInt(target), auditCursor: 0n } });
    await env.db.logCheckpoint.deleteMany();

    await tlog.signCheckpoint();
    expect((await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } })).auditCursor).toBe(BigInt(AUDIT_WINDOW));
    // A quiet rewrite in the second window: the next signature, which audits that window, refuses.
    const index = BigInt(AUDIT_WINDOW + 500);
    const entry = await env.db.logEntry.findUniqueOrThrow({ where: { leafIndex: index } });
    const forged = '{"filler":"forged"}';
    await env.db.logEntry.update({
      where: { leafIndex: index },
      data: { data: forged, leafHash: new Uint8Array(hashLeaf(forged)) },
    });
    try {
      await expect(tlog.signCheckpoint(new Date(Date.now() + 120_000))).rejects.toMatchObject({
        details: { reason: "log.inconsistent" },
      });
    } finally {
      await env.db.logEntry.update({
        where: { leafIndex: index },
        data: { data: entry.data, leafHash: entry.leafHash },
      });
    }
    await tlog.signCheckpoint(new Date(Date.now() + 180_000));
    await tlog.signCheckpoint(new Date(Date.now() + 240_000));
    expect((await env.db.logHead.findUniqueOrThrow({ where: { id: 1 } })).auditCursor).toBe(0n);
  });
});
