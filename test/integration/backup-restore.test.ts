// `npm run backup` and `npm run restore` end to end, as the programs a person runs: a seeded
// instance (demo catalogue, people, ledger) is backed up, restored into a fresh empty database and
// Media folder, and compared table by table (row counts and contents), balance by balance and
// Media hash by hash. A non-empty target and a damaged archive are refused with nothing written;
// a restore that fails in pg_restore takes its Media writes back. Vercel Blob as the store both ways.
import { spawn } from "node:child_process";
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import pg from "pg";
import tar from "tar-stream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeVercelBlob } from "../fakes/vercel-blob-server";
import { setupIntegration, type IntegrationEnv } from "../helpers/integration";

const ROOT = path.resolve(import.meta.dirname, "../..");
let env: IntegrationEnv;
let work: string;
let archive: string;
const databases: string[] = [];

function adminUrl(): string {
  const url = new URL(env.database.url);
  url.pathname = "/postgres";
  return url.toString();
}

async function withClient<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A new empty database (no migrations), dropped at the end. */
async function emptyDatabase(): Promise<string> {
  const name = `${env.database.name}_r${databases.length}`;
  await withClient(adminUrl(), (c) => c.query(`create database "${name}"`));
  databases.push(name);
  const url = new URL(env.database.url);
  url.pathname = `/${name}`;
  return url.toString();
}

function cli(command: "backup" | "restore", args: string[], target: { databaseUrl: string; dataDir: string }) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ["--conditions=react-server", "--import", "tsx", "scripts/backup.ts", command, ...args],
      {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: target.databaseUrl, DATA_DIR: target.dataDir, BLOB_READ_WRITE_TOKEN: "" },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d: Buffer) => (out += d.toString()));
    child.stderr.on("data", (d: Buffer) => (out += d.toString()));
    child.on("exit", (code) => resolve({ code, out }));
  });
}

/** restoreBackup in this process (the refusals; the programs themselves run in the first tests). */
async function restoreHere(file: string, target: { databaseUrl: string; dataDir: string }) {
  const { restoreBackup } = await import("../../lib/backup/restore");
  const { mediaTarget } = await import("../../lib/backup/media-target");
  const progress: string[] = [];
  try {
    await restoreBackup({
      archive: file,
      databaseUrl: target.databaseUrl,
      media: mediaTarget({ DATA_DIR: target.dataDir }),
      env: process.env,
      progress: (m) => progress.push(m),
    });
    return { error: "", progress };
  } catch (err) {
    return { error: (err as Error).message, progress };
  }
}

/** Every public table with its row count and a digest of all its rows. */
async function snapshot(url: string): Promise<Record<string, { rows: number; digest: string }>> {
  return withClient(url, async (c) => {
    const tables = await c.query<{ t: string }>(
      "select tablename as t from pg_tables where schemaname = 'public' order by 1",
    );
    const out: Record<string, { rows: number; digest: string }> = {};
    for (const { t } of tables.rows) {
      const r = await c.query<{ n: string; d: string | null }>(
        `select count(*) as n, md5(coalesce(string_agg(x::text, E'\\n' order by x::text), '')) as d from public."${t}" x`,
      );
      out[t] = { rows: Number(r.rows[0]!.n), digest: r.rows[0]!.d ?? "" };
    }
    return out;
  });
}

async function balances(url: string): Promise<Record<string, string>> {
  return withClient(url, async (c) => {
    const r = await c.query<{ u: string; b: string }>(
      `select "userId" as u, sum("amountMicros")::text as b from "LedgerEntry" group by 1 order by 1`,
    );
    return Object.fromEntries(r.rows.map((x) => [x.u, x.b]));
  });
}

async function mediaRows(url: string) {
  return withClient(
    url,
    async (c) =>
      (
        await c.query<{ id: string; sha256: string; storageKey: string }>(
          `select id, sha256, "storageKey" from "MediaObject" order by id`,
        )
      ).rows,
  );
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => []);
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

const sha256 = (b: Buffer) => createHash("sha256").update(b).digest("hex");

/** Rewrites an archive entry by entry (in memory: these are small), with `extra` entries at the end. */
async function rewriteArchive(
  from: string,
  to: string,
  edit: (name: string, bytes: Buffer) => Buffer,
  extra: Array<{ name: string; bytes: Buffer }> = [],
) {
  const entries: Array<{ name: string; bytes: Buffer }> = [];
  const extract = tar.extract();
  const reading = (async () => {
    for await (const entry of extract) {
      const chunks: Buffer[] = [];
      for await (const chunk of entry) chunks.push(chunk as Buffer);
      entries.push({ name: entry.header.name, bytes: Buffer.concat(chunks) });
    }
  })();
  await pipeline(createReadStream(from), createGunzip(), extract as unknown as NodeJS.WritableStream);
  await reading;
  const pack = tar.pack();
  const writing = pipeline(pack as unknown as NodeJS.ReadableStream, createGzip(), createWriteStream(to));
  for (const e of [...entries.map((x) => ({ name: x.name, bytes: edit(x.name, x.bytes) })), ...extra]) {
    const bytes = e.bytes;
    await new Promise<void>((resolve, reject) =>
      pack.entry({ name: e.name, size: bytes.length }, bytes, (err) => (err ? reject(err) : resolve())),
    );
  }
  pack.finalize();
  await writing;
}

beforeAll(async () => {
  env = await setupIntegration("backup");
  work = await mkdtemp(path.join(tmpdir(), "ov-backup-test-"));
  const { seedDemo } = await import("../../scripts/demo/seed-helpers");
  const { recordTopUp } = await import("../../lib/billing/ledger");
  await seedDemo();
  const people = await env.db.user.findMany({ orderBy: { email: "asc" }, take: 2 });
  await recordTopUp({ userId: people[0]!.id, amountMicros: 5_000_000n, paymentId: "backup-a", memo: "test" });
  await recordTopUp({ userId: people[1]!.id, amountMicros: 1_250_000n, paymentId: "backup-b", memo: "test" });
  await env.db.ledgerEntry.create({
    data: {
      userId: people[0]!.id,
      kind: "charge",
      amountMicros: -730_001n,
      idempotencyKey: "backup-charge",
      memo: "test",
    },
  });
  archive = path.join(work, "instance.tar.gz");
}, 180_000);

afterAll(async () => {
  for (const name of databases) {
    await withClient(adminUrl(), (c) => c.query(`drop database if exists "${name}" with (force)`)).catch(() => {});
  }
  await rm(work, { recursive: true, force: true });
  await env?.teardown();
});

describe("npm run backup, then npm run restore", () => {
  let restored: { databaseUrl: string; dataDir: string };

  it("backs up the seeded instance into one archive with a manifest of sha256 sums", async () => {
    const result = await cli("backup", ["--out", archive], { databaseUrl: env.database.url, dataDir: env.dataDir });
    expect(result.out).toMatch(/▸ Backup: wrote .*instance\.tar\.gz/);
    expect(result.code).toBe(0);
    const media = await mediaRows(env.database.url);
    expect(media.length).toBeGreaterThan(3);
    // The archive's own index agrees with coreutils' format and names every object by its hash.
    let sums = "";
    const names: string[] = [];
    const extract = tar.extract();
    const reading = (async () => {
      for await (const entry of extract) {
        names.push(entry.header.name);
        const chunks: Buffer[] = [];
        for await (const c of entry) chunks.push(c as Buffer);
        if (entry.header.name === "SHA256SUMS") sums = Buffer.concat(chunks).toString();
      }
    })();
    await pipeline(createReadStream(archive), createGunzip(), extract as unknown as NodeJS.WritableStream);
    await reading;
    expect(names.slice(0, 3)).toEqual(["manifest.json", "SHA256SUMS", "database.dump"]);
    for (const sha of new Set(media.map((m) => m.sha256))) {
      expect(names).toContain(`media/sha256/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}`);
      expect(sums).toContain(`${sha}  media/sha256/${sha.slice(0, 2)}/${sha.slice(2, 4)}/${sha}\n`);
    }
    expect(sums).toMatch(/^[0-9a-f]{64} {2}manifest\.json$/m);
  });

  it("restores into a fresh database and Media folder: every table, balance and Media hash the same", async () => {
    restored = { databaseUrl: await emptyDatabase(), dataDir: path.join(work, "restored") };
    const result = await cli("restore", [archive], restored);
    expect(result.out).toMatch(/every count as in the backup/);
    expect(result.code).toBe(0);

    const [before, after] = await Promise.all([snapshot(env.database.url), snapshot(restored.databaseUrl)]);
    expect(Object.keys(after).length).toBeGreaterThan(15);
    expect(after).toEqual(before);
    expect(after.LedgerEntry!.rows).toBeGreaterThanOrEqual(3);

    const [b1, b2] = await Promise.all([balances(env.database.url), balances(restored.databaseUrl)]);
    expect(Object.values(b1)).toContain("4269999");
    expect(b2).toEqual(b1);

    const [m1, m2] = await Promise.all([mediaRows(env.database.url), mediaRows(restored.databaseUrl)]);
    expect(m2).toEqual(m1);
    for (const row of m2) {
      const bytes = await readFile(path.join(restored.dataDir, "media", ...row.storageKey.split("/")));
      expect(sha256(bytes)).toBe(row.sha256);
    }
    expect(await filesUnder(path.join(restored.dataDir, "media"))).toEqual(
      [...new Set(m1.map((m) => m.storageKey))].sort(),
    );
  });

  it("the restored instance serves its code: getMedia re-verifies every object", async () => {
    const { getMedia, createMediaBackend } = await import("../../lib/media");
    const local = createMediaBackend({ DATA_DIR: restored.dataDir });
    for (const row of await mediaRows(restored.databaseUrl)) {
      expect(sha256(await local.get(row.storageKey))).toBe(row.sha256);
    }
    // And the original is still whole (a backup only reads).
    const [first] = await mediaRows(env.database.url);
    expect((await getMedia(first!.id)).object.sha256).toBe(first!.sha256);
  });

  it("refuses a database that is not empty, and changes nothing there", async () => {
    const before = await snapshot(restored.databaseUrl);
    const result = await cli("restore", [archive], {
      databaseUrl: restored.databaseUrl,
      dataDir: path.join(work, "unused-1"),
    });
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/✖ Restore: The database ".*" is not empty .* Restore only goes into an empty database/);
    expect(await snapshot(restored.databaseUrl)).toEqual(before);
    expect(await filesUnder(path.join(work, "unused-1"))).toEqual([]);
  });

  it("refuses a Media store that is not empty, before touching the database", async () => {
    const fresh = await emptyDatabase();
    const { error } = await restoreHere(archive, { databaseUrl: fresh, dataDir: restored.dataDir });
    expect(error).toMatch(/^The Media store \(.*\) is not empty/);
    expect(Object.keys(await snapshot(fresh))).toEqual([]);
  });

  it("refuses an archive whose Media bytes do not match their sha256, with nothing written", async () => {
    const damaged = path.join(work, "damaged.tar.gz");
    await rewriteArchive(archive, damaged, (name, bytes) => {
      if (!name.startsWith("media/")) return bytes;
      const copy = Buffer.from(bytes);
      copy[0] = copy[0]! ^ 0x01;
      return copy;
    });
    const target = { databaseUrl: await emptyDatabase(), dataDir: path.join(work, "damaged-target") };
    const { error } = await restoreHere(damaged, target);
    expect(error).toMatch(/is not a valid OpenVibe backup: media\/sha256\/.* does not match its sha256/);
    expect(Object.keys(await snapshot(target.databaseUrl))).toEqual([]);
    expect(await filesUnder(target.dataDir)).toEqual([]);
  });

  it("refuses an archive whose manifest was edited (its line in SHA256SUMS no longer fits)", async () => {
    const edited = path.join(work, "edited.tar.gz");
    const target = { databaseUrl: await emptyDatabase(), dataDir: path.join(work, "edited-target") };
    await rewriteArchive(archive, edited, (name, bytes) =>
      name === "manifest.json"
        ? Buffer.from(bytes.toString().replace('"format": "openvibe-backup@1"', '"format":"openvibe-backup@1"'))
        : bytes,
    );
    const { error } = await restoreHere(edited, target);
    expect(error).toMatch(/SHA256SUMS does not match manifest\.json/);
    expect(await filesUnder(target.dataDir)).toEqual([]);
  });

  it("refuses an archive with a file the manifest does not list", async () => {
    const extra = path.join(work, "extra.tar.gz");
    const target = { databaseUrl: await emptyDatabase(), dataDir: path.join(work, "extra-target") };
    await rewriteArchive(archive, extra, (_name, bytes) => bytes, [
      { name: "../../etc/cron.d/x", bytes: Buffer.from("* * * * * root true\n") },
    ]);
    const { error } = await restoreHere(extra, target);
    expect(error).toMatch(/it holds "\.\.\/\.\.\/etc\/cron\.d\/x", which the manifest does not list/);
    expect(Object.keys(await snapshot(target.databaseUrl))).toEqual([]);
    expect(await filesUnder(target.dataDir)).toEqual([]);
  });

  it("takes its Media writes back when pg_restore fails, leaving both targets empty", async () => {
    const broken = path.join(work, "broken-dump.tar.gz");
    const garbage = Buffer.from("PGDMP this is not a dump at all");
    const garbageSha = sha256(garbage);
    let dumpSha = "";
    let manifestSha = "";
    await rewriteArchive(archive, broken, (name, bytes) => {
      if (name === "database.dump") return garbage;
      if (name === "manifest.json") {
        const m = JSON.parse(bytes.toString()) as { files: Array<{ path: string; sha256: string; size: number }> };
        const dump = m.files.find((f) => f.path === "database.dump")!;
        dumpSha = dump.sha256;
        dump.sha256 = garbageSha;
        dump.size = garbage.length;
        const out = Buffer.from(JSON.stringify(m, null, 2) + "\n");
        manifestSha = sha256(out);
        return out;
      }
      if (name === "SHA256SUMS") {
        return Buffer.from(
          bytes
            .toString()
            .replace(`${dumpSha}  database.dump`, `${garbageSha}  database.dump`)
            .replace(/^[0-9a-f]{64}( {2}manifest\.json)$/m, `${manifestSha}$1`),
        );
      }
      return bytes;
    });
    const target = { databaseUrl: await emptyDatabase(), dataDir: path.join(work, "broken-target") };
    const { error, progress } = await restoreHere(broken, target);
    expect(progress.join("\n")).toMatch(/archive verified/);
    expect(progress.join("\n")).toMatch(/media: \d+ objects written/);
    expect(error).toMatch(/^pg_restore failed/);
    expect(Object.keys(await snapshot(target.databaseUrl))).toEqual([]);
    expect(await filesUnder(target.dataDir)).toEqual([]);
  });
});

describe("with Vercel Blob as the Media store", () => {
  it("restores into an empty Blob store and backs up from it the same objects", async () => {
    const fake = await startFakeVercelBlob();
    try {
      const { VercelBlobBackend } = await import("../../lib/media");
      const { mediaTarget } = await import("../../lib/backup/media-target");
      const { restoreBackup } = await import("../../lib/backup/restore");
      const { createBackup } = await import("../../lib/backup/backup");
      const blobConfig = { DATA_DIR: work, BLOB_READ_WRITE_TOKEN: fake.token, BLOB_API_URL: fake.apiUrl };
      const target = mediaTarget(blobConfig);
      expect(target.backend).toBeInstanceOf(VercelBlobBackend);
      const databaseUrl = await emptyDatabase();
      const restoredResult = await restoreBackup({ archive, databaseUrl, media: target, env: process.env });
      const rows = await mediaRows(databaseUrl);
      expect(restoredResult.mediaObjects).toBe(new Set(rows.map((r) => r.sha256)).size);
      for (const row of rows) expect(sha256(fake.blobs.get(`media/${row.storageKey}`)!.bytes)).toBe(row.sha256);

      // A second restore into the same (now non-empty) Blob store is refused.
      await expect(
        restoreBackup({ archive, databaseUrl: await emptyDatabase(), media: target, env: process.env }),
      ).rejects.toThrow(/The Media store \(the Vercel Blob store of BLOB_READ_WRITE_TOKEN\) is not empty/);

      const again = path.join(work, "from-blob.tar.gz");
      const backedUp = await createBackup({ databaseUrl, media: target.backend, out: again, env: process.env });
      expect(backedUp.mediaObjects).toBe(restoredResult.mediaObjects);
      const plain = await snapshot(databaseUrl);
      const localAgain = { databaseUrl: await emptyDatabase(), dataDir: path.join(work, "from-blob-target") };
      expect((await restoreHere(again, localAgain)).error).toBe("");
      expect(await snapshot(localAgain.databaseUrl)).toEqual(plain);
    } finally {
      await fake.close();
    }
  }, 120_000);
});
